"""Parent side of the sandbox: start the supervised child, watch it, collect what it reports.

Process layout (the same for root and ordinary users)::

    grader (trusted, single-threaded: the warm server or `tokdrill check`)
      └─ supervisor: dies with the grader; makes the namespaces; enforces the wall clock
           └─ child: PID 1 of a new PID namespace; locks itself down; runs the user's code

Each link is tied by the parent-death signal, set after the last change of credentials (which
clears it) and checked against a lifeline, so killing the grader in any way (Ctrl-C, SIGTERM,
SIGKILL, a closed terminal) kills the supervisor, which kills the child, and with the child the
kernel kills every process in its PID namespace. The grader writes the child's user-namespace id
maps (root maps the sandbox to ``nobody``, anyone else to themselves). Without user namespaces
the child is an ordinary process that may not start others (seccomp); the supervisor is also a
subreaper, so anything that escapes without seccomp is still found and killed at the end.

The grader only reads: the child's output (capped), the result channel, and the supervisor's
status line with the child's exit status and CPU time.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
import select
import signal
import sys
import time

import msgspec

from tokdrill.grading import kernel, mechanisms, scratch, view
from tokdrill.grading.confine import Confinement, ConfinementMode
from tokdrill.grading.decide import RunRecord
from tokdrill.grading.harness import ChildPlan, child_main
from tokdrill.grading.limits import Limits, size_text
from tokdrill.grading.prepared import PreparedDrill, hidden_dirs
from tokdrill.grading.protocol import ChannelReader, ChildEnded, decode_status, encode_status, new_nonce
from tokdrill.grading.submission import SUBMISSION_FILENAME
from tokdrill.grading.view import closed_folders as closed_folders  # also used by the benchmark
from tokdrill.grading.view import install_paths as install_paths

NAMESPACES = (
    kernel.CLONE_NEWUSER
    | kernel.CLONE_NEWNS
    | kernel.CLONE_NEWPID
    | kernel.CLONE_NEWNET
    | kernel.CLONE_NEWIPC
    | kernel.CLONE_NEWUTS
)
EXIT_INTERNAL = 70
_pending_reap: list[int] = []
_pending_scratch: dict[int, str] = {}  # supervisor -> scratch folder to remove once it is reaped


class NamespaceRefused(Exception):
    """The supervisor could not make its namespaces although the probe said it could."""


_layouts: dict[tuple[str, ...], tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}


def layout(hidden: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The namespace path's (covered, kept, private) folders for a drill (computed once per
    set of hidden-test folders); see :func:`tokdrill.grading.view.namespace_layout`."""
    if hidden not in _layouts:
        _layouts[hidden] = view.namespace_layout(hidden)
    return _layouts[hidden]


def install_closed() -> bool:
    """True if the Python installation lies in a folder other users may not enter (e.g. /root)."""
    return bool(closed_folders(install_paths()))


def choose_mode(found: mechanisms.Mechanisms) -> ConfinementMode:
    if found.userns:
        return "userns"
    return "landlock" if found.landlock else "plain"


