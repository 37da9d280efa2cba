"""Child side of the sandbox: lock the process down, then build and test the submission.

Runs in the forked process that will execute user code. Everything up to :func:`_run_user_code`
is trusted set-up (mounts, limits, privilege drop, closing every inherited descriptor except the
result channel); after that, whatever the user's code does, the parent decides the verdict from
what arrives on the channel and how the process ended. This function never returns.
"""

from __future__ import annotations

import faulthandler
import io
import linecache
import os
import signal
import sys
import traceback
from dataclasses import dataclass, field

from tokdrill.grading import isolation
from tokdrill.grading.channel import Reporter
from tokdrill.grading.inprocess import ResultCollector
from tokdrill.grading.limits import Limits
from tokdrill.grading.prepared import PreparedDrill, hidden_dirs
from tokdrill.grading.spec import test_name
from tokdrill.grading.submission import SUBMISSION_FILENAME, build_module

SCRATCH = "/tmp/work"
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
EXIT_INTERNAL = 70


@dataclass(frozen=True)
class ChildPlan:
    """What the child needs, fixed by the parent before forking."""

    result_fd: int
    output_fd: int
    nonce: str
    limits: Limits
    namespaces: bool  # the supervisor managed to unshare mount/pid/net namespaces
    scratch: str  # scratch folder made by the parent (used when there is no private /tmp)
    reopen: dict[str, list[str]] = field(default_factory=dict)  # see isolation.closed_ancestors
    source_fd: int = -1  # the submission's source arrives here (read after the lock-down)


def child_main(prepared: PreparedDrill, plan: ChildPlan) -> None:
    """Entry point of the sandboxed child; ends the process with ``os._exit``."""
    code = EXIT_INTERNAL
    reporter = Reporter(plan.result_fd, plan.nonce)
    try:
        _redirect_stdio(plan.output_fd)
        protections = _lock_down(prepared, plan)
        reporter.send("ready", protections=protections)
        source = _read_source(plan.source_fd)
        _run_user_code(prepared, source, reporter)
        code = 0
    except BaseException:  # noqa: BLE001 - report our own failure as ours
        try:
            reporter.send("internal", message=traceback.format_exc(limit=8)[-3000:])
        except BaseException:  # noqa: BLE001
            pass
    finally:
        _flush_stdio()
        os._exit(code)


def _read_source(fd: int) -> str:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode("utf-8", "surrogatepass")


def _redirect_stdio(output_fd: int) -> None:
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(output_fd)
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(
        io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="replace", write_through=True
    )
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="replace", write_through=True
    )
    sys.__stdout__, sys.__stderr__ = sys.stdout, sys.stderr  # type: ignore[misc]
    faulthandler.enable(file=sys.stderr, all_threads=False)


def _flush_stdio() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass


