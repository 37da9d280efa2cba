"""The WordPiece and Unigram hidden tests are strong (reject known mistakes) and fair (pass right code).

Every file under ``submissions/{wordpiece,unigram}/{wrong,right}/`` is a submission with a header:

    # drills: <drill id>[, <drill id>...]
    # mistake: <what is wrong>            (wrong/ only)
    # caught-by: <test name>[, ...]       (wrong/ only: tests that must fail)
    # variant: <how it differs>           (right/ only)

``submissions/book_listing_wordpiece_unigram.py`` (the book's own code) must pass every drill it
names, each drill's starter must fail, and the retype-mode text of the reference (plus the imports
it needs) must pass. Submissions are graded like the app grades them
(``build_module`` over the reference, ``run_hidden_tests`` with the drill's hidden tests), in one
child process per drill so that the nested pytest runs stay out of this session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tokdrill.content.reference import reference_source

HERE = Path(__file__).resolve().parent
SUBMISSIONS = HERE / "submissions"
REPO = HERE.parents[1]
DRILLS = REPO / "drills"
FAMILIES = ("wordpiece", "unigram")
BOOK_LISTING = SUBMISSIONS / "book_listing_wordpiece_unigram.py"
RETYPE_IMPORTS = "import math\nfrom collections import Counter\n\n\n"  # retype text holds no imports
OUR_DRILLS = ("wordpiece-tokenize-word", "wordpiece-train", "viterbi-segment", "unigram-em-prune")

# Child process: grade each job, write the results as JSON. argv[1] = jobs file, argv[2] = output.
# Plugin autoload, the unraisable-exception plugin (five gc.collect() per run) and long tracebacks
# are switched off: they cost most of each nested run's time and play no part in the verdict.
CHILD = r"""
import json, sys, time
from pathlib import Path
from tokdrill.grading.submission import build_module
from tokdrill.grading.inprocess import run_hidden_tests

jobs = json.loads(Path(sys.argv[1]).read_text())
out = []
for job in jobs:
    record = {"key": job["key"], "results": [], "collect_errors": [], "missing": [], "import_error": ""}
    try:
        module, missing = build_module(job["source"], job["symbols"])
        record["missing"] = [str(m) for m in missing]
    except Exception as exc:
        record["import_error"] = f"{type(exc).__name__}: {exc}"
        out.append(record)
        continue
    started = time.perf_counter()
    results, errors = run_hidden_tests([Path(p) for p in job["hidden"]], module, ["-p", "no:unraisableexception", "--tb=native"])
    record["seconds"] = time.perf_counter() - started
    record["results"] = [[r.name.split("::")[-1], r.outcome, r.message[:300]] for r in results]
    record["collect_errors"] = errors
    out.append(record)
