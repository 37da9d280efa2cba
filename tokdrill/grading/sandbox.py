"""Parent side of the sandbox: fork the supervised child, watch it, collect what it reports.

Process layout (Linux, root)::

    grader (trusted, pytest session prepared)
      └─ supervisor: unshare(mount, pid, net, ipc, uts); enforces the wall-clock deadline
           └─ child: pid 1 of the new pid namespace; locks itself down, runs user code

When the child (the namespace's init) dies, the kernel kills everything it started, ``setsid``
or not. Without namespaces the child leads its own process group, which the supervisor kills.
The grader only reads: the child's output (capped), the result channel, and the supervisor's
status line with the child's exit status and CPU time.
"""

from __future__ import annotations

import dataclasses
import json
import os
import select
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field

from tokdrill.grading import isolation
from tokdrill.grading.channel import ChannelReader, new_nonce
from tokdrill.grading.harness import ChildPlan, child_main
from tokdrill.grading.limits import Limits, size_text
from tokdrill.grading.prepared import PreparedDrill

NAMESPACE_FLAGS = (
    isolation.CLONE_NEWNS
    | isolation.CLONE_NEWPID
    | isolation.CLONE_NEWNET
    | isolation.CLONE_NEWIPC
    | isolation.CLONE_NEWUTS
)
NAMESPACE_NAMES = ("mount", "pid", "network", "ipc", "uts")
_probe: bool | None = None
_pending_reap: list[int] = []


def namespaces_available() -> bool:
    """Whether this process may create the sandbox's namespaces (probed once, in a throwaway child)."""
    global _probe
    if _probe is None:
        if not isolation.is_linux():
            _probe = False
            return _probe
        pid = os.fork()
        if pid == 0:
            ok = 0
            try:
                isolation.unshare(NAMESPACE_FLAGS)
                isolation.make_tree_readonly_private("/")
                ok = 1
            finally:
                os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        _probe = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    return _probe


_interpreter_plan: dict[str, list[str]] | None = None


def interpreter_plan() -> dict[str, list[str]]:
    """Closed folders on the way to the interpreter and import path (computed once)."""
    global _interpreter_plan
    if _interpreter_plan is None:
        needed = {sys.prefix, sys.base_prefix, sys.exec_prefix}
        needed.update(p for p in sys.path if p and os.path.exists(p))
        _interpreter_plan = isolation.closed_ancestors(sorted(needed))
    return _interpreter_plan


@dataclass
class RunRecord:
    """Everything the trusted side observed about one run; :mod:`decide` turns it into a verdict."""

    expected: tuple[str, ...]
    limits: Limits
    messages: list[dict[str, object]] = field(default_factory=list)
    forged: int = 0
    protections: list[str] = field(default_factory=list)
    exit_code: int | None = None
    signal: int | None = None
    cpu_seconds: float = 0.0
    timed_out: bool = False
    output: bytes = b""
    output_truncated: bool = False
    supervisor_lost: bool = False
    finished: bool = False  # "done" arrived: the child was stopped without waiting for its exit
    seconds: float = 0.0


def run_sandboxed(prepared: PreparedDrill, source: str, limits: Limits) -> RunRecord:
    """Run ``source`` against ``prepared``'s tests in a sandboxed child; never raises for user code."""
    return Standby(prepared, limits).run(source)


