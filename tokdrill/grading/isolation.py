"""Linux isolation primitives over ``ctypes`` (Python 3.11 has no ``os.unshare``).

Each function raises ``OSError`` when the kernel refuses, so callers can fall back and record
which protections are really active. Nothing here runs user code.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys

from tokdrill.grading.limits import Limits, size_text

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

AT_FDCWD = -100
AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 0x1
SYS_MOUNT_SETATTR = {"x86_64": 442, "aarch64": 442}

MS_BIND = 4096
MS_MOVE = 8192

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38

NOBODY_UID = 65534
NOBODY_GID = 65534

_libc: ctypes.CDLL | None = None


def libc() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def is_linux() -> bool:
    return sys.platform.startswith("linux")


def unshare(flags: int) -> None:
    """Move the calling process into new namespaces (``CLONE_NEWPID`` applies to its children)."""
    _check(libc().unshare(ctypes.c_int(flags)), "unshare")


def mount(source: str, target: str, fstype: str | None, flags: int = 0, data: str | None = None) -> None:
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


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


def make_tree_readonly_private(path: str = "/") -> None:
    """Every mount under ``path`` read-only and private to this mount namespace (Linux >= 5.12)."""
    import platform

    number = SYS_MOUNT_SETATTR.get(platform.machine())
    if number is None:
        raise OSError(38, "mount_setattr: unknown syscall number on this architecture")
    attr = _MountAttr(MOUNT_ATTR_RDONLY, 0, MS_PRIVATE, 0)
    result = libc().syscall(
        ctypes.c_long(number),
        ctypes.c_int(AT_FDCWD),
        path.encode(),
        ctypes.c_uint(AT_RECURSIVE),
        ctypes.byref(attr),
        ctypes.c_size_t(ctypes.sizeof(attr)),
    )
    _check(0 if result == 0 else -1, "mount_setattr")


def prctl(option: int, arg: int) -> None:
    _check(libc().prctl(ctypes.c_int(option), ctypes.c_ulong(arg), 0, 0, 0), "prctl")


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this process when its parent exits."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def no_new_privs() -> None:
    """Forbid gaining privileges through exec (setuid binaries, file capabilities)."""
    prctl(PR_SET_NO_NEW_PRIVS, 1)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> None:
    """Give up every capability (bounding set included) while keeping the current uid."""
    PR_CAPBSET_DROP = 24
    for cap in range(64):
        if libc().prctl(ctypes.c_int(PR_CAPBSET_DROP), ctypes.c_ulong(cap), 0, 0, 0) != 0:
            break  # past the last capability this kernel knows
    header = _CapHeader(0x20080522, 0)
    data = (_CapData * 2)()
    _check(libc().capset(ctypes.byref(header), ctypes.byref(data)), "capset")


def drop_privileges(uid: int = NOBODY_UID, gid: int = NOBODY_GID) -> None:
    """Irrevocably become ``uid``/``gid`` with no supplementary groups (needs root)."""
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)


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


def apply_rlimits(limits: Limits) -> list[str]:
    """Set the kernel limits for ``limits``; return the names of those that took effect.

    The memory limit is an address-space limit on top of what the process already maps, so the
    submission gets ``memory_bytes`` to itself whatever the grader's own footprint is.
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
    setlimit(resource.RLIMIT_NPROC, limits.processes, f"processes {limits.processes}")
    setlimit(resource.RLIMIT_CORE, 0, "no core dumps")
    return applied


def closed_ancestors(paths: list[str]) -> dict[str, list[str]]:
    """For folders an unprivileged user cannot traverse (no o+x) on the way to ``paths``: map
    each such folder to the children that must stay reachable (e.g. ``/root`` -> ``[.pyenv]``)."""
    plan: dict[str, set[str]] = {}
    for path in paths:
        parts = os.path.abspath(path).split(os.sep)[1:]
        current = "/"
        for i, part in enumerate(parts[:-1]):
            current = os.path.join(current, part)
            try:
                mode = os.stat(current).st_mode
            except OSError:
                break
            if not mode & 0o001:
                plan.setdefault(current, set()).add(parts[i + 1])
                break
    return {folder: sorted(children) for folder, children in plan.items()}


def reopen_closed_folders(plan: dict[str, list[str]], staging: str) -> None:
    """Inside a private mount namespace, cover each closed folder with an empty read-only tmpfs
    holding only the listed children (bind-mounted back, read-only). ``staging`` is a writable
    empty folder used on the way."""
    for index, (folder, children) in enumerate(plan.items()):
        moved = []
        for j, child in enumerate(children):
            stage = os.path.join(staging, f"{index}-{j}")
            os.mkdir(stage)
            mount(os.path.join(folder, child), stage, None, MS_BIND | MS_REC)
            moved.append((stage, child))
        mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=755")
        for stage, child in moved:
            target = os.path.join(folder, child)
            os.mkdir(target)
            mount(stage, target, None, MS_MOVE)
            os.rmdir(stage)
        make_tree_readonly_private(folder)


# Syscalls a submission never needs; with seccomp they fail with EPERM (clone3 with ENOSYS, so
# the C library falls back to plain clone). Defence in depth: most already need capabilities.
SECCOMP_DENY = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
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
    "open_by_handle_at",
    "name_to_handle_at",
    "fanotify_init",
    "quotactl",
    "personality",
)
_SCMP_ACT_ALLOW = 0x7FFF0000
_seccomp: ctypes.CDLL | bool | None = None


def _scmp_errno(err: int) -> int:
    return 0x00050000 | (err & 0xFFFF)


def seccomp_library() -> ctypes.CDLL | None:
    """Debian's libseccomp through ctypes (loaded once, ahead of forking), or None."""
    global _seccomp
    if _seccomp is None:
        import ctypes.util

        name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
        try:
            lib = ctypes.CDLL(name, use_errno=True)
            lib.seccomp_init.restype = ctypes.c_void_p
            lib.seccomp_init.argtypes = [ctypes.c_uint32]
            lib.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
            lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
            lib.seccomp_load.argtypes = [ctypes.c_void_p]
            lib.seccomp_release.argtypes = [ctypes.c_void_p]
            _seccomp = lib
        except (OSError, AttributeError):
            _seccomp = False
    return _seccomp or None


def apply_seccomp() -> None:
    """Install the deny-list filter on this process (needs no_new_privs first)."""
    import errno

    lib = seccomp_library()
    if lib is None:
        raise OSError(errno.ENOSYS, "libseccomp is not available")
    ctx = lib.seccomp_init(_SCMP_ACT_ALLOW)
    if not ctx:
        raise OSError(errno.ENOMEM, "seccomp_init failed")
    try:
        rules = [(name, errno.EPERM) for name in SECCOMP_DENY] + [("clone3", errno.ENOSYS)]
        for name, err in rules:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            if number < 0:
                continue  # not a syscall on this architecture
            if lib.seccomp_rule_add(ctx, _scmp_errno(err), number, 0) != 0:
                raise OSError(errno.EINVAL, f"seccomp rule for {name} refused")
        if lib.seccomp_load(ctx) != 0:
            raise OSError(errno.EPERM, "seccomp_load failed")
    finally:
        lib.seccomp_release(ctx)
