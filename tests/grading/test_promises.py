"""The promises every sandbox path keeps, checked on the user-namespace path and on the Landlock
path (``TOKDRILL_SANDBOX_REFUSE=userns``), as this account and as an ordinary one: no reach into
other processes, no change to any file's metadata, no private file of the user's, no socket but a
socketpair's own ends, no outliving the grader, no file watches, and a scratch folder that is
capped and always removed."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from grading_helpers import (
    CONTENT,
    FAST_LIMITS,
    FORK_WARNINGS,
    PROJECT,
    CheckGrader,
    alive,
    as_ordinary_user,
    check_argv,
    check_env,
    comm_name,
    new_marker,
    ordinary_env,
    ordinary_home,
    ordinary_uid,
    parent_of,
    processes_named,
    processes_with,
    rename_process,
    sandbox_uid,
    wait_for,
    with_body,
)

from tokdrill.grading import WarmGrader
from tokdrill.grading.limits import LIMITS_ENV, MIB, Limits
from tokdrill.grading.mechanisms import INSIDE_UID, NOBODY, REFUSE_ENV
from tokdrill.grading.view import install_paths

PATHS = {"namespace": {}, "landlock": {REFUSE_ENV: "userns"}}


@pytest.fixture(scope="module", params=[f"{path}-{way}" for path in sorted(PATHS) for way in ("check", "app")])
def path_grader(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[CheckGrader | WarmGrader]:
    """Each sandbox path, through `tokdrill check` and through the app's warm grading server."""
    path, way = request.param.split("-")
    if way == "check":
        yield CheckGrader(tmp_path_factory.mktemp(path), PATHS[path])
        return
    saved = dict(os.environ)
    os.environ.update({**PATHS[path], "PYTHONWARNINGS": FORK_WARNINGS})  # read by the server it starts
    try:
        grader = WarmGrader()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    with grader:
        yield grader


@pytest.fixture()
def shared_folder():
    """A folder outside every private /tmp, reachable by any account, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-promise-", dir="/var/tmp"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _passes(grader: CheckGrader | WarmGrader, drill, body: str, limits: Limits = FAST_LIMITS):  # type: ignore[no-untyped-def]
    verdict = grader.grade(drill, with_body(body), limits=limits)
    assert verdict.passed, verdict.problem + "\n" + "\n".join(t.message for t in verdict.tests)
    return verdict


def _outside_uid(grader: CheckGrader | WarmGrader, drill) -> int:  # type: ignore[no-untyped-def]
    """The user id the sandbox's files and processes have outside it, as the submission reports it."""
    verdict = _passes(grader, drill, "import os\nprint('uid', os.getuid())")
    uid = int(re.search(r"uid (\d+)", verdict.output).group(1))  # type: ignore[union-attr]
    return sandbox_uid() if uid == INSIDE_UID else uid


def _as_uid(argv: list[str], uid: int) -> list[str]:
    if uid == os.geteuid():
        return argv
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv]


def test_no_other_process_can_be_limited_reprioritised_or_stopped(path_grader, tiny_drill):
    marker = new_marker()
    uids = {os.geteuid(), _outside_uid(path_grader, tiny_drill)}
    neighbours = [subprocess.Popen(_as_uid(["sleep", marker], uid)) for uid in sorted(uids)]
    try:
        assert wait_for(lambda: len(processes_with(marker)) == len(neighbours))
        pids = processes_with(marker)
        niceness = {pid: os.getpriority(os.PRIO_PROCESS, pid) for pid in pids}
        body = f"""
import os, resource, signal
for pid in {pids!r}:
    for attempt in (
        lambda: resource.prlimit(pid, resource.RLIMIT_NOFILE, (7, 7)),
        lambda: resource.prlimit(pid, resource.RLIMIT_CPU, (1, 1)),
        lambda: os.setpriority(os.PRIO_PROCESS, pid, 19),
        lambda: os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0)),
        lambda: os.kill(pid, signal.SIGSTOP),
    ):
        try:
            attempt()
        except OSError:
            pass
    try:
        seen = open(f"/proc/{{pid}}/cmdline").read()
    except OSError:
        seen = ""
    assert not seen, "saw another process: " + seen
"""
        _passes(path_grader, tiny_drill, body)
        for pid in pids:
            limits = Path(f"/proc/{pid}/limits").read_text()
            assert re.search(r"Max open files\s+(\d+)", limits).group(1) != "7", "another process's limit changed"  # type: ignore[union-attr]
            assert re.search(r"Max cpu time\s+unlimited", limits), "another process's CPU limit changed"
            assert os.getpriority(os.PRIO_PROCESS, pid) == niceness[pid], "another process was reprioritised"
            assert os.sched_getscheduler(pid) == os.SCHED_OTHER, "another process was moved to SCHED_IDLE"
            assert Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T", "stopped"
    finally:
        for neighbour in neighbours:
            neighbour.kill()
            neighbour.wait()


