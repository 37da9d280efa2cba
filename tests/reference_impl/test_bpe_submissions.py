"""The BPE drills' hidden tests are strong (every sample mistake is rejected) and fair (every
sample correct alternative passes). Samples live in ``submissions/bpe/{wrong,right}/``; each
drill is graded in one subprocess so the nested pytest runs cannot disturb this one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "grade_bpe_submissions.py"
DRILLS = ["bpe-train", "bpe-encode", "bpe-full", "bytes-to-unicode", "byte-level-bpe", "bpe-dropout", "tiktoken-cl100k"]

sys.path.insert(0, str(HERE))
from grade_bpe_submissions import declared_drills, submissions_for  # noqa: E402


def graded(drill: str, tmp_path: Path) -> list[dict]:
    out = tmp_path / "report.json"
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # the hidden tests need no plugins
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), drill, str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=HERE.parents[1],
        env=env,
    )
    assert proc.returncode == 0, f"grading script failed for {drill}:\n{proc.stderr[-3000:]}"
    return json.loads(out.read_text(encoding="utf-8"))


def test_every_sample_submission_names_known_drills():
    for kind in ("wrong", "right"):
        for path in sorted((HERE / "submissions" / "bpe" / kind).glob("*.py")):
            unknown = set(declared_drills(path)) - set(DRILLS)
            assert not unknown, f"{kind}/{path.name} names unknown drills {unknown}"


@pytest.mark.parametrize("drill", DRILLS)
def test_drill_has_wrong_and_right_samples(drill):
    kinds = {kind for kind, _ in submissions_for(drill)}
    assert kinds == {"wrong", "right"}, f"{drill}: expected wrong and right samples, found {kinds or 'none'}"


@pytest.mark.parametrize("drill", DRILLS)
def test_hidden_tests_reject_every_wrong_sample_and_pass_every_right_one(drill, tmp_path):
    report = graded(drill, tmp_path)
    problems = []
    for entry in report:
        where = f"{drill} / {entry['file']}"
        if entry["missing"] or entry["collect_errors"]:
            problems.append(f"{where}: missing {entry['missing']}, collection errors {entry['collect_errors']}")
        elif entry["kind"] == "wrong" and not entry["failed"]:
            problems.append(f"{where}: a wrong submission passed all {entry['passed']} hidden tests")
        elif entry["kind"] == "right" and (entry["failed"] or not entry["passed"]):
            problems.append(f"{where}: a correct submission failed {entry['failed']}")
    assert not problems, "\n".join(problems)
