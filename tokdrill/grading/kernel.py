"""The Linux calls the sandbox is built from, over ``ctypes``.

Python 3.11 has neither ``os.unshare`` nor the new mount API, so these wrap the C library and
raw system calls. Every function raises ``OSError`` when the kernel refuses, so that callers can
fall back and report truthfully which protections are active. Nothing here runs user code.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import signal

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_THREAD = 0x00010000

MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

MOUNT_ATTR_RDONLY = 0x1
MOUNT_ATTR_NOSUID = 0x2
MOUNT_ATTR_NODEV = 0x4

_AT_FDCWD = -100
_AT_EMPTY_PATH = 0x1000
_AT_RECURSIVE = 0x8000
_OPEN_TREE_CLONE = 1
_OPEN_TREE_CLOEXEC = os.O_CLOEXEC
_MOVE_MOUNT_F_EMPTY_PATH = 0x4

# System calls added after the classic table share one number on every architecture listed here.
_NEW_SYSCALLS = {
    "open_tree": 428,
    "move_mount": 429,
    "mount_setattr": 442,
    "landlock_create_ruleset": 444,
    "landlock_add_rule": 445,
    "landlock_restrict_self": 446,
}
_UNIFIED_ARCHES = ("x86_64", "aarch64", "riscv64", "ppc64le", "s390x")

PR_SET_PDEATHSIG = 1
PR_GET_PDEATHSIG = 2
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4

_libc: ctypes.CDLL | None = None


def libc() -> ctypes.CDLL:
    """The C library, loaded once (ahead of forking, so children never load it)."""
    global _libc
    if _libc is None:
        lib = ctypes.CDLL(None, use_errno=True)
        lib.syscall.restype = ctypes.c_long
        _libc = lib
    return _libc


def _check(result: int, what: str) -> None:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def syscall_number(name: str) -> int:
    """The number of one of the newer system calls on this machine (ENOSYS if unknown)."""
    if platform.machine() not in _UNIFIED_ARCHES:
        raise OSError(errno.ENOSYS, f"{name}: unknown system call number on {platform.machine()}")
    return _NEW_SYSCALLS[name]


def unshare(flags: int) -> None:
    """Move the calling process into new namespaces (``CLONE_NEWPID`` applies to its children)."""
    _check(libc().unshare(ctypes.c_int(flags)), "unshare")


def mount(source: str, target: str, fstype: str | None, flags: int = 0, data: str | None = None) -> None:
    """mount(2); ``fstype=None`` for bind and propagation changes."""
    _check(
        libc().mount(
            source.encode(),
            target.encode(),
            None if fstype is None else fstype.encode(),
            ctypes.c_ulong(flags),
            None if data is None else data.encode(),
        ),
        f"mount {target}",
    )


def open_tree(path: str) -> int:
    """A detached copy of the mount tree at ``path`` (a descriptor), to attach elsewhere later
    with :func:`move_mount`. Taken before a folder is covered, it keeps what was under it."""
    fd = libc().syscall(
        ctypes.c_long(syscall_number("open_tree")),
        ctypes.c_int(_AT_FDCWD),
        path.encode(),
        ctypes.c_uint(_OPEN_TREE_CLONE | _OPEN_TREE_CLOEXEC | _AT_RECURSIVE),
    )
    _check(fd, f"open_tree {path}")
    return int(fd)


def move_mount(fd: int, target: str) -> None:
    """Attach the detached tree ``fd`` (from :func:`open_tree`) at ``target``."""
    result = libc().syscall(
        ctypes.c_long(syscall_number("move_mount")),
        ctypes.c_int(fd),
        b"",
        ctypes.c_int(_AT_FDCWD),
        target.encode(),
        ctypes.c_uint(_MOVE_MOUNT_F_EMPTY_PATH),
    )
    _check(result, f"move_mount {target}")


class _MountAttr(ctypes.Structure):
    _fields_ = (
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    )


def set_mount_attributes(
    where: str | int, *, add: int = 0, remove: int = 0, private: bool = False, recursive: bool = False
) -> None:
    """mount_setattr(2) on a path or a detached tree's descriptor: add/remove ``MOUNT_ATTR_*``
    flags, optionally make the mounts private to this mount namespace."""
    attr = _MountAttr(add, remove, MS_PRIVATE if private else 0, 0)
    flags = _AT_RECURSIVE if recursive else 0
    if isinstance(where, int):
        dirfd, path, flags = where, b"", flags | _AT_EMPTY_PATH
    else:
        dirfd, path = _AT_FDCWD, where.encode()
    result = libc().syscall(
        ctypes.c_long(syscall_number("mount_setattr")),
        ctypes.c_int(dirfd),
        path,
        ctypes.c_uint(flags),
        ctypes.byref(attr),
        ctypes.c_size_t(ctypes.sizeof(attr)),
    )
    _check(result, f"mount_setattr {where}")


def _prctl(option: int, arg: int = 0) -> int:
    result = libc().prctl(ctypes.c_int(option), ctypes.c_ulong(arg), ctypes.c_ulong(0), ctypes.c_ulong(0), 0)
    _check(result, f"prctl {option}")
    return int(result)


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent exits. Any later change of
    credentials (uid, capabilities) clears the request, so set it after them."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def parent_death_signal() -> int:
    """The signal this process receives when its parent exits (0: none)."""
    value = ctypes.c_int(0)
    _check(libc().prctl(ctypes.c_int(PR_GET_PDEATHSIG), ctypes.byref(value), 0, 0, 0), "prctl")
    return value.value


def no_new_privs() -> None:
    """Forbid gaining privileges through exec (setuid programs, file capabilities)."""
    _prctl(PR_SET_NO_NEW_PRIVS, 1)


def become_subreaper() -> None:
    """Orphaned descendants are re-parented to this process instead of init."""
    _prctl(PR_SET_CHILD_SUBREAPER, 1)


class _CapHeader(ctypes.Structure):
    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _CapData(ctypes.Structure):
    _fields_ = (("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32))


def drop_capabilities() -> None:
    """Give up every capability: the bounding and ambient sets, then effective and permitted."""
    lib = libc()
    for cap in range(64):
        if lib.prctl(ctypes.c_int(PR_CAPBSET_DROP), ctypes.c_ulong(cap), 0, 0, 0) != 0:
            if ctypes.get_errno() == errno.EINVAL:
                break  # past the last capability this kernel knows
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) refused")
    _check(lib.prctl(ctypes.c_int(PR_CAP_AMBIENT), ctypes.c_ulong(PR_CAP_AMBIENT_CLEAR_ALL), 0, 0, 0), "ambient")
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    _check(lib.capset(ctypes.byref(header), ctypes.byref(data)), "capset")


def write_id_maps(pid: int, inside_uid: int, outside_uid: int, outside_gid: int) -> None:
    """Map one id of ``pid``'s new user namespace to one outside. Run by the parent, which is
    still in the outer namespace: root may map any id there, anyone else only their own."""
    if os.geteuid() != 0:
        _write_proc(pid, "setgroups", "deny")  # required before an unprivileged gid_map
    _write_proc(pid, "uid_map", f"{inside_uid} {outside_uid} 1\n")
    _write_proc(pid, "gid_map", f"{inside_uid} {outside_gid} 1\n")


def _write_proc(pid: int, name: str, text: str) -> None:
    fd = os.open(f"/proc/{pid}/{name}", os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