class Standby:
    """A sandbox forked and locked down ahead of time, waiting for the source it will run.

    Starting one costs two forks, namespace set-up and the lock-down; the warm server starts
    the next one right after answering, so a request pays only for the submission's own run.
    The wall-clock deadline starts with :meth:`run`. Use each standby once.
    """

    def __init__(self, prepared: PreparedDrill, limits: Limits) -> None:
        self.prepared = prepared
        self.limits = limits
        self.nonce = new_nonce()
        use_ns = namespaces_available()
        isolation.seccomp_library()  # load it here, once, not in every child
        self.scratch = "" if use_ns else tempfile.mkdtemp(prefix="tokdrill-scratch-")
        out_r, out_w = os.pipe()
        res_r, res_w = os.pipe()
        status_r, status_w = os.pipe()
        ctrl_r, ctrl_w = os.pipe()
        src_r, src_w = os.pipe()
        plan = ChildPlan(res_w, out_w, self.nonce, limits, use_ns, self.scratch, interpreter_plan(), src_r)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        pid = os.fork()
        if pid == 0:  # supervisor
            try:
                for fd in (out_r, res_r, status_r, ctrl_w, src_w):
                    os.close(fd)
                _supervise(prepared, plan, status_w, ctrl_r)
            finally:
                os._exit(70)
        for fd in (out_w, res_w, status_w, ctrl_r, src_r):
            os.close(fd)
        self.pid = pid
        self._fds = {"out": out_r, "res": res_r, "status": status_r, "ctrl": ctrl_w, "src": src_w}
        self.used = False

    def alive(self) -> bool:
        """False once the supervisor has exited (e.g. the child died while waiting)."""
        try:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid:
            self.pid = -1
            return False
        return True

    def run(self, source: str) -> RunRecord:
        """Hand over ``source``, start the clock, and collect the run (once per standby)."""
        if self.used:
            raise RuntimeError("a Standby runs one submission only")
        self.used = True
        start = time.perf_counter()
        record = RunRecord(expected=self.prepared.expected, limits=self.limits)
        fds = self._fds
        try:
            os.write(fds["ctrl"], b"g")
            _send_source(fds["src"], source.encode("utf-8", "surrogatepass"))
            _watch(record, self.pid, fds["out"], fds["res"], fds["status"], fds["ctrl"], self.nonce)
        except OSError:
            record.supervisor_lost = True
            self._reap()
        finally:
            self._close()
        record.seconds = time.perf_counter() - start
        return record

    def discard(self) -> None:
        """Stop an unused standby (its child is killed when the control pipe closes)."""
        self._close()
        self._reap()

    def _reap(self) -> None:
        if self.pid > 0:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self.pid = -1

    def _close(self) -> None:
        for fd in self._fds.values():
            try:
                os.close(fd)
            except OSError:
                pass
        self._fds = dict.fromkeys(self._fds, -1)
        if self.scratch:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = ""


