"""The hidden tests of the seven newer drills are strong (they reject every sample mistake, by the
tests named for it) and fair (they pass every sample correct variant), the retype text passes and
the bare starter fails.

Samples live in ``submissions/<drill id>/{wrong,right}/``, each with a header:

    # drills: <drill id>
    # mistake: <what is wrong>            (wrong/ only)
    # caught-by: <test name>[, ...]       (wrong/ only: tests that must fail)
    # variant: <how it differs>           (right/ only)

Each drill is graded in one child process, as the app grades (``build_module`` over the
reference, then ``run_hidden_tests``), so the nested pytest sessions stay out of this one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent
SUBMISSIONS = HERE / "submissions"
REPO = HERE.parents[1]
DRILLS = (
    "bpe-heap-encode",
    "cl100k-pretokenize",
    "stream-decode",
    "token-healing",
    "byte-fallback",
    "bpe-train-fast",
    "tokenizer-metrics",
)

# Child process: grade each job, print the results as JSON. argv[1] = jobs file, argv[2] = output.
CHILD = r"""
import contextlib, gc, io, json, sys
from pathlib import Path
from tokdrill.content.reference import reference_source
from tokdrill.grading.inprocess import run_hidden_tests
from tokdrill.grading.submission import build_module
import reference_impl

gc.collect()
gc.freeze()  # each nested session ends with full collections: keep what is loaded out of them
jobs = json.loads(Path(sys.argv[1]).read_text())
out = []
for job in jobs:
    if job["source"] is None:
        job["source"] = reference_source(job["symbols"])
    record = {"key": job["key"], "results": [], "collect_errors": [], "missing": [], "import_error": ""}
    try:
        module, missing = build_module(job["source"], job["symbols"])
        record["missing"] = [str(m) for m in missing]
    except Exception as exc:
        record["import_error"] = f"{type(exc).__name__}: {exc}"
        out.append(record)
        continue
    with contextlib.redirect_stdout(io.StringIO()):
        results, errors = run_hidden_tests([Path(p) for p in job["hidden"]], module, ["-p", "no:unraisableexception", "--tb=native"])
    record["results"] = [[r.name.split("::")[-1], r.outcome, r.message[:400]] for r in results]
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
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("# ") or ":" not in line:
            break
        key, _, value = line[2:].partition(":")
        fields[key.strip()] = value.strip()
    return fields


def _split(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def discover() -> list[Submission]:
    found = []
    for drill in DRILLS:
        for kind in ("wrong", "right"):
            for path in sorted((SUBMISSIONS / drill / kind).glob("*.py")):
                head = _header(path)
                note = head.get("mistake") if kind == "wrong" else head.get("variant")
                found.append(
                    Submission(
                        path, kind, _split(head.get("drills", "")), _split(head.get("caught-by", "")), note or ""
                    )
                )
    return found


SUBMISSION_LIST = discover()


def _graded(drill_id: str, tmp_path: Path) -> dict[str, dict]:
    drill = yaml.safe_load((REPO / "drills" / f"{drill_id}.yaml").read_text(encoding="utf-8"))
    hidden = [str(REPO / "drills" / "hidden" / name) for name in drill["hidden_tests"]]
    jobs = [
        {"key": s.label, "source": s.path.read_text(encoding="utf-8"), "symbols": drill["symbols"], "hidden": hidden}
        for s in SUBMISSION_LIST
        if drill_id in s.drills
    ]
    jobs.append({"key": "<starter>", "source": drill["starter"], "symbols": drill["symbols"], "hidden": hidden})
    jobs.append({"key": "<retyped reference>", "source": None, "symbols": drill["symbols"], "hidden": hidden})
    jobs_file, out_file = tmp_path / "jobs.json", tmp_path / "out.json"
    jobs_file.write_text(json.dumps(jobs))
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # the hidden tests need no plugins
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(jobs_file), str(out_file)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0 and out_file.exists(), f"grading child for {drill_id} failed:\n{proc.stderr[-3000:]}"
    return {r["key"]: r for r in json.loads(out_file.read_text())}


def _problem(record: dict) -> str:
    return record["import_error"] or "; ".join(record["missing"]) or "\n".join(record["collect_errors"])


def _failures(record: dict) -> str:
    bad = [f"  {name}: {outcome}: {message}" for name, outcome, message in record["results"] if outcome != "passed"]
    return "\n".join(bad[:6]) or "  (all passed)"


def test_every_submission_documents_itself():
    for s in SUBMISSION_LIST:
        assert s.drills == (s.path.parents[1].name,), f"{s.label}: '# drills:' must name its folder's drill"
        assert s.note, f"{s.label}: no '# mistake:' / '# variant:' header"
        assert (s.kind == "wrong") == bool(s.caught_by), f"{s.label}: wrong files need '# caught-by:', right ones none"
    for drill in DRILLS:
        kinds = [s.kind for s in SUBMISSION_LIST if drill in s.drills]
        assert kinds.count("right") >= 2 and kinds.count("wrong") >= 5, f"{drill}: needs 2+ right and 5+ wrong samples"


@pytest.mark.parametrize("drill_id", DRILLS)
def test_hidden_tests_judge_every_sample_rightly(drill_id: str, tmp_path: Path):
    graded = _graded(drill_id, tmp_path)
    problems = []
    for s in (s for s in SUBMISSION_LIST if drill_id in s.drills):
        record = graded[s.label]
        if _problem(record):
            problems.append(f"{s.label}: does not build or collect: {_problem(record)}")
            continue
        outcomes = {name: outcome for name, outcome, _ in record["results"]}
        if s.kind == "right":
            if not outcomes or any(o != "passed" for o in outcomes.values()):
                problems.append(f"{s.label} ({s.note}) is correct but fails:\n{_failures(record)}")
            continue
        for test in s.caught_by:
            if test not in outcomes:
                problems.append(f"{s.label}: caught-by names an unknown test {test!r}")
            elif outcomes[test] != "failed":
                problems.append(f"{s.label} ({s.note}): {test} should fail, it {outcomes[test]}")
    retyped, starter = graded["<retyped reference>"], graded["<starter>"]
    if _problem(retyped) or not retyped["results"] or any(o != "passed" for _, o, _ in retyped["results"]):
        problems.append(f"the retype text does not pass: {_problem(retyped)}\n{_failures(retyped)}")
    if _problem(starter):
        problems.append(f"the starter does not build: {_problem(starter)}")
    passing = [name for name, outcome, _ in starter["results"] if outcome == "passed"]
    if passing:
        problems.append(f"the bare starter passes {passing}: such tests measure nothing")
    assert not problems, "\n".join(problems)
