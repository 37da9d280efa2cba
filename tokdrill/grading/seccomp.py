"""The sandbox's seccomp filter, built with the system's libseccomp through ``ctypes``.

Everything a submission never needs fails with ``EPERM``: tracing other processes, mounting,
namespaces, kernel keyrings, BPF, terminal injection (``TIOCSTI``, ``TIOCLINUX``) and changes
to a terminal's mode, file watches (inotify, fanotify), changes of any file's mode, owner, times
or extended attributes, clearing the parent-death signal, and every socket but a
``socketpair``'s own two ends (no ``socket``, ``connect``, ``bind``, nor a datagram sent to an
address). ``clone3`` fails with ``ENOSYS`` so the C library falls back to ``clone``, whose flags
a filter can inspect. Without a PID namespace to hold them, new processes are refused too
(threads are allowed), and signals, resource limits and scheduling may only concern the
sandboxed process itself.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import socket
import termios
from dataclasses import dataclass

from tokdrill.grading import kernel

DENIED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "process_madvise",
    "kcmp",
    "pidfd_open",
    "pidfd_getfd",
    "pidfd_send_signal",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "mount_setattr",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fspick",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "syslog",
    "vhangup",
    "open_by_handle_at",
    "name_to_handle_at",
    "fanotify_init",
    "inotify_init",
    "inotify_init1",
    "quotactl",
    "personality",
    "iopl",
    "ioperm",
    "get_robust_list",
    "truncate",  # by path: Landlock before ABI 3 does not govern it (ftruncate needs a writable descriptor)
)
# A file's mode, owner, times and extended attributes: Landlock has no right for these, and a
# read-only mount covers only part of the machine, so they are refused everywhere.
METADATA = (
    "chmod",
    "fchmod",
    "fchmodat",
    "fchmodat2",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "setxattrat",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "removexattrat",
)
# Sockets: a socketpair's ends are all a submission may use; these would name another one.
SOCKET_CALLS = ("socket", "connect", "bind", "listen", "accept", "accept4", "sendmsg", "sendmmsg")
# Terminal requests that inject input or change a terminal's state.
TERMINAL_IOCTLS = tuple(
    getattr(termios, name)
    for name in (
        "TIOCSTI",
        "TIOCLINUX",
        "TIOCCONS",
        "TIOCSCTTY",
        "TIOCSETD",
        "TIOCSPGRP",
        "TIOCSWINSZ",
        "TIOCSLCKTRMIOS",
        "TCSETS",
        "TCSETSW",
        "TCSETSF",
        "TCSETA",
        "TCSETAW",
        "TCSETAF",
        "TCFLSH",
        "TCXONC",
    )
    if hasattr(termios, name)
)
# Without a PID namespace: process-wide actions on others.
DENIED_WITHOUT_PID_NAMESPACE = (
    "fork",
    "vfork",
    "tkill",
    "setpriority",
    "ioprio_set",
    "sched_setaffinity",
    "migrate_pages",
    "move_pages",
)
# Without a PID namespace: signals go only to the sandboxed process's own id; limits and
# scheduling change only for the caller, named as 0 (as the C library's setrlimit does).
SIGNALS = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
SELF_AS_ZERO = ("prlimit64", "sched_setscheduler", "sched_setparam", "sched_setattr")
PR_SET_PDEATHSIG = 1

_ALLOW = 0x7FFF0000
_CMP_NE, _CMP_EQ, _CMP_GT, _CMP_MASKED_EQ = 1, 4, 6, 7
_INT_MASK = 0xFFFFFFFF


def _errno_action(err: int) -> int:
    return 0x00050000 | (err & 0xFFFF)


class _ArgCmp(ctypes.Structure):
    _fields_ = (
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    )


_lib: ctypes.CDLL | None = None
_lib_missing = False


def library() -> ctypes.CDLL | None:
    """The system's libseccomp (loaded once, before forking), or None where it is missing."""
    global _lib, _lib_missing
    if _lib is None and not _lib_missing:
        try:
            try:
                lib = ctypes.CDLL("libseccomp.so.2", use_errno=True)
            except OSError:  # another soname: ask the linker cache (slower: runs ldconfig)
                lib = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so", use_errno=True)
            lib.seccomp_init.restype = ctypes.c_void_p
            lib.seccomp_init.argtypes = [ctypes.c_uint32]
            lib.seccomp_rule_add_array.argtypes = [
                ctypes.c_void_p,
                ctypes.c_uint32,
                ctypes.c_int,
                ctypes.c_uint,
                ctypes.POINTER(_ArgCmp),
            ]
            lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
            lib.seccomp_load.argtypes = [ctypes.c_void_p]
            lib.seccomp_release.argtypes = [ctypes.c_void_p]
            _lib = lib
        except (OSError, AttributeError):
            _lib_missing = True
    return _lib


