"""Where the strongest mechanisms are missing, the sandbox falls back and says truthfully what is
active. ``TOKDRILL_SANDBOX_REFUSE`` and ``TOKDRILL_PYTEST_PRIVATE=0`` make the grader act as on
such a machine (read in the grading process, never in the sandbox)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from grading_helpers import (
    FAST_LIMITS,
    GOOD_SOURCE,
    HIDDEN_TEST,
    CheckGrader,
    canary_intact,
    check_argv,
    check_env,
    new_marker,
    processes_with,
    wait_for,
    with_body,
)

from tokdrill.grading import WarmGrader
from tokdrill.grading.mechanisms import REFUSE_ENV
from tokdrill.grading.pytest_session import PRIVATE_ENV

WRONG = GOOD_SOURCE.replace("+ freq", "+ 1")


@pytest.fixture(scope="module")
def landlock_grader(tmp_path_factory: pytest.TempPathFactory) -> CheckGrader:
    return CheckGrader(tmp_path_factory.mktemp("landlock"), {REFUSE_ENV: "userns"})


@pytest.fixture(scope="module")
def plain_grader(tmp_path_factory: pytest.TempPathFactory) -> CheckGrader:
    return CheckGrader(tmp_path_factory.mktemp("plain"), {REFUSE_ENV: "userns,landlock"})


def test_landlock_protects_files_and_says_so(landlock_grader, tiny_drill, canary):
    verdict = landlock_grader.grade(tiny_drill, GOOD_SOURCE, limits=FAST_LIMITS)
    assert verdict.passed, verdict.problem
    assert verdict.notice == ""
    assert any(p.startswith("Landlock (ABI") for p in verdict.protections)
    assert not any(p.startswith(("PID namespace", "user namespace")) for p in verdict.protections)
    assert not any("NOT protected: files" in p for p in verdict.protections)
    body = f"""
import os
for path in ({str(canary / "keep.txt")!r}, {str(canary / "new.txt")!r}):
    try:
        open(path, "a").write("pwned")
    except PermissionError:
        pass
    else:
        raise AssertionError("wrote " + path)
try:
    open({str(HIDDEN_TEST)!r}).read()
except PermissionError:
    pass
else:
    raise AssertionError("read the hidden tests")
open("scratch.txt", "w").write("fine")
import colorsys, regex
"""
    verdict = landlock_grader.grade(tiny_drill, with_body(body), limits=FAST_LIMITS)
    assert verdict.passed, verdict.tests[0].message
    assert canary_intact(canary)


def test_landlock_refuses_new_processes_and_network(landlock_grader, tiny_drill):
    marker = new_marker()
    verdict = landlock_grader.grade(tiny_drill, with_body(f"import subprocess\nsubprocess.run(['sleep', '{marker}'])"))
    assert not verdict.passed
    assert "starting processes is refused in this sandbox" in verdict.tests[0].message
    assert not processes_with(marker)
    body = "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=1)"
    verdict = landlock_grader.grade(tiny_drill, with_body(body), limits=FAST_LIMITS)
    assert "no network in the sandbox" in verdict.tests[0].message


def test_without_user_namespaces_or_landlock_the_verdict_says_so_in_plain_words(plain_grader, tiny_drill):
    verdict = plain_grader.grade(tiny_drill, GOOD_SOURCE, limits=FAST_LIMITS)
    assert verdict.passed, verdict.problem
    assert "The sandbox is weak on this machine" in verdict.notice
    assert "can read and change any file your account can" in verdict.notice
    assert "unprivileged_userns_clone" in verdict.notice  # what to do about it
    assert "NOT protected: files your account can change can be changed by the submission" in verdict.protections
    assert "NOT protected: the hidden test files are readable by the submission" in verdict.protections
    assert any(p.startswith("seccomp: new processes refused") for p in verdict.protections)


def test_check_prints_the_notice_once(tiny_drill, tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(GOOD_SOURCE)
    env = check_env(**{REFUSE_ENV: "userns,landlock"})
    result = subprocess.run(check_argv("tiny-pairs", path), capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("The sandbox is weak on this machine") == 1
    assert result.stdout.strip().splitlines()[-1].startswith("PASSED tiny-pairs")


def test_without_seccomp_either_escaped_processes_are_still_killed(tiny_drill, tmp_path):
    grader = CheckGrader(tmp_path, {REFUSE_ENV: "userns,landlock,seccomp"})
    marker = new_marker()
    source = (
        f"""