def test_no_file_mode_time_or_attribute_changes_outside_scratch(path_grader, tiny_drill, shared_folder):
    uid = _outside_uid(path_grader, tiny_drill)
    key = shared_folder / "id_ed25519"
    key.write_text("secret\n")
    os.chmod(key, 0o600)
    try:
        os.setxattr(key, "user.keep", b"1")
    except OSError:  # a file system without user attributes: the other changes are still tried
        pass
    os.chmod(shared_folder, 0o755)
    for path in (shared_folder, key):
        if uid != os.geteuid():
            os.chown(path, uid, -1)  # the sandbox's own: only the sandbox may refuse the changes
    before = [(p.stat().st_mode, p.stat().st_mtime_ns, sorted(os.listxattr(p))) for p in (shared_folder, key)]
    body = f"""
import os
key, folder = {str(key)!r}, {str(shared_folder)!r}
def fchmod():
    fd = os.open(key, os.O_RDONLY)
    os.fchmod(fd, 0o644)
for attempt in (
    lambda: os.chmod(key, 0o644),
    lambda: os.chmod(folder, 0o777),
    fchmod,
    lambda: os.utime(key, (0, 0)),
    lambda: os.utime(folder, (0, 0)),
    lambda: os.setxattr(key, "user.planted", b"x"),
    lambda: os.removexattr(key, "user.keep"),
    lambda: os.truncate(key, 0),
):
    try:
        attempt()
    except OSError:
        pass
"""
    _passes(path_grader, tiny_drill, body)
    after = [(p.stat().st_mode, p.stat().st_mtime_ns, sorted(os.listxattr(p))) for p in (shared_folder, key)]
    assert after == before
    assert key.read_text() == "secret\n"


def test_only_a_socketpairs_own_ends_can_be_used(path_grader, tiny_drill, shared_folder):
    os.chmod(shared_folder, 0o777)
    path = str(shared_folder / "service.sock")
    service = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    service.bind(path)
    os.chmod(path, 0o777)
    service.settimeout(0.3)
    try:
        body = f"""
import socket
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
a.send(b"own")
assert b.recv(8) == b"own"
reached = []
for attempt in (
    lambda: a.sendto(b"leak", {path!r}),
    lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"leak", {path!r}),
    lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM),
    lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW),
):
    try:
        attempt()
    except OSError:
        pass
    else:
        reached.append(attempt)
assert not reached, f"{{len(reached)}} socket attempts worked"
"""
        _passes(path_grader, tiny_drill, body)
        with pytest.raises(TimeoutError):
            service.recv(16)
    finally:
        service.close()


def test_file_watches_are_refused(path_grader, tiny_drill):
    body = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
