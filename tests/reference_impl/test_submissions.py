"""The hidden tests are strong (every sample mistake is rejected, by the tests named after it) and
fair (every sample correct variant passes every test).

Samples live in ``submissions/<family>/{wrong,right}/`` with a header naming their drills and
their mistake or variant (see ``sample_grading.py``). Each drill's samples are graded in one child
process, as the app grades them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sample_grading import REPO, discover, failures, grade

SAMPLES = discover()
SHIPPED_DRILLS = sorted(path.stem for path in (REPO / "drills").glob("*.yaml"))
GRADED_DRILLS = sorted({drill for sample in SAMPLES for drill in sample.drills})


def test_every_sample_documents_itself() -> None:
    problems = []
    for sample in SAMPLES:
        if not sample.drills:
            problems.append(f"{sample.label}: no '# drills:' line")
        unknown = set(sample.drills) - set(SHIPPED_DRILLS)
        if unknown:
            problems.append(f"{sample.label}: unknown drills {sorted(unknown)}")
        if not sample.note:
            problems.append(f"{sample.label}: no '# {'mistake' if sample.kind == 'wrong' else 'variant'}:' line")
        if (sample.kind == "wrong") != bool(sample.caught_by):
            problems.append(
                f"{sample.label}: wrong samples name the tests that catch them ('# caught-by:'), right ones none"
            )
    assert not problems, "\n".join(problems)


def test_every_shipped_drill_has_wrong_and_right_samples() -> None:
    missing = [
        f"{drill}: no {kind} sample"
        for drill in SHIPPED_DRILLS
        for kind in ("wrong", "right")
        if not any(drill in s.drills and s.kind == kind for s in SAMPLES)
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("drill_id", GRADED_DRILLS)
def test_samples_are_graded_as_their_headers_say(drill_id: str) -> None:
    samples = [s for s in SAMPLES if drill_id in s.drills]
    records = grade(drill_id, {s.label: s.path.read_text(encoding="utf-8") for s in samples})
    problems = []
    for sample in samples:
        record = records[sample.label]
        where = f"{sample.label} ({sample.note})"
        trouble = record["import_error"] or record["missing"] or record["collect_errors"]
        if trouble:
            problems.append(f"{where}: does not build or collect: {trouble}")
            continue
        failed = failures(record)
        if not record["results"]:
            problems.append(f"{where}: no hidden test ran")
        elif sample.kind == "right" and failed:
            messages = {name: msg[-300:] for name, outcome, msg in record["results"] if outcome != "passed"}
            problems.append(f"{where}: a correct variant failed {messages}")
        elif sample.kind == "wrong":
            if not failed:
                problems.append(f"{where}: passed all {len(record['results'])} hidden tests")
            ran = {name for name, _, _ in record["results"]}
            named = [test for test in sample.caught_by if test in ran]
            if not named:
                problems.append(f"{where}: none of its caught-by tests {list(sample.caught_by)} runs in {drill_id}")
            problems += [
                f"{where}: expected {test} to fail, got {failed.get(test, 'passed')}"
                for test in named
                if failed.get(test) != "failed"
            ]
    assert not problems, "\n".join(problems)