class Standby:
    """A sandbox started and locked down ahead of time, waiting for the source it will run.

    Starting one costs two forks, the namespace set-up and the lock-down; the warm server starts
    the next one right after answering, so a request pays only for the submission's own run.
    The wall-clock deadline starts with :meth:`run`. Use each standby once.
    """

    def __init__(self, prepared: PreparedDrill, limits: Limits, filename: str = SUBMISSION_FILENAME) -> None:
        self.prepared = prepared
        self.limits = limits
        self.filename = filename
        self.nonce = new_nonce()
        found = mechanisms.detect()
        self.mode = choose_mode(found)
        self.notice = mechanisms.notice(found)
        if found.seccomp:
            from tokdrill.grading import seccomp

            seccomp.library()  # loaded here, once, not in every child
        kernel.libc()
        hidden = tuple(hidden_dirs(prepared.spec))
        covered, kept, private = layout(hidden) if self.mode == "userns" else ((), (), view.private_paths())
        scratch.sweep_once()  # folders left by killed graders, whichever path made them
        self.scratch = "" if self.mode == "userns" else scratch.make()
        out_r, out_w = os.pipe()
        res_r, res_w = os.pipe()
        status_r, status_w = os.pipe()
        ctrl_r, ctrl_w = os.pipe()
        src_r, src_w = os.pipe()
        sync_r, sync_w = os.pipe()  # supervisor -> grader: "u" in its namespaces, "n" refused
        ack_r, ack_w = os.pipe()  # grader -> supervisor: "m" ids mapped
        confinement = Confinement(
            mode=self.mode,
            limits=limits,
            seccomp=found.seccomp,
            grader_is_root=os.geteuid() == 0,
            hidden=hidden,
            scratch=self.scratch,
            covered=covered,
            kept=kept,
            private=private,
            visible=view.visible_paths(),
            install_closed=os.geteuid() == 0 and install_closed(),
        )
        plan = ChildPlan(res_w, out_w, src_r, self.nonce, confinement, filename)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        grader = os.getpid()
        pid = os.fork()
        if pid == 0:
            try:
                keep = (status_w, ctrl_r, sync_w, ack_r, res_w, out_w, src_r)
                _supervise(prepared, plan, grader, keep)
            finally:
                os._exit(EXIT_INTERNAL)
        for fd in (out_w, res_w, status_w, ctrl_r, src_r, sync_w, ack_r):
            os.close(fd)
        self.pid = pid
        self._fds = {"out": out_r, "res": res_r, "status": status_r, "ctrl": ctrl_w, "src": src_w}
        self.used = False
        try:
            self._map_ids(sync_r, ack_w)
        except BaseException:
            self.discard()
            raise
        finally:
            os.close(sync_r)
            os.close(ack_w)

    def _map_ids(self, sync_r: int, ack_w: int) -> None:
        """The supervisor's half of the handshake: map its ids once it is in its namespaces."""
        if self.mode != "userns":
            return
        answer = os.read(sync_r, 1)
        if answer != b"u":
            raise NamespaceRefused("the supervisor could not create its namespaces")
        uid, gid = os.geteuid(), os.getegid()
        outside_uid = mechanisms.NOBODY if uid == 0 else uid
        outside_gid = mechanisms.NOBODY if uid == 0 else gid
        kernel.write_id_maps(self.pid, mechanisms.INSIDE_UID, outside_uid, outside_gid)
        os.write(ack_w, b"m")

    def alive(self) -> bool:
        """False once the supervisor has exited (e.g. the child died while waiting)."""
        if self.pid <= 0:
            return False
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
        record = RunRecord(
            expected=self.prepared.expected,
            concepts=self.prepared.concepts,
            limits=self.limits,
            filename=self.filename,
            notice=self.notice,
        )
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
        record.protections += [
            f"wall-clock limit {self.limits.wall_seconds:g} s",
            f"output capped at {size_text(self.limits.output_bytes)}",
        ]
        record.seconds = time.perf_counter() - start
        return record

    def discard(self) -> None:
        """Stop an unused standby (its supervisor kills the child when the control pipe closes)."""
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
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._fds = dict.fromkeys(self._fds, -1)
        if self.scratch:
            if self.pid in _pending_reap:  # the child may still be dying: remove after the reap
                _pending_scratch[self.pid] = self.scratch
            else:
                scratch.remove(self.scratch)
            self.scratch = ""