assert libc.inotify_init1(0) == -1, "inotify worked"
assert libc.syscall(253) == -1, "inotify_init worked"
assert libc.fanotify_init(0, 0) == -1, "fanotify worked"
"""
    _passes(path_grader, tiny_drill, body)


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_submission_clearing_its_parent_death_signal_dies_with_a_killed_grader(path, tmp_path):
    marker = new_marker()
    answer = tmp_path / "linger.py"
    answer.write_text(
        "import ctypes\nctypes.CDLL(None).prctl(1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG: none\n"
        + rename_process(marker)  # the name shows once the signal is cleared (or refused)
        + "import time\ntime.sleep(600)\n"
        + with_body("pass")
    )
    env = check_env(Limits(cpu_seconds=60, wall_seconds=120), **PATHS[path])
    check = subprocess.Popen(check_argv("tiny-pairs", answer), env=env, stdout=subprocess.DEVNULL)
    name = comm_name(marker)
    try:
        assert wait_for(lambda: bool(processes_named(name)), 60)
        child = min(processes_named(name))
        supervisor = parent_of(child)
        assert parent_of(supervisor) == check.pid
        os.kill(check.pid, signal.SIGKILL)
        assert wait_for(lambda: not alive(supervisor) and not processes_named(name)), "the submission outlived"
    finally:
        check.kill()
        check.wait()
        for pid in processes_named(name):
            os.kill(pid, signal.SIGKILL)


# -- as an ordinary user -------------------------------------------------------------------------
@pytest.fixture()
def home():
    """An ordinary account's home with private files and a progress database."""
    folder = ordinary_home()
    private = {
        ".ssh/id_ed25519": "PRIVATE KEY\n",
        ".config/service/token": "TOKEN\n",
        "data/progress.sqlite3": "DRAFTS\n",
    }
    for name, text in private.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        os.chmod(path, 0o600)
    if os.getuid() == 0:
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, ordinary_uid(), ordinary_uid())
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _check_as_user(home: Path, source: str, path: str, limits: Limits = FAST_LIMITS) -> dict:  # type: ignore[type-arg]
    answer = home / "answer.py"
    answer.write_text(source)
    os.chmod(answer, 0o644)
    if os.getuid() == 0:
        os.chown(answer, ordinary_uid(), ordinary_uid())
    argv = [sys.executable, "-m", "tokdrill", "--content", str(CONTENT), "check", "tiny-pairs", str(answer), "--json"]
    env = ordinary_env(home, **{LIMITS_ENV: json.dumps(limits.to_json()), **PATHS[path]})
    result = subprocess.run(as_ordinary_user(argv), capture_output=True, text=True, env=env, cwd=home, timeout=300)
    assert result.returncode in (0, 1), result.stderr[-3000:]
    verdict: dict = json.loads(result.stdout)  # type: ignore[type-arg]
    return verdict


def _top_level_files() -> list[str]:
    """Files directly in / that anyone may read (a machine's notes, say): none is Python's."""
    return [
        entry.path
        for entry in os.scandir("/")
        if entry.is_file(follow_symlinks=False) and entry.stat().st_mode & 0o004 and entry.stat().st_size
    ]


@pytest.mark.ordinary_user
@pytest.mark.parametrize("path", sorted(PATHS))
def test_an_ordinary_users_private_files_and_data_are_out_of_reach(path, home):
    body = f"""
import fcntl, os
home = {str(home)!r}
read = []
for name in (".ssh/id_ed25519", ".config/service/token", "data/progress.sqlite3", ""):
    try:
        if name:
            with open(os.path.join(home, name), "rb") as fh:
                fcntl.lockf(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
                read.append(fh.read())
        else:
            read.append(os.listdir(home))
    except OSError:
        pass
assert not read, read
for path in {_top_level_files()!r}:
    try:
        with open(path, "rb") as fh:
            assert not fh.read(1), path + " is readable"
    except OSError:
        pass
for folder in ("/run", "/var/run", "/home", "/root", "/var/tmp"):
    try:
        shown = [os.path.join(folder, name) for name in os.listdir(folder)]
    except OSError:
        continue
    extra = [p for p in shown if not any(i.startswith(p + "/") for i in {list(install_paths())!r})]
    assert not extra, extra  # only the way to the Python installation
"""
    verdict = _check_as_user(home, with_body(body), path)
    assert verdict["passed"], verdict["problem"] + str([t["message"] for t in verdict["tests"]])


SCRATCH_MAZE = """
import os
print("scratch", os.getcwd())
if not os.path.exists("closed"):  # once: every test calls the function
    os.mkdir("closed", 0)
    os.makedirs("a/b")
    os.mkdir("a/b/c", 0o300)  # enter and write, but no listing
    with open("a/b/c/kept.bin", "wb") as fh:
        fh.write(b"x" * 100_000)
"""


@pytest.mark.parametrize("who", ["this-account", pytest.param("ordinary-user", marks=pytest.mark.ordinary_user)])
def test_landlock_scratch_is_removed_whatever_modes_it_was_given(who, home, tiny_drill, tmp_path):
    if who == "ordinary-user":
        verdict = _check_as_user(home, with_body(SCRATCH_MAZE), "landlock")
        passed, output = verdict["passed"], verdict["output"]
    else:
        found = CheckGrader(tmp_path, PATHS["landlock"]).grade(tiny_drill, with_body(SCRATCH_MAZE), limits=FAST_LIMITS)
        passed, output = found.passed, found.output
    assert passed, output
    scratch = re.search(r"scratch (\S+)", output).group(1)  # type: ignore[union-attr]
    assert not os.path.lexists(scratch), "the scratch folder outlived its run"


