"""The sandbox dies with its grader. However `tokdrill check` or the app's grading server ends
(Ctrl-C, SIGTERM, SIGKILL, its terminal closing), no sandboxed process is left, and while the
grader cannot act (stopped), the wall-clock limit still holds. Processes are found through
/proc: the submission names itself and starts a `sleep` with a unique argument."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from grading_helpers import (
    GOOD_SOURCE,
    HIDDEN_TEST,
    TINY_TESTS,
    alive,
    check_argv,
    check_env,
    comm_name,
    new_marker,
    parent_of,
    processes_named,
    processes_with,
    rename_process,
    wait_for,
)

from tokdrill.grading.limits import Limits
from tokdrill.grading.mechanisms import REFUSE_ENV

SLOW_LIMITS = Limits(cpu_seconds=60, wall_seconds=120.0)


def _lingering_submission(marker: str, *, processes: bool = True) -> str:
    """Source that names its process, optionally starts a sleeper, then waits for a long time."""
    spawn = f"import subprocess\nsubprocess.Popen(['sleep', '{marker}'])\n" if processes else ""
    return rename_process(marker) + spawn + "import time\ntime.sleep(600)\n" + GOOD_SOURCE


def _sandbox_pids(marker: str, processes: bool = True) -> tuple[int, int]:
    """(supervisor, sandboxed child) once the submission runs."""
    name = comm_name(marker)

    def running() -> bool:
        return bool(processes_named(name)) and (not processes or bool(processes_with(marker)))

    assert wait_for(running, 60), "the submission never started"
    child = min(processes_named(name))
    return parent_of(child), child


def _all_gone(pids: list[int], marker: str) -> bool:
    name = comm_name(marker)
    return wait_for(
        lambda: not any(alive(p) for p in pids) and not processes_with(marker) and not processes_named(name), 20
    )


def _start_check(tmp_path, marker: str, env_extra: dict[str, str] | None = None, **popen) -> subprocess.Popen[bytes]:
    path = tmp_path / "linger.py"
    path.write_text(_lingering_submission(marker, processes=not env_extra))
    env = check_env(SLOW_LIMITS, **(env_extra or {}))
    return subprocess.Popen(check_argv("tiny-pairs", path), env=env, **popen)


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "sigkill"])
@pytest.mark.parametrize("refuse", ["", "userns"], ids=["namespaces", "landlock"])
def test_check_ended_mid_run_leaves_nothing(tmp_path, how, refuse):
    marker = new_marker()
    extra = {REFUSE_ENV: refuse} if refuse else None
    check = _start_check(
        tmp_path, marker, extra, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        supervisor, child = _sandbox_pids(marker, processes=not refuse)
        if how == "ctrl-c":
            os.killpg(check.pid, signal.SIGINT)  # what a terminal sends its foreground group
        else:
            check.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGKILL)
        _, err = check.communicate(timeout=60)
        assert _all_gone([supervisor, child], marker), "a sandboxed process outlived tokdrill check"
        if how == "ctrl-c":
            assert check.returncode == 130
            assert err.decode().strip() == "interrupted"  # no traceback
    finally:
        if check.poll() is None:
            check.kill()
            check.wait()


def test_app_killed_mid_grade_leaves_nothing(tmp_path):
    """The app's grading server, its supervisor and the sandbox die with a SIGKILLed client."""
    marker = new_marker()
    script = f"""
import sys
from types import SimpleNamespace
from tokdrill.grading import WarmGrader
sys.path.insert(0, {str(tmp_path)!r})
drill = SimpleNamespace(id="tiny-pairs", symbols=("count_pairs",), hidden_tests=({str(HIDDEN_TEST)!r},), test_concepts={TINY_TESTS!r})
WarmGrader().grade(drill, {_lingering_submission(marker)!r})
"""
    client = subprocess.Popen([sys.executable, "-c", script], env=check_env(SLOW_LIMITS))
    try:
        supervisor, child = _sandbox_pids(marker)
        server = parent_of(supervisor)
        assert server != client.pid and parent_of(server) == client.pid
        client.kill()
        client.wait()
        assert _all_gone([server, supervisor, child], marker), "the grading server or its sandbox outlived the app"
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()


@pytest.mark.parametrize("watch", [False, True], ids=["check", "check-watch"])
def test_closing_the_terminal_mid_grade_leaves_nothing(tmp_path, watch):
    """Like a terminal window closed while grading: the session's terminal hangs up."""
    marker = new_marker()
    path = tmp_path / "linger.py"
    path.write_text(_lingering_submission(marker))
    argv = check_argv("tiny-pairs", path, *(["--watch"] if watch else []))
    master, slave = os.openpty()
    process = subprocess.Popen(
        ["setsid", "--ctty", *argv], stdin=slave, stdout=slave, stderr=slave, env=check_env(SLOW_LIMITS)
    )
    os.close(slave)
    try:
        supervisor, child = _sandbox_pids(marker)
        pids = [supervisor, child, parent_of(supervisor)]
        os.close(master)  # hang up: the kernel sends SIGHUP to the terminal's session
        master = -1
        process.wait(timeout=60)
        assert _all_gone(pids, marker), "a sandboxed process outlived its closed terminal"
    finally:
        if master >= 0:
            os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()


def test_wall_clock_holds_while_the_grader_is_stopped(tmp_path):
    """A grader that cannot run (stopped with Ctrl-Z, or starved) does not extend the deadline:
    the supervisor enforces it on its own."""
    marker = new_marker()
    path = tmp_path / "linger.py"
    path.write_text(_lingering_submission(marker))
    env = check_env(Limits(cpu_seconds=60, wall_seconds=2.0))
    check = subprocess.Popen(check_argv("tiny-pairs", path, "--json"), env=env, stdout=subprocess.PIPE)
    try:
        _, child = _sandbox_pids(marker)
        check.send_signal(signal.SIGSTOP)
        try:
            assert wait_for(lambda: not alive(child) and not processes_with(marker), 30), (
                "the submission ran past its wall-clock limit while the grader was stopped"
            )
        finally:
            check.send_signal(signal.SIGCONT)
        out, _ = check.communicate(timeout=60)
        assert b"wall-clock limit 2 s reached" in out
    finally:
        if check.poll() is None:
            check.kill()
            check.wait()


def test_a_finished_check_leaves_nothing(tmp_path):
    marker = new_marker()
    path = tmp_path / "quick.py"
    path.write_text(
        rename_process(marker) + f"import subprocess\nsubprocess.Popen(['sleep', '{marker}'])\n" + GOOD_SOURCE
    )
    result = subprocess.run(check_argv("tiny-pairs", path), env=check_env(), capture_output=True, timeout=120)
    assert result.returncode == 0, result.stdout.decode()[-2000:]
    assert wait_for(lambda: not processes_with(marker) and not processes_named(comm_name(marker)), 20)