def _lock_down(prepared: PreparedDrill, plan: ChildPlan) -> list[str]:
    """Apply every protection that works here; return the names of those that are active."""
    active: list[str] = []
    root = os.geteuid() == 0
    drop_uid = root
    scratch = plan.scratch
    if plan.namespaces and root:
        try:
            isolation.make_tree_readonly_private("/")
            active.append("read-only filesystem (mount namespace)")
        except OSError:
            pass
        try:
            for folder in hidden_dirs(prepared.spec):
                isolation.mount(
                    "tmpfs",
                    folder,
                    "tmpfs",
                    isolation.MS_RDONLY | isolation.MS_NOSUID | isolation.MS_NODEV,
                    "size=4k,mode=555",
                )
            active.append("hidden tests unmounted")
        except OSError:
            pass
        try:
            isolation.mount(
                "tmpfs",
                "/tmp",
                "tmpfs",
                isolation.MS_NOSUID | isolation.MS_NODEV,
                f"size={plan.limits.tmp_bytes},mode=1777",
            )
            active.append(f"private /tmp ({plan.limits.tmp_bytes >> 20} MiB tmpfs)")
            scratch = SCRATCH
            os.makedirs(scratch, mode=0o700)
        except OSError:
            pass
        if plan.reopen:
            # e.g. the interpreter under /root (mode 700): keep just its folder reachable.
            staging = "/tmp/.tokdrill-staging"
            try:
                os.mkdir(staging, 0o700)
                isolation.reopen_closed_folders(plan.reopen, staging)
                os.rmdir(staging)
                drop_uid = True
                shown = ", ".join(f"{folder} shows only {', '.join(kids)}" for folder, kids in plan.reopen.items())
                active.append(f"private folders covered ({shown})")
            except OSError:
                drop_uid = False
    elif root and plan.reopen:
        drop_uid = False  # the interpreter would be unreadable to an unprivileged uid
    if drop_uid:
        os.chown(scratch, isolation.NOBODY_UID, isolation.NOBODY_GID)
    os.chdir(scratch)
    active.append("scratch working directory and HOME")
    os.environ.clear()
    os.environ.update({"HOME": scratch, "TMPDIR": scratch, "PATH": SAFE_PATH, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"})
    active.append("scrubbed environment")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # oversized writes raise OSError instead of killing
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    limits = isolation.apply_rlimits(plan.limits)
    if limits:
        active.append("rlimits: " + ", ".join(limits))
    if drop_uid:
        try:
            isolation.drop_privileges()
            active.append(f"unprivileged uid {isolation.NOBODY_UID}")
        except OSError:
            pass
    elif root:
        try:
            isolation.drop_capabilities()
            active.append("root without capabilities (the Python installation is unreadable to other uids)")
        except OSError:
            active.append("still root with capabilities: the Python installation is unreadable to other uids")
    else:
        active.append("runs as the invoking user (no uid drop: not root)")
    try:
        isolation.no_new_privs()
        active.append("no_new_privs")
        isolation.apply_seccomp()
        active.append(
            "seccomp: " + str(len(isolation.SECCOMP_DENY) + 1) + " syscalls denied (ptrace, mount, unshare, bpf, ...)"
        )
    except OSError:
        pass
    if not any(p.startswith(("read-only filesystem", "unprivileged uid")) for p in active):
        active.append("NOT protected: files writable by this user can be changed by the submission")
    if "hidden tests unmounted" not in active:
        active.append("NOT protected: the hidden test files are readable by the submission")
    keep = sorted({0, 1, 2, plan.result_fd, plan.source_fd})
    start = 3
    for fd in keep:
        if fd >= start:
            os.closerange(start, fd)
            start = fd + 1
    os.closerange(start, 65536)
    return active


def _run_user_code(prepared: PreparedDrill, source: str, reporter: Reporter) -> None:
    reporter.send("user_code")  # from here on, anything odd may be the submission's doing
    lines = source.splitlines(keepends=True)
    linecache.cache[SUBMISSION_FILENAME] = (len(source), None, lines, SUBMISSION_FILENAME)
    try:
        module, missing = build_module(source, prepared.spec.symbols)
    except BaseException as exc:  # noqa: BLE001 - anything the user's import does is theirs
        reporter.send("import_error", **describe_import_error(exc))
        return
    if missing:
        reporter.send("missing", symbols=[m.symbol for m in missing], messages=[str(m) for m in missing])
        return
    prepared.plugin.module = module
    prepared.config.pluginmanager.register(StreamingReporter(reporter), "tokdrill-stream")
    reporter.send("tests_started")
    try:
        prepared.run_tests()
    except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt, pytest.exit() ... from user code
        reporter.send("aborted", message="".join(traceback.format_exception_only(type(exc), exc)).strip()[:500])
        return
    reporter.send("done")


class StreamingReporter(ResultCollector):
    """Sends each test's start and final result as soon as pytest knows it."""

    def __init__(self, reporter: Reporter) -> None:
        super().__init__()
        self._reporter = reporter

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        self._reporter.send("start", name=test_name(nodeid))

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        result = self.results.get(test_name(nodeid))
        if result is not None:
            self._reporter.send("result", name=result.name, outcome=result.outcome, message=result.message)


def describe_import_error(exc: BaseException) -> dict[str, object]:
    """Kind, location in the user's file and a readable message for an exception at import."""
    kind = type(exc).__name__
    if isinstance(exc, SyntaxError) and (exc.filename in (SUBMISSION_FILENAME, None)):
        line, col = exc.lineno or 0, exc.offset or 0
        text = (exc.text or "").rstrip("\n")
        detail = f"{kind}: {exc.msg}"
        if text:
            caret = " " * max(col - 1 - (len(text) - len(text.lstrip())), 0) + "^"
            detail += f"\n    {text.strip()}\n    {caret}"
        return {"kind": kind, "line": line, "column": col, "message": detail}
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == SUBMISSION_FILENAME]
    line = frames[-1].lineno if frames else 0
    col = (frames[-1].colno or 0) + 1 if frames and frames[-1].colno is not None else 0
    where = "".join(traceback.format_list(frames[-5:])) if frames else ""
    if isinstance(exc, SystemExit):
        summary = f"your code called sys.exit({exc.code!r}) while being imported"
    elif isinstance(exc, KeyboardInterrupt):
        summary = "KeyboardInterrupt while your code was being imported"
    else:
        summary = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    message = summary + (f"\n{where.rstrip()}" if where else "")
    return {"kind": kind, "line": line, "column": col, "message": message}