@pytest.mark.parametrize("path", sorted(PATHS))
def test_scratch_folders_of_killed_graders_are_removed_by_the_next_run(path, tiny_drill, tmp_path):
    gone = subprocess.Popen(["true"])
    gone.wait()
    stale = Path(tempfile.mkdtemp(prefix=f"tokdrill-scratch-{gone.pid}-"))
    (stale / "deep").mkdir()
    (stale / "deep" / "file").write_text("left behind")
    os.chmod(stale / "deep", 0)
    if os.geteuid() == 0:  # as the sandbox of a root grader leaves it
        for inside in (stale, stale / "deep", stale / "deep" / "file"):
            os.chown(inside, NOBODY, NOBODY)
    live = Path(tempfile.mkdtemp(prefix=f"tokdrill-scratch-{os.getpid()}-"))
    try:
        CheckGrader(tmp_path, PATHS[path]).grade(tiny_drill, with_body("pass"), limits=FAST_LIMITS)
        assert not stale.exists(), "a killed grader's scratch folder was left"
        assert live.exists(), "the scratch folder of a running grader was removed"
    finally:
        for folder in (stale, live):
            if folder.exists():
                os.chmod(folder / "deep", 0o700) if (folder / "deep").exists() else None
                shutil.rmtree(folder)


def test_scratch_is_capped_in_size(path_grader, tiny_drill):
    limits = dataclasses.replace(FAST_LIMITS, tmp_bytes=8 * MIB, file_size_bytes=2 * MIB, wall_seconds=20.0)
    body = """
import itertools
block = b"x" * (1 << 20)
for n in itertools.count():  # only a limit ends this
    with open(f"fill{n}.bin", "wb") as fh:
        fh.write(block)
"""
    verdict = path_grader.grade(tiny_drill, with_body(body), limits=limits)
    assert not verdict.passed
    said = verdict.problem + "\n".join(t.message for t in verdict.tests)
    assert "scratch size limit 8 MiB reached" in said, said


@pytest.mark.parametrize("path", sorted(PATHS))
def test_without_seccomp_check_the_verdict_and_problems_say_what_is_missing_once(path, tiny_drill, tmp_path):
    refuse = ",".join(filter(None, [PATHS[path].get(REFUSE_ENV), "seccomp"]))
    verdict = CheckGrader(tmp_path, {REFUSE_ENV: refuse}).grade(tiny_drill, with_body("pass"), limits=FAST_LIMITS)
    assert verdict.passed, verdict.problem
    assert verdict.notice.startswith("The sandbox is incomplete on this machine: libseccomp")
    assert "reach local services through Unix sockets" in verdict.notice
    assert ("change the mode, times and attributes of your files" in verdict.notice) == (path == "landlock")
    answer = tmp_path / "mine.py"
    answer.write_text(with_body("pass"))
    env = check_env(FAST_LIMITS, **{REFUSE_ENV: refuse})
    shown = subprocess.run(check_argv("tiny-pairs", answer), capture_output=True, text=True, env=env, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count("The sandbox is incomplete on this machine") == 1


def test_the_app_lists_a_missing_seccomp_among_its_problems_once(monkeypatch):
    from tokdrill.backend import Backend

    monkeypatch.setenv(REFUSE_ENV, "seccomp")
    backend = Backend.open()
    try:
        found = backend.check_sandbox()
        assert len(found) == 1 and found[0].startswith("grading sandbox: The sandbox is incomplete on this machine")
        assert found[0] in backend.problems
        assert backend.check_sandbox() == []
    finally:
        backend.close()


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_data_folder_inside_the_installation_stays_out_of_reach(path, tiny_drill, tmp_path):
    data = Path(tempfile.mkdtemp(prefix=".data-", dir=PROJECT))  # as with a development checkout
    try:
        (data / "progress.sqlite3").write_text("DRAFTS\n")
        os.chmod(data, 0o755)
        os.chmod(data / "progress.sqlite3", 0o644)  # readable by any account: only the sandbox hides it
        grader = CheckGrader(tmp_path, {**PATHS[path], "TOKDRILL_HOME": str(data)})
        body = f"""
import os
try:
    found = open({str(data / "progress.sqlite3")!r}).read()
except OSError:
    found = ""
assert not found, "read the progress database"
"""
        _passes(grader, tiny_drill, body)
    finally:
        shutil.rmtree(data)
