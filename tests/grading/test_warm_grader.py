"""WarmGrader as the app uses it: from threads, across a dead server, and closed cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from grading_helpers import GOOD_SOURCE, HIDDEN_TEST, TINY_TESTS, alive, check_env, parent_of

from tokdrill.grading import WarmGrader


def test_grades_from_several_threads_at_once(warm_grader, tiny_drill):
    wrong = GOOD_SOURCE.replace("+ freq", "+ 1")
    results: dict[int, bool] = {}

    def work(i: int) -> None:
        results[i] = warm_grader.grade(tiny_drill, GOOD_SOURCE if i % 2 == 0 else wrong).passed

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {0: True, 1: False, 2: True, 3: False}


def test_restarts_a_server_that_died(tiny_drill):
    with WarmGrader() as grader:
        assert grader.grade(tiny_drill, GOOD_SOURCE).passed
        first = grader.server_pid
        os.kill(first, signal.SIGKILL)
        verdict = grader.grade(tiny_drill, GOOD_SOURCE)
        assert verdict.passed, verdict.problem
        assert grader.server_pid != first
        assert grader.restarts == 1


def test_close_stops_the_server(tiny_drill):
    grader = WarmGrader()
    grader.grade(tiny_drill, GOOD_SOURCE)
    pid = grader.server_pid
    grader.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    assert not _alive(pid)
    assert grader.grade(tiny_drill, GOOD_SOURCE).internal  # closed: an internal error, not a crash


def test_close_cuts_a_grade_in_flight_short(tiny_drill):
    """Quitting the app while a submission runs does not wait for it: the grade in flight ends
    as an internal verdict, not the submission's own (it would pass after its sleep)."""
    grader = WarmGrader()
    grader.grade(tiny_drill, GOOD_SOURCE)  # the server is up and the drill collected
    verdicts = []
    worker = threading.Thread(
        target=lambda: verdicts.append(grader.grade(tiny_drill, "import time\ntime.sleep(8)\n" + GOOD_SOURCE))
    )
    worker.start()
    pid = grader.server_pid
    assert pid is not None
    deadline = time.monotonic() + 30
    family = [pid]
    while len(family) == 1 and time.monotonic() < deadline:
        time.sleep(0.01)  # until the request is in flight and a sandbox runs
        if grader._lock.locked():
            # Live ones only: the last run's supervisor lingers as a zombie until the server
            # reaps it, just before it starts the sandbox this request runs in.
            family = [pid, *(p for p in _descendants(pid) if alive(p))]
    assert len(family) > 1
    grader.close()
    worker.join(30)
    assert not worker.is_alive()
    (verdict,) = verdicts
    assert verdict.internal and not verdict.passed, verdict.problem
    deadline = time.monotonic() + 10
    while any(alive(p) for p in family) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in family if alive(p)], "a sandbox outlived its closed grader"


def _descendants(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != pid:
            ancestor = int(entry)
            try:
                while ancestor > 1 and ancestor != pid:
                    ancestor = parent_of(ancestor)
            except (LookupError, OSError):
                continue
            if ancestor == pid:
                found.append(int(entry))
    return found


def test_preload_reports_broken_drills(warm_grader, tmp_path, tiny_drill):
    from types import SimpleNamespace

    missing = SimpleNamespace(id="ghost", symbols=("count_pairs",), hidden_tests=(tmp_path / "test_gone.py",))
    errors = warm_grader.preload([tiny_drill, missing])
    assert len(errors) == 1 and errors[0].startswith("ghost: hidden test file not found")


def _alive(pid: int | None) -> bool:
    if pid is None:
        return False
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_grade_from_a_threaded_process_never_forks_it(tiny_drill):
    """With another thread running, grade() hands the work to a grading server: under
    ``-W error::DeprecationWarning`` (Python 3.12+ warns on fork with threads) it still passes,
    and the calling process has no child but the server."""
    script = f"""
import os, sys, threading
from types import SimpleNamespace
from tokdrill.grading import grade
stop = threading.Event()
helper = threading.Thread(target=stop.wait)
helper.start()
os.register_at_fork(before=lambda: print("forked", file=sys.stderr))
drill = SimpleNamespace(id="tiny-pairs", symbols=("count_pairs",), hidden_tests=({str(HIDDEN_TEST)!r},), test_concepts={TINY_TESTS!r})
verdict = grade(drill, sys.stdin.read())
stop.set()
helper.join()
print(verdict.passed)
"""
    result = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", script],
        input=GOOD_SOURCE,
        capture_output=True,
        text=True,
        env=check_env(),
        timeout=120,
    )
    assert result.stdout.strip() == "True", result.stderr[-2000:]
    assert "forked" not in result.stderr  # subprocess starts the server without os.fork


def test_sandboxes_start_with_regex_already_loaded(warm_grader, tiny_drill):
    """The server loads ``regex`` once, so no submission pays for importing it."""
    probe = 'import sys\nassert "regex" in sys.modules, "regex was not loaded before the submission"\n'
    verdict = warm_grader.grade(tiny_drill, probe + GOOD_SOURCE)
    assert verdict.passed, verdict.problem


def test_settle_returns_once_the_next_standby_sandbox_is_up(warm_grader, tiny_drill):
    """The server starts the next sandbox after answering; ``settle`` answers only after that,
    so the benchmark times each verdict with its standby ready, as a person's next submit finds it."""
    assert warm_grader.grade(tiny_drill, GOOD_SOURCE).passed
    assert warm_grader.settle()
    pid = warm_grader.server_pid
    assert pid is not None
    assert [p for p in _descendants(pid) if alive(p)], "no standby sandbox waits after settle()"


def test_a_closed_grader_does_not_settle():
    grader = WarmGrader()
    grader.close()
    assert not grader.settle() and grader.mode() == ""


DETECTED_MODE = (
    "from tokdrill.grading.mechanisms import detect; from tokdrill.grading.sandbox import choose_mode; "
    "print(choose_mode(detect()))"
)


def test_a_server_told_to_refuse_user_namespaces_grades_on_the_landlock_path(warm_grader, tiny_drill):
    from tokdrill.grading import landlock
    from tokdrill.grading.mechanisms import REFUSE_ENV

    own_path = subprocess.run(  # probed in a fresh process: this one runs the grader's threads
        [sys.executable, "-c", DETECTED_MODE], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert warm_grader.mode() == own_path  # the environment's own path
    if not landlock.abi_version():
        pytest.skip("this kernel has no Landlock")
    with WarmGrader(env={REFUSE_ENV: "userns"}) as fallback:
        assert fallback.mode() == "landlock"
        verdict = fallback.grade(tiny_drill, GOOD_SOURCE)
    assert verdict.passed, verdict.problem
    assert any(p.startswith("Landlock") for p in verdict.protections), verdict.protections