def _send_source(fd: int, data: bytes) -> None:
    """Write the whole source then close, so the child reads to end of file."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _supervise(prepared: PreparedDrill, plan: ChildPlan, status_w: int, ctrl_r: int) -> None:
    """Supervisor process: make namespaces, fork the child, enforce the deadline, report status."""
    _try_die_with_parent()
    active: list[str] = ["separate process"]
    namespaces = False
    if plan.namespaces:
        try:
            isolation.unshare(NAMESPACE_FLAGS)
            namespaces = True
            active.append("namespaces: " + ", ".join(NAMESPACE_NAMES))
            active.append("no network (empty network namespace)")
            active.append("pid namespace: the whole process tree dies with the child")
        except OSError:
            pass
    child = os.fork()
    if child == 0:
        try:
            os.close(status_w)
            os.close(ctrl_r)
            _try_die_with_parent()
            if not namespaces:
                os.setsid()
            child_main(prepared, dataclasses.replace(plan, namespaces=namespaces))
        finally:
            os._exit(70)
    os.close(plan.result_fd)
    os.close(plan.output_fd)
    os.close(plan.source_fd)
    if not namespaces:
        active.append("process group killed at the end (a setsid() escape is not contained)")
        active.append("NOT protected: network access (no private network namespace)")
    active.append(f"wall-clock deadline {plan.limits.wall_seconds:g} s")
    active.append(f"output capped at {size_text(plan.limits.output_bytes)}")
    _write_line(status_w, {"protections": active})
    pidfd = _child_waiter(child)
    # Standing by: wait for "g" (go) from the grader; anything else, or it going away, ends us.
    go = False
    readable, _, _ = select.select([pidfd, ctrl_r], [], [])
    if ctrl_r in readable:
        go = os.read(ctrl_r, 1) == b"g"
    deadline = time.monotonic() + plan.limits.wall_seconds
    timed_out = False
    while go:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        readable, _, _ = select.select([pidfd, ctrl_r], [], [], remaining)
        if pidfd in readable:
            break
        if ctrl_r in readable:
            break  # the grader asked for a kill (output cap) or went away
    os.close(pidfd)
    try:
        os.kill(child, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _, status, usage = os.wait4(child, 0)
    if not namespaces:
        try:
            os.killpg(child, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    final: dict[str, object] = {
        "cpu": usage.ru_utime + usage.ru_stime,
        "timed_out": timed_out,
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
    }
    _write_line(status_w, final)
    os._exit(0)


def _try_die_with_parent() -> None:
    try:
        isolation.die_with_parent()
    except (OSError, AttributeError):  # not Linux: the grader's own cleanup has to do
        pass


def _child_waiter(child: int) -> int:
    """A descriptor that becomes readable when ``child`` exits: a pidfd on Linux, else a pipe
    fed by a SIGCHLD handler."""
    if hasattr(os, "pidfd_open"):
        try:
            return os.pidfd_open(child)
        except OSError:
            pass
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    return read_end


def _write_line(fd: int, data: dict[str, object]) -> None:
    payload = (json.dumps(data) + "\n").encode()
    while payload:
        payload = payload[os.write(fd, payload) :]


def _watch(record: RunRecord, pid: int, out_r: int, res_r: int, status_r: int, ctrl_w: int, nonce: str) -> None:
    """Read output, results and status until the supervisor is done; enforce the output cap."""
    limits = record.limits
    channel = ChannelReader(nonce)
    status_buf = b""
    output = bytearray()
    kill_sent = False
    hard_deadline = time.monotonic() + limits.wall_seconds + 5.0
    open_fds = {out_r, res_r, status_r}
    while status_r in open_fds:
        remaining = hard_deadline - time.monotonic()
        if remaining <= 0:
            record.supervisor_lost = True
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            break
        readable, _, _ = select.select(list(open_fds), [], [], remaining)
        for fd in readable:
            data = os.read(fd, 65536)
            if not data:
                open_fds.discard(fd)
            elif fd == out_r:
                room = limits.output_bytes - len(output)
                if len(data) > room:
                    output += data[: max(room, 0)]
                    record.output_truncated = True
                    if not kill_sent:
                        os.write(ctrl_w, b"k")
                        kill_sent = True
                else:
                    output += data
            elif fd == res_r:
                channel.feed(data)
            else:
                status_buf += data
        if channel.done and not record.output_truncated:
            # Every result is in, from the harness itself: the verdict no longer depends on the
            # child. Stop it and reap later (after answering), instead of waiting for teardown.
            record.finished = True
            break
    if record.finished:
        try:
            os.write(ctrl_w, b"k")
        except OSError:
            pass
        _pending_reap.append(pid)
    else:
        os.waitpid(pid, 0)
    # Take what is still buffered without blocking (the child is gone or being stopped).
    for fd in (out_r, res_r):
        for _ in range(256):  # bounded: an escaped process (no pid namespace) may keep writing
            if fd not in open_fds:
                break
            readable, _, _ = select.select([fd], [], [], 0)
            if not readable:
                break
            data = os.read(fd, 65536)
            if not data:
                break
            if fd == res_r:
                channel.feed(data)
            elif len(output) < limits.output_bytes:
                output += data[: limits.output_bytes - len(output)]
            else:
                record.output_truncated = True
    channel.close()
    record.messages = channel.messages
    record.forged = channel.forged
    record.output = bytes(output)
    for line in status_buf.splitlines():
        try:
            status = json.loads(line)
        except ValueError:
            record.supervisor_lost = True
            continue
        if "protections" in status:
            record.protections = list(status["protections"])
        else:
            record.exit_code = status.get("exit")
            record.signal = status.get("signal")
            record.cpu_seconds = float(status.get("cpu", 0.0))
            record.timed_out = bool(status.get("timed_out"))
    if record.exit_code is None and record.signal is None and not record.timed_out and not record.finished:
        record.supervisor_lost = True


def reap_pending(block: bool) -> None:
    """Collect supervisors of runs that finished early (see :func:`_watch`)."""
    for pid in list(_pending_reap):
        try:
            done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _pending_reap.remove(pid)
