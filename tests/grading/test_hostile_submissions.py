"""Hostile submissions: each is contained, fails with a message naming what happened, leaves
nothing running, and cannot touch files outside its scratch space or reach the network."""

from __future__ import annotations

import dataclasses
import os
import random
import socket
import time

import pytest
from grading_helpers import FAST_LIMITS, GOOD_SOURCE, HIDDEN_TEST, canary_intact, processes_with


def _with_body(body: str) -> str:
    """A ``count_pairs`` that runs ``body`` (indented 4) and then computes the right answer."""
    indented = "".join("    " + line + "\n" for line in body.strip("\n").splitlines())
    return f"def count_pairs(word_freqs):\n{indented}" + GOOD_SOURCE.split("\n", 1)[1]


def _marker() -> str:
    """A unique `sleep` argument to find leftover processes by."""
    return f"{random.randint(10_000, 99_999)}.{os.getpid()}"


def _grade(grader, drill, source):
    verdict = grader.grade(drill, source, limits=FAST_LIMITS)
    assert not verdict.passed, "a hostile submission must never pass"
    return verdict


def _not_running(marker: str) -> bool:
    deadline = time.monotonic() + 2.0
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not processes_with(marker)


def test_infinite_loop_hits_the_cpu_limit(warm_grader, tiny_drill):
    # A roomy wall clock, so the CPU limit is what stops it even on a loaded machine.
    limits = dataclasses.replace(FAST_LIMITS, wall_seconds=30.0)
    verdict = warm_grader.grade(tiny_drill, _with_body("while True:\n    pass"), limits=limits)
    assert not verdict.passed
    assert "CPU time limit 1 s" in verdict.problem
    assert verdict.tests[0].outcome == "timeout"


def test_sleeping_forever_hits_the_wall_clock_limit(warm_grader, tiny_drill):
    verdict = _grade(warm_grader, tiny_drill, _with_body("import time\ntime.sleep(3600)"))
    assert "wall-clock limit 3 s" in verdict.problem
    assert verdict.tests[0].outcome == "timeout"


def test_memory_bomb_hits_the_memory_limit(warm_grader, tiny_drill):
    verdict = _grade(
        warm_grader, tiny_drill, _with_body("hoard = []\nwhile True:\n    hoard.append(bytearray(16 * 2**20))")
    )
    assert "memory limit 256 MiB" in verdict.tests[0].message
    assert "MemoryError" in verdict.tests[0].message


def test_fork_storm_is_bounded_and_cleaned_up(warm_grader, tiny_drill):
    marker = _marker()
    body = f"""
import subprocess
while True:
    subprocess.Popen(["sleep", "{marker}"])
"""
    verdict = _grade(warm_grader, tiny_drill, _with_body(body))
    assert "process limit 16" in verdict.tests[0].message
    assert _not_running(marker)


def test_setsid_escape_does_not_survive_the_run(warm_grader, tiny_drill):
    marker = _marker()
    source = f"""
import os
if os.fork() == 0:
    os.setsid()
    os.execv("/bin/sleep", ["sleep", "{marker}"])

def count_pairs(word_freqs):
    return {{}}
"""
    verdict = _grade(warm_grader, tiny_drill, source)
    assert any(p.startswith("PID namespace") for p in verdict.protections)
    assert verdict.tests[0].outcome == "failed"
    assert _not_running(marker)


def test_hundred_megabytes_of_output_is_cut_and_said(warm_grader, tiny_drill):
    verdict = _grade(warm_grader, tiny_drill, "import sys\nsys.stdout.write('x' * 100_000_000)\n" + GOOD_SOURCE)
    assert "output limit 1 MiB, output truncated" in verdict.problem
    assert len(verdict.output) < 10_000
    assert "output truncated" in verdict.output


def test_writes_and_deletes_outside_scratch_fail_and_canary_survives(warm_grader, tiny_drill, canary):
    body = f"""
import os, shutil
open({str(canary / "new.txt")!r}, "w").write("pwned")
os.remove({str(canary / "keep.txt")!r})
shutil.rmtree({str(canary)!r})
"""
    verdict = _grade(warm_grader, tiny_drill, _with_body(body))
    assert "Read-only file system" in verdict.tests[0].message or "Permission denied" in verdict.tests[0].message
    assert canary_intact(canary)


def test_scratch_folder_is_writable(warm_grader, tiny_drill):
    body = 'import os\nopen("scratch.txt", "w").write("ok")\nassert os.environ["HOME"] == os.getcwd()'
    verdict = warm_grader.grade(tiny_drill, _with_body(body), limits=FAST_LIMITS)
    assert verdict.passed, verdict.problem + verdict.tests[0].message


