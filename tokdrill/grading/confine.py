"""The lock-down of the sandboxed process (child side), before any user code runs.

:class:`Lockdown` applies every protection the chosen mode allows and records, in words, which
ones took effect (the verdict lists them). With user namespaces the process is PID 1 of its own
PID namespace, in its own user, mount, network, IPC and UTS namespaces; it builds its view of
the machine (read-only system, private ``/tmp``, own ``/proc``, a ``/dev`` with five devices,
hidden tests covered), takes an unprivileged id, and gives up every capability. Without them,
Landlock restricts file access and seccomp refuses new processes. Either way the process has no
terminal (own session, input from ``/dev/null``) and dies with the process that supervises it.

Two steps, so that a run whose tests are collected in the sandbox itself (see
:mod:`tokdrill.grading.pytest_session`) can read them in between: :meth:`Lockdown.isolate`, then
:meth:`Lockdown.seal`.
"""

from __future__ import annotations

import os
import resource
import select
import signal
from dataclasses import dataclass, field
from typing import Literal

from tokdrill.grading import kernel, landlock, seccomp, view
from tokdrill.grading.limits import Limits, size_text
from tokdrill.grading.mechanisms import INSIDE_UID, NOBODY

ConfinementMode = Literal["userns", "landlock", "plain"]
SCRATCH = "/tmp/work"
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
DEVICES = (("null", True), ("zero", False), ("full", True), ("random", False), ("urandom", False))


@dataclass(frozen=True)
class Confinement:
    """Everything the lock-down needs, decided by the grader before forking."""

    mode: ConfinementMode
    limits: Limits
    seccomp: bool  # libseccomp is usable
    grader_is_root: bool
    hidden: tuple[str, ...]  # folders of the hidden tests
    scratch: str = ""  # scratch folder made by the grader (modes without a private /tmp)
    covered: tuple[str, ...] = ()  # top-level entries covered by empty ones (only kept paths show)
    kept: tuple[str, ...] = ()  # paths under /tmp or a covered folder that stay visible (read-only)
    private: tuple[str, ...] = ()  # the user's folders inside visible ones, covered too
    visible: tuple[str, ...] = ()  # everything the submission may read (see tokdrill.grading.view)
    install_closed: bool = False  # the Python installation lies in a folder closed to other users
    lifeline_fd: int = -1  # read end of a pipe the supervisor holds: end of file = it is gone
    keep_fds: tuple[int, ...] = field(default_factory=tuple)  # descriptors the harness still needs