@dataclass(frozen=True)
class Filter:
    """Which optional parts of the filter to include."""

    pid_namespace: bool  # processes are held by a PID namespace: fork and kill stay allowed


def install(spec: Filter) -> list[str]:
    """Load the filter into this process (no_new_privs must be set); returns what it does."""
    lib = library()
    if lib is None:
        raise OSError(errno.ENOSYS, "libseccomp is not available")
    ctx = lib.seccomp_init(_ALLOW)
    if not ctx:
        raise OSError(errno.ENOMEM, "seccomp_init failed")
    try:
        deny = _errno_action(errno.EPERM)
        for name in DENIED:
            _rule(lib, ctx, deny, name)
        _rule(lib, ctx, _errno_action(errno.ENOSYS), "clone3")
        for request in TERMINAL_IOCTLS:
            _rule(lib, ctx, deny, "ioctl", _ArgCmp(1, _CMP_MASKED_EQ, _INT_MASK, request))
        for name in METADATA + SOCKET_CALLS:
            _rule(lib, ctx, deny, name)
        _rule(lib, ctx, deny, "socketpair", _ArgCmp(0, _CMP_NE, socket.AF_UNIX, 0))
        _rule(lib, ctx, deny, "sendto", _ArgCmp(4, _CMP_NE, 0, 0))  # a destination address
        _rule(lib, ctx, deny, "prctl", _ArgCmp(0, _CMP_EQ, PR_SET_PDEATHSIG, 0))
        done = [
            f"seccomp: {len(DENIED) + 1} system calls refused (ptrace, mount, unshare, bpf, inotify, ...)",
            "seccomp: terminal input injection (TIOCSTI) and terminal mode changes refused",
            "seccomp: no file's mode, owner, times or extended attributes can change",
            "seccomp: no sockets but a socketpair's own ends (no network, no local services)",
            "seccomp: the parent-death signal cannot be cleared",
        ]
        if not spec.pid_namespace:
            for name in DENIED_WITHOUT_PID_NAMESPACE:
                _rule(lib, ctx, deny, name)
            _rule(lib, ctx, deny, "clone", _ArgCmp(0, _CMP_MASKED_EQ, kernel.CLONE_THREAD, 0))
            me = os.getpid()
            for name in SIGNALS:
                _rule(lib, ctx, deny, name, _ArgCmp(0, _CMP_NE, me, 0))
            for name in SELF_AS_ZERO:
                _rule(lib, ctx, deny, name, _ArgCmp(0, _CMP_NE, 0, 0))
            done.append("seccomp: new processes refused (threads allowed)")
            done.append("seccomp: no signal, resource limit or scheduling change reaches another process")
        if lib.seccomp_load(ctx) != 0:
            raise OSError(errno.EPERM, "seccomp_load failed")
    finally:
        lib.seccomp_release(ctx)
    return done


def _rule(lib: ctypes.CDLL, ctx: int, action: int, name: str, *compare: _ArgCmp) -> None:
    number = lib.seccomp_syscall_resolve_name(name.encode())
    if number < 0:
        return  # not a system call on this architecture
    array = (_ArgCmp * len(compare))(*compare) if compare else None
    result = lib.seccomp_rule_add_array(ctx, action, number, len(compare), array)
    if result != 0:
        raise OSError(-result, f"seccomp rule for {name} refused: {os.strerror(-result)}")