@pytest.mark.parametrize(
    ("where", "code"),
    [
        ("import", "import sys\nsys.exit(0)\n"),
        ("import", "import os\nos._exit(0)\n"),
        ("function", None),
    ],
    ids=["sys.exit-at-import", "os._exit-at-import", "os._exit-in-function"],
)
def test_exiting_early_is_a_failure(warm_grader, tiny_drill, where, code):
    source = GOOD_SOURCE + code if code else _with_body("import os\nos._exit(0)")
    verdict = _grade(warm_grader, tiny_drill, source)
    if "sys.exit" in (code or ""):
        assert "your code called sys.exit(0) while being imported" in verdict.problem
    else:
        assert "exited with code 0" in verdict.problem
        assert "before every test reported" in verdict.problem
    assert all(t.outcome != "passed" for t in verdict.tests) or where == "function"


def test_sys_exit_inside_a_function_fails_that_test(warm_grader, tiny_drill):
    verdict = _grade(warm_grader, tiny_drill, _with_body("import sys\nsys.exit(0)"))
    assert verdict.tests[0].outcome == "failed"
    assert "SystemExit" in verdict.tests[0].message


def test_printing_a_forged_all_pass_report_then_exiting_fails(warm_grader, tiny_drill):
    forged = [f'{{"k": "result", "name": "test_tiny_pairs.py::{n}", "outcome": "passed"}}' for n in ("a", "b")]
    forged += ['{"k": "done"}', "3 passed in 0.01s"]
    body = f"import os\nprint({chr(10).join(forged)!r})\nos._exit(0)"
    verdict = _grade(warm_grader, tiny_drill, _with_body(body))
    assert "exited with code 0" in verdict.problem


def test_writing_the_result_format_to_every_fd_is_detected(warm_grader, tiny_drill):
    body = """
import os
for fd in range(3, 256):
    try:
        os.write(fd, b'{"n": "guess", "k": "done"}\\n')
    except OSError:
        pass
"""
    verdict = _grade(warm_grader, tiny_drill, _with_body(body))
    assert "forged or garbled line(s)" in verdict.problem


def test_recursion_bomb_is_a_recursion_error(warm_grader, tiny_drill):
    verdict = _grade(warm_grader, tiny_drill, "def count_pairs(word_freqs):\n    return count_pairs(word_freqs)\n")
    assert "RecursionError" in verdict.tests[0].message


def test_c_stack_overflow_is_reported_as_a_crash(warm_grader, tiny_drill):
    body = """
import sys
sys.setrecursionlimit(10**8)
class Deep:
    def __repr__(self):
        return repr(self)  # each level goes through C: the C stack overflows, not the Python one
repr(Deep())
"""
    verdict = _grade(warm_grader, tiny_drill, _with_body(body))
    assert "segmentation fault" in verdict.problem
    assert "C-stack overflow" in verdict.problem


def test_socket_to_localhost_cannot_connect(warm_grader, tiny_drill):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    try:
        body = f'import socket\nsocket.create_connection(("127.0.0.1", {port}), timeout=1).sendall(b"leak")'
        verdict = _grade(warm_grader, tiny_drill, _with_body(body))
        assert "no network in the sandbox" in verdict.tests[0].message
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()


def test_hidden_test_file_cannot_be_read(warm_grader, tiny_drill):
    verdict = _grade(warm_grader, tiny_drill, _with_body(f"open({str(HIDDEN_TEST)!r}).read()"))
    assert "hidden tests unmounted" in verdict.protections
    message = verdict.tests[0].message
    assert "FileNotFoundError" in message or "PermissionError" in message


def test_standard_library_modules_still_import(warm_grader, tiny_drill):
    body = "import colorsys, encodings.idna, heapq, this\nassert 'a'.encode('idna') == b'a'"
    verdict = warm_grader.grade(tiny_drill, _with_body(body), limits=FAST_LIMITS)
    assert verdict.passed, verdict.problem + verdict.tests[0].message


def test_namespace_and_tracing_syscalls_are_refused(warm_grader, tiny_drill):
    body = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
assert libc.unshare(0x10000000) == -1, "unshare(CLONE_NEWUSER) worked"
"""
    verdict = warm_grader.grade(tiny_drill, _with_body(body), limits=FAST_LIMITS)
    if not any(p.startswith("seccomp") for p in verdict.protections):
        pytest.skip("seccomp is not available on this machine")
    assert verdict.passed, verdict.tests[0].message


def test_interrupting_the_test_run_is_the_submissions_failure(warm_grader, tiny_drill):
    verdict = _grade(warm_grader, tiny_drill, _with_body("raise KeyboardInterrupt"))
    assert not verdict.internal
    assert "your code stopped the test run: KeyboardInterrupt" in verdict.problem


def test_patching_json_cannot_forge_results(warm_grader, tiny_drill):
    source = """
import json
_real = json.dumps
def _forge(obj, *args, **kwargs):
    if isinstance(obj, dict) and "outcome" in obj:
        obj = {**obj, "outcome": "passed", "message": ""}
    return _real(obj, *args, **kwargs)
json.dumps = _forge

def count_pairs(word_freqs):
    return {}
"""
    verdict = _grade(warm_grader, tiny_drill, source)
    assert verdict.tests[0].outcome == "failed"