class Lockdown:
    """Applies a :class:`Confinement` to this process; :attr:`active` names what took effect."""

    def __init__(self, plan: Confinement) -> None:
        self.plan = plan
        self.active: list[str] = []
        self._drop_uid = False

    def isolate(self) -> None:
        """Own session; in a user namespace, the whole mount layout except the hidden tests."""
        os.setsid()  # a new session has no controlling terminal: /dev/tty cannot be opened
        self.active.append("separate process in its own session: no terminal, input from /dev/null")
        if self.plan.mode == "userns":
            self._build_namespace_view()

    def seal(self) -> list[str]:
        """Hide the tests, drop privileges, limits, seccomp; returns the active protections."""
        plan = self.plan
        if plan.mode == "userns":
            self._cover_hidden_tests()
            kernel.drop_capabilities()
            self.active.append(f"user namespace: an unprivileged id ({INSIDE_UID}) with no capabilities")
            scratch = SCRATCH
        else:
            scratch = plan.scratch
            self._drop_privileges_without_namespace()
        os.chdir(scratch)
        os.environ.clear()
        os.environ.update(
            {"HOME": scratch, "TMPDIR": scratch, "PATH": SAFE_PATH, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
        )
        self.active.append("scrubbed environment; scratch folder as working directory and HOME")
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # oversized writes raise OSError instead of killing
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        applied = apply_rlimits(plan.limits, processes=plan.mode == "userns")
        if applied:
            self.active.append("rlimits: " + ", ".join(applied))
        kernel.no_new_privs()
        if plan.mode == "landlock":
            self.active += landlock.restrict(
                landlock.Policy(
                    readable=(*plan.visible, "/proc/self"),
                    hidden=(*plan.hidden, *plan.private),
                    writable=(scratch,),
                    devices=tuple((f"/dev/{name}", writable) for name, writable in DEVICES),
                )
            )
        self._tie_to_supervisor()  # before seccomp, which refuses changing the parent-death signal
        if plan.seccomp:
            self.active += seccomp.install(seccomp.Filter(pid_namespace=plan.mode == "userns"))
        self._close_descriptors()
        self.active += self._missing()
        return self.active

    # -- user namespace ------------------------------------------------------------------------
    def _build_namespace_view(self) -> None:
        plan = self.plan
        # Detached copies first: what must stay visible under the folders about to be covered.
        kept = {path: kernel.open_tree(path) for path in plan.kept if os.path.exists(path)}
        devices = {name: kernel.open_tree(f"/dev/{name}") for name, _ in DEVICES if os.path.exists(f"/dev/{name}")}
        # The unprivileged id now (root's kuid 0 is not mapped: the capabilities in this
        # namespace stay until drop_capabilities; files made from here on belong to that id).
        os.setresgid(INSIDE_UID, INSIDE_UID, INSIDE_UID)
        if plan.grader_is_root:
            os.setgroups([])
        os.setresuid(INSIDE_UID, INSIDE_UID, INSIDE_UID)
        ro = kernel.MOUNT_ATTR_RDONLY | kernel.MOUNT_ATTR_NOSUID | kernel.MOUNT_ATTR_NODEV
        kernel.set_mount_attributes("/", add=ro, private=True, recursive=True)
        tmp_size = plan.limits.tmp_bytes
        kernel.mount("tmpfs", "/tmp", "tmpfs", kernel.MS_NOSUID | kernel.MS_NODEV, f"size={tmp_size},mode=1777")
        for folder in plan.covered:
            if os.path.isdir(folder):
                kernel.mount("tmpfs", folder, "tmpfs", kernel.MS_NOSUID | kernel.MS_NODEV, "size=256k,mode=755")
            else:  # a file at the top: an empty device over it
                blank = kernel.open_tree("/dev/null")
                kernel.move_mount(blank, folder)
                os.close(blank)
        for path, fd in kept.items():
            os.makedirs(path, exist_ok=True) if os.path.isdir(f"/proc/self/fd/{fd}") else _touch(path)
            kernel.move_mount(fd, path)
            kernel.set_mount_attributes(path, add=ro, recursive=True)
            os.close(fd)
        for folder in plan.covered:
            kernel.set_mount_attributes(folder, add=kernel.MOUNT_ATTR_RDONLY)
        for folder in plan.private:
            kernel.mount("tmpfs", folder, "tmpfs", kernel.MS_RDONLY | kernel.MS_NOSUID | kernel.MS_NODEV, "size=4k")
        os.mkdir(SCRATCH, 0o700)
        self.active.append(f"read-only file system; a private /tmp ({size_text(tmp_size)}) holds the scratch folder")
        self.active.append(view.SEEN)
        kernel.mount("tmpfs", "/dev", "tmpfs", kernel.MS_NOSUID | kernel.MS_NOEXEC, "size=64k,mode=755")
        for name, fd in devices.items():
            _touch(f"/dev/{name}")
            kernel.move_mount(fd, f"/dev/{name}")
            kernel.set_mount_attributes(f"/dev/{name}", add=kernel.MOUNT_ATTR_RDONLY)  # no metadata changes
            os.close(fd)
        for link, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1")):
            os.symlink(target, f"/dev/{link}")
        os.symlink("/proc/self/fd/2", "/dev/stderr")
        kernel.set_mount_attributes("/dev", add=kernel.MOUNT_ATTR_RDONLY)
        flags = kernel.MS_NOSUID | kernel.MS_NODEV | kernel.MS_NOEXEC | kernel.MS_RDONLY
        kernel.mount("proc", "/proc", "proc", flags)
        self.active.append("own /proc (only the sandbox's processes) and a /dev with only " + ", ".join(devices))
        self.active.append("no network: an empty network namespace")
        self.active.append(
            "PID namespace: every process the submission starts dies with it, and it dies with the grader"
        )

    def _cover_hidden_tests(self) -> None:
        for folder in self.plan.hidden:
            if os.path.isdir(folder):  # gone already if it was under the private /tmp
                flags = kernel.MS_RDONLY | kernel.MS_NOSUID | kernel.MS_NODEV
                kernel.mount("tmpfs", folder, "tmpfs", flags, "size=4k,mode=555")
        self.active.append("hidden tests unmounted")

    # -- without a user namespace ---------------------------------------------------------------
    def _drop_privileges_without_namespace(self) -> None:
        plan = self.plan
        if not plan.grader_is_root:
            self.active.append("runs as your own user id (no user namespace)")
            return
        if not plan.install_closed:  # the interpreter is readable by other users: become nobody
            os.chown(plan.scratch, NOBODY, NOBODY)
            os.setgroups([])
            os.setresgid(NOBODY, NOBODY, NOBODY)
            os.setresuid(NOBODY, NOBODY, NOBODY)
            self.active.append(f"unprivileged user id {NOBODY}")
        else:
            kernel.drop_capabilities()
            self.active.append("root without capabilities (the Python installation is closed to other users)")

    # -- both -----------------------------------------------------------------------------------
    def _tie_to_supervisor(self) -> None:
        """Die with the supervisor. Set after the last change of credentials (which clears it);
        the lifeline catches a supervisor that died before."""
        kernel.die_with_parent()
        fd = self.plan.lifeline_fd
        if fd >= 0:
            readable, _, _ = select.select([fd], [], [], 0)
            if readable:  # end of file: the supervisor is gone
                os._exit(75)
            os.close(fd)

    def _close_descriptors(self) -> None:
        keep = sorted({0, 1, 2, *self.plan.keep_fds})
        start = 3
        for fd in keep:
            if fd >= start:
                os.closerange(start, fd)
                start = fd + 1
        os.closerange(start, 1 << 16)

    def _missing(self) -> list[str]:
        plan = self.plan
        missing = []
        if plan.mode == "plain":
            missing.append("NOT protected: files your account can change can be changed by the submission")
            missing.append("NOT protected: the hidden test files are readable by the submission")
            missing.append("NOT protected: terminals your account owns can be written to")
        if not plan.seccomp:
            missing.append("NOT protected: dangerous system calls (no seccomp on this machine)")
            missing.append("NOT protected: Unix sockets, file watches and clearing the parent-death signal")
            if plan.mode != "userns":
                missing.append("NOT protected: the mode, times and attributes of your files; your other processes")
                missing.append("NOT protected: processes the submission starts may outlive the grader if it is killed")
        if plan.mode != "userns" and not plan.seccomp:
            missing.append("NOT protected: network access")
        return missing


def _touch(path: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o644))