import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "{marker}"])
    os._exit(0)
"""
        + GOOD_SOURCE
    )
    verdict = grader.grade(tiny_drill, source, limits=FAST_LIMITS)
    assert "NOT protected: dangerous system calls (no seccomp on this machine)" in verdict.protections
    assert wait_for(lambda: not processes_with(marker)), "an escaped process outlived the run"


def test_warm_server_reports_the_notice(tiny_drill, monkeypatch):
    monkeypatch.setenv(REFUSE_ENV, "userns,landlock")
    with WarmGrader() as grader:
        assert "The sandbox is weak on this machine" in grader.notice()
        verdict = grader.grade(tiny_drill, GOOD_SOURCE)
        assert verdict.passed and "The sandbox is weak" in verdict.notice


def test_public_pytest_fallback_grades_the_same(tiny_drill, tmp_path):
    grader = CheckGrader(tmp_path, {PRIVATE_ENV: "0"})
    verdict = grader.grade(tiny_drill, GOOD_SOURCE)
    assert verdict.passed, verdict.problem
    assert [t.concepts for t in verdict.tests][:2] == [("pair-weighting", "pair-counting"), ("pair-counting",)]
    wrong = grader.grade(tiny_drill, WRONG)
    assert [t.outcome for t in wrong.tests] == ["failed", "passed", "passed"]
    assert "expected {('a', 'b'): 2, ('b', 'c'): 3}, got {('a', 'b'): 1, ('b', 'c'): 2}" in wrong.tests[0].message
    broken = grader.grade(tiny_drill, "def count_pairs(w:\n")
    assert "SyntaxError" in broken.problem and all(t.outcome == "error" for t in broken.tests)
    assert not broken.output  # pytest's own report never reaches the user's output


def test_public_pytest_fallback_keeps_the_reference_answers_out_of_reach(tmp_path):
    from test_reference_cases import SABOTAGE, _retype_source

    from tokdrill.content.loader import load_library

    drill = load_library([]).drills["bpe-train"]
    path = tmp_path / "answer.py"
    path.write_text(_retype_source(drill) + SABOTAGE)
    env = check_env(**{PRIVATE_ENV: "0"})
    result = subprocess.run(
        [sys.executable, "-m", "tokdrill", "check", "bpe-train", str(path), "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    verdict = json.loads(result.stdout)
    assert verdict["passed"], [t for t in verdict["tests"] if t["outcome"] != "passed"][:2]


def test_changed_private_api_is_detected_and_the_fallback_used(tmp_path: Path):
    script = """
import sys
import _pytest.config
_original = _pytest.config._prepareconfig
def _renamed(args=None, plugs=None, **keywords):  # as if a future pytest renamed a parameter
    return _original(args, plugs, **keywords)
_pytest.config._prepareconfig = _renamed
from tokdrill.bench.grading import retype_source
from tokdrill.content.loader import load_library
from tokdrill.grading.local import LocalGrader
from tokdrill.grading.spec import DrillSpec
shipped = load_library([]).drills["bytes-to-unicode"]
drill = DrillSpec.of(shipped)
grader = LocalGrader()
verdict = grader.grade(drill, retype_source(shipped))
print(grader.prepare(drill).session.uses_private_api, verdict.passed)
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=check_env(), timeout=120
    )
    assert result.stdout.split() == ["False", "True"], result.stderr[-2000:]


def test_the_app_lists_the_notice_among_its_problems_once(monkeypatch):
    from tokdrill.backend import Backend

    monkeypatch.setenv(REFUSE_ENV, "userns,landlock")
    backend = Backend.open()
    try:
        found = backend.check_sandbox()
        assert len(found) == 1 and found[0].startswith("grading sandbox: The sandbox is weak on this machine")
        assert found[0] in backend.problems
        assert backend.check_sandbox() == []  # once
    finally:
        backend.close()


def test_the_app_has_nothing_to_say_where_the_sandbox_protects_files(monkeypatch):
    from tokdrill.backend import Backend

    monkeypatch.setenv(REFUSE_ENV, "userns")  # Landlock is enough to protect the user's files
    backend = Backend.open()
    try:
        assert backend.check_sandbox() == []
        assert not any("sandbox" in p for p in backend.problems)
    finally:
        backend.close()