def _send_source(fd: int, data: bytes) -> None:
    """Write the whole source then close, so the child reads to end of file."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _supervise(prepared: PreparedDrill, plan: ChildPlan, grader: int, keep: tuple[int, ...]) -> None:
    """The supervisor process: make namespaces, start the child, enforce the deadline, report."""
    status_w, ctrl_r, sync_w, ack_r = keep[:4]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the grader's to handle
    kernel.die_with_parent()
    if os.getppid() != grader:
        return  # the grader died before the request was in place
    _quiet_stdio()
    _close_all_but(keep)
    userns = plan.confinement.mode == "userns"
    if userns:
        try:
            kernel.unshare(NAMESPACES)
        except OSError:
            os.write(sync_w, b"n")
            return
        os.write(sync_w, b"u")
        if os.read(ack_r, 1) != b"m":
            return
    else:
        kernel.become_subreaper()
    os.close(sync_w)
    os.close(ack_r)
    life_r, life_w = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            for fd in (status_w, ctrl_r, life_w):
                os.close(fd)
            tied = dataclasses.replace(plan.confinement, lifeline_fd=life_r, keep_fds=(plan.result_fd, plan.source_fd))
            child_main(prepared, dataclasses.replace(plan, confinement=tied))
        finally:
            os._exit(EXIT_INTERNAL)
    for fd in (plan.result_fd, plan.output_fd, plan.source_fd, life_r):
        os.close(fd)
    pidfd = os.pidfd_open(child)
    # Standing by: wait for "g" (go) from the grader; anything else, or it going away, ends us.
    readable, _, _ = select.select([pidfd, ctrl_r], [], [])
    go = ctrl_r in readable and os.read(ctrl_r, 1) == b"g"
    limits = plan.confinement.limits
    folder = plan.confinement.scratch  # without a private /tmp: measured here
    deadline = time.monotonic() + limits.wall_seconds
    timed_out = scratch_full = False
    stopped = not go  # the supervisor itself ends the child (deadline, grader's request)
    while go:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = stopped = True
            break
        wait = min(remaining, scratch.CHECK_EVERY) if folder else remaining
        readable, _, _ = select.select([pidfd, ctrl_r], [], [], wait)
        if pidfd in readable:
            break  # the child ended by itself (or by a kernel limit)
        if readable:
            stopped = True  # the grader asked for a kill (output cap) or went away
            break
        if folder and scratch.usage(folder, child) > limits.tmp_bytes:
            scratch_full = stopped = True
            break
    try:
        os.kill(child, signal.SIGKILL)  # PID 1 of its namespace: the kernel kills the rest
    except ProcessLookupError:
        pass
    _, status, usage = os.wait4(child, 0)
    if not userns:
        _kill_descendants()
    final = ChildEnded(
        cpu=usage.ru_utime + usage.ru_stime,
        timed_out=timed_out,
        stopped=stopped,
        scratch_full=scratch_full,
        exit=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
    )
    os.write(status_w, encode_status(final))
    os._exit(0)


def _quiet_stdio() -> None:
    """The supervisor never writes to (or holds) the grader's terminal."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def _close_all_but(keep: tuple[int, ...]) -> None:
    """Drop every descriptor inherited from the grader (other standbys' pipes above all: a
    copy held here would keep their supervisors from seeing the grader close them)."""
    start = 3
    for fd in sorted(set(keep)):
        if fd >= start:
            os.closerange(start, fd)
            start = fd + 1
    os.closerange(start, 1 << 16)


def _kill_descendants() -> None:
    """As a subreaper: kill whatever the child left behind (re-parented here) until none is left."""
    me = os.getpid()
    for _ in range(64):
        try:
            with open(f"/proc/{me}/task/{me}/children") as fh:
                children = [int(p) for p in fh.read().split()]
        except OSError:
            return
        if not children:
            return
        for pid in children:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def _watch(record: RunRecord, pid: int, out_r: int, res_r: int, status_r: int, ctrl_w: int, nonce: str) -> None:
    """Read output, results and status until the supervisor is done; enforce the output cap."""
    limits = record.limits
    channel = ChannelReader(nonce)
    status_buf = bytearray()
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
            elif len(status_buf) < 4096:
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
        for _ in range(256):  # bounded: a process still alive could keep writing
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
    record.channel_overflow = channel.overflowed
    record.output = bytes(output)
    for line in bytes(status_buf).splitlines():
        try:
            status = decode_status(line)
        except msgspec.DecodeError:
            record.supervisor_lost = True
            continue
        record.exit_code = status.exit
        record.signal = status.signal
        record.cpu_seconds = status.cpu
        record.timed_out = status.timed_out
        record.scratch_full = status.scratch_full
        record.stopped = status.stopped
    if record.exit_code is None and record.signal is None and not record.timed_out and not record.finished:
        record.supervisor_lost = True


@atexit.register
def _reap_at_exit() -> None:
    reap_pending(block=True)  # and remove their scratch folders


def reap_pending(block: bool) -> None:
    """Collect supervisors of runs that finished early (see :func:`_watch`) and remove their
    scratch folders."""
    for pid in list(_pending_reap):
        try:
            done, _ = os.waitpid(pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done:
            _pending_reap.remove(pid)
            scratch.remove(_pending_scratch.pop(pid, ""))