def address_space_in_use() -> int:
    """This process's current virtual size in bytes (0 if unknown)."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def apply_rlimits(limits: Limits, *, processes: bool) -> list[str]:
    """Set the kernel limits for ``limits``; return the names of those that took effect.

    The memory limit is an address-space limit on top of what the process already maps, so the
    submission gets ``memory_bytes`` to itself whatever the grader's own footprint is. The process
    limit counts per user id within a user namespace, so it is applied only with one (per sandbox).
    """
    applied: list[str] = []

    def setlimit(which: int, value: int, name: str) -> None:
        try:
            _soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY and value > hard:
                value = hard
            resource.setrlimit(which, (value, value))
            applied.append(name)
        except (OSError, ValueError):
            pass

    # soft == hard: the kernel sends SIGKILL at the limit, which reaches a namespace's init too.
    setlimit(resource.RLIMIT_CPU, int(limits.cpu_seconds), f"cpu {limits.cpu_seconds} s")
    baseline = address_space_in_use()
    setlimit(resource.RLIMIT_AS, baseline + limits.memory_bytes, f"memory +{size_text(limits.memory_bytes)}")
    setlimit(resource.RLIMIT_FSIZE, limits.file_size_bytes, f"file size {size_text(limits.file_size_bytes)}")
    setlimit(resource.RLIMIT_NOFILE, limits.open_files, f"open files {limits.open_files}")
    if processes:
        setlimit(resource.RLIMIT_NPROC, limits.processes, f"processes {limits.processes} (this sandbox's own)")
    setlimit(resource.RLIMIT_CORE, 0, "no core dumps")
    return applied