Path(sys.argv[2]).write_text(json.dumps(out))
"""


@dataclass(frozen=True)
class Submission:
    path: Path
    kind: str  # "wrong" | "right"
    drills: tuple[str, ...]
    caught_by: tuple[str, ...]
    note: str

    @property
    def label(self) -> str:
        return str(self.path.relative_to(SUBMISSIONS))


def _header(path: Path) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if not line.startswith("# ") or ":" not in line:
            if fields:
                break
            continue
        key, _, value = line[2:].partition(":")
        fields[key.strip()] = value.strip()
    return fields


def _split(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def discover() -> list[Submission]:
    found = [Submission(BOOK_LISTING, "right", OUR_DRILLS, (), "the book's listing, verbatim")]
    for family in FAMILIES:
        for kind in ("wrong", "right"):
            for path in sorted((SUBMISSIONS / family / kind).glob("*.py")):
                head = _header(path)
                found.append(
                    Submission(
                        path,
                        kind,
                        _split(head.get("drills", "")),
                        _split(head.get("caught-by", "")),
                        head.get("mistake") or head.get("variant", ""),
                    )
                )
    return found


SUBMISSION_LIST = discover()
CASES = [(s, d) for s in SUBMISSION_LIST for d in s.drills]


def _drill(drill_id: str) -> dict:
    return yaml.safe_load((DRILLS / f"{drill_id}.yaml").read_text())


def _jobs(drill_id: str) -> list[dict]:
    drill = _drill(drill_id)
    hidden = [str(DRILLS / "hidden" / name) for name in drill["hidden_tests"]]
    jobs = [
        {"key": s.label, "source": s.path.read_text(), "symbols": drill["symbols"], "hidden": hidden}
        for s in SUBMISSION_LIST
        if drill_id in s.drills
    ]
    jobs.append({"key": "<starter>", "source": drill["starter"], "symbols": drill["symbols"], "hidden": hidden})
    retyped = RETYPE_IMPORTS + reference_source(drill["symbols"])
    jobs.append({"key": "<retyped reference>", "source": retyped, "symbols": drill["symbols"], "hidden": hidden})
    return jobs


class _Grading:
    """One child process per drill, all started together on first use, results read on demand."""

    def __init__(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self._procs: dict[str, tuple[subprocess.Popen, Path]] = {}
        self._done: dict[str, dict[str, dict]] = {}
        env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
        for drill_id in OUR_DRILLS:
            jobs_file = Path(self._tmp.name, f"{drill_id}.jobs.json")
            out_file = Path(self._tmp.name, f"{drill_id}.out.json")
            jobs_file.write_text(json.dumps(_jobs(drill_id)))
            proc = subprocess.Popen(
                [sys.executable, "-c", CHILD, str(jobs_file), str(out_file)],
                cwd=REPO,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            self._procs[drill_id] = (proc, out_file)

    def result(self, drill_id: str) -> dict[str, dict]:
        if drill_id not in self._done:
            proc, out_file = self._procs[drill_id]
            _, stderr = proc.communicate(timeout=300)
            assert proc.returncode == 0 and out_file.exists(), f"grading child for {drill_id} failed:\n{stderr[-3000:]}"
            self._done[drill_id] = {r["key"]: r for r in json.loads(out_file.read_text())}
        return self._done[drill_id]


_grading: _Grading | None = None


def graded(drill_id: str) -> dict[str, dict]:
    """Results of every submission of ``drill_id`` (and its starter), keyed by submission label."""
    global _grading
    if _grading is None:
        _grading = _Grading()
    return _grading.result(drill_id)


def _summary(record: dict) -> str:
    bad = [f"{name}: {outcome}: {message}" for name, outcome, message in record["results"] if outcome != "passed"]
    return "\n".join(bad[:8]) or "(all passed)"


def test_every_submission_names_existing_drills_and_documents_itself():
    assert {d for s in SUBMISSION_LIST for d in s.drills} <= set(OUR_DRILLS)
    for s in SUBMISSION_LIST:
        assert s.drills, f"{s.label}: no '# drills:' header"
        assert s.note, f"{s.label}: no '# mistake:' / '# variant:' header"
        assert (s.kind == "wrong") == bool(s.caught_by), f"{s.label}: wrong files need '# caught-by:', right ones none"
    wrong = {d for s in SUBMISSION_LIST if s.kind == "wrong" for d in s.drills}
    right = {d for s in SUBMISSION_LIST if s.kind == "right" and s.path != BOOK_LISTING for d in s.drills}
    assert wrong == right == set(OUR_DRILLS), f"every drill needs wrong and right submissions: {wrong}, {right}"


@pytest.mark.parametrize(
    ("submission", "drill_id"),
    [c for c in CASES if c[0].kind == "wrong"],
    ids=[f"{d}:{s.path.stem}" for s, d in CASES if s.kind == "wrong"],
)
def test_wrong_submission_is_rejected_by_the_named_tests(submission: Submission, drill_id: str):
    record = graded(drill_id)[submission.label]
    assert not record["import_error"] and not record["missing"] and not record["collect_errors"], (
        f"{submission.label} must be rejected for its behaviour, not for: "
        f"{record['import_error'] or record['missing'] or record['collect_errors']}"
    )
    outcomes = {name: outcome for name, outcome, _ in record["results"]}
    assert any(o != "passed" for o in outcomes.values()), f"{submission.label} ({submission.note}) passed every test"
    for test in submission.caught_by:
        assert test in outcomes, f"{submission.label}: caught-by names unknown test {test!r}"
        assert outcomes[test] == "failed", (
            f"{submission.label} ({submission.note}): expected {test} to fail, got {outcomes[test]}"
        )


@pytest.mark.parametrize(
    ("submission", "drill_id"),
    [c for c in CASES if c[0].kind == "right"],
    ids=[f"{d}:{s.path.stem}" for s, d in CASES if s.kind == "right"],
)
def test_right_submission_passes_every_hidden_test(submission: Submission, drill_id: str):
    record = graded(drill_id)[submission.label]
    assert not record["import_error"] and not record["missing"] and not record["collect_errors"], (
        f"{submission.label}: {record['import_error'] or record['missing'] or record['collect_errors']}"
    )
    assert record["results"], f"{submission.label}: no hidden test ran"
    assert all(o == "passed" for _, o, _ in record["results"]), f"{submission.label}:\n{_summary(record)}"


@pytest.mark.parametrize("drill_id", OUR_DRILLS)
def test_retyped_reference_code_passes(drill_id: str):
    record = graded(drill_id)["<retyped reference>"]
    assert not record["import_error"] and not record["missing"], f"retype text of {drill_id} does not build: {record}"
    assert record["results"] and all(o == "passed" for _, o, _ in record["results"]), _summary(record)


@pytest.mark.parametrize("drill_id", OUR_DRILLS)
def test_starter_code_fails(drill_id: str):
    record = graded(drill_id)["<starter>"]
    assert not record["import_error"] and not record["missing"], f"starter of {drill_id} does not build: {record}"
    assert any(o != "passed" for _, o, _ in record["results"]), f"the starter of {drill_id} passes its hidden tests"
