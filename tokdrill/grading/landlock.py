"""Landlock: file-system (and TCP, signal) rules an unprivileged process puts on itself.

The sandbox's fallback where user namespaces are refused (Linux >= 5.13). Rules only ever allow,
so the policy is built as an allow-list: read the visible paths except the folders to hide
(their ancestors get rules for their other entries instead), chosen device files, and
everything beneath the scratch folder. See ``Documentation/userspace-api/landlock.rst`` in the kernel.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass

from tokdrill.grading import kernel, view

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REMOVE_DIR = 1 << 4
REMOVE_FILE = 1 << 5
MAKE_CHAR = 1 << 6
MAKE_DIR = 1 << 7
MAKE_REG = 1 << 8
MAKE_SOCK = 1 << 9
MAKE_FIFO = 1 << 10
MAKE_BLOCK = 1 << 11
MAKE_SYM = 1 << 12
REFER = 1 << 13  # ABI 2
TRUNCATE = 1 << 14  # ABI 3
IOCTL_DEV = 1 << 15  # ABI 5
NET_BIND_TCP = 1 << 0  # ABI 4
NET_CONNECT_TCP = 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0  # ABI 6
SCOPE_SIGNAL = 1 << 1

_FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # the rights a non-folder can take
_READ = EXECUTE | READ_FILE | READ_DIR
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1


class _RulesetAttr(ctypes.Structure):
    _fields_ = (
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    )


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


def _syscall(name: str, *args: object) -> int:
    result = kernel.libc().syscall(ctypes.c_long(kernel.syscall_number(name)), *args)
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{name}: {os.strerror(err)}")
    return int(result)


def abi_version() -> int:
    """The Landlock ABI this kernel offers; 0 if it has none or it is disabled."""
    try:
        return _syscall("landlock_create_ruleset", None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    except OSError:
        return 0


def _fs_rights(abi: int) -> int:
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


@dataclass(frozen=True)
class Policy:
    """What the process may still reach once restricted."""

    readable: tuple[str, ...]  # what may be read (see tokdrill.grading.view)
    hidden: tuple[str, ...]  # folders (or files) inside readable ones that become unreadable
    writable: tuple[str, ...]  # folders with every right beneath them
    devices: tuple[tuple[str, bool], ...]  # device files kept: (path, writable)


def restrict(policy: Policy) -> list[str]:
    """Restrict this process (and its future children) to ``policy``; returns what is active.
    Needs no_new_privs first. Raises OSError where Landlock is missing."""
    abi = abi_version()
    if abi < 1:
        raise OSError(errno.EOPNOTSUPP, "Landlock is not available")
    fs = _fs_rights(abi)
    net = NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0
    attr = _RulesetAttr(fs, net, scoped)
    size = ctypes.sizeof(attr) if abi >= 6 else (16 if abi >= 4 else 8)
    ruleset = _syscall("landlock_create_ruleset", ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    try:
        hidden = {os.path.realpath(p) for p in policy.hidden} | {"/dev"}
        for root in policy.readable:
            for path, rights in _read_rules(root, hidden):
                _allow(ruleset, path, rights & fs)
        for path, writable in policy.devices:
            _allow(ruleset, path, (READ_FILE | (WRITE_FILE | TRUNCATE if writable else 0)) & fs)
        for path in policy.writable:
            _allow(ruleset, path, fs)
        _syscall("landlock_restrict_self", ctypes.c_int(ruleset), ctypes.c_uint32(0))
    finally:
        os.close(ruleset)
    active = [
        f"Landlock (ABI {abi}): files read-only except the scratch folder; hidden tests and devices unreachable",
        view.SEEN,
    ]
    if net:
        active.append("Landlock: TCP connections and listening refused")
    if scoped:
        active.append("Landlock: no signals to processes outside the sandbox, no abstract sockets")
    return active


def _read_rules(folder: str, hidden: set[str]) -> Iterable[tuple[str, int]]:
    """Read rights for everything under ``folder`` except the ``hidden`` paths: a folder with
    nothing hidden below it gets one rule; an ancestor of a hidden path gets listing only, and
    its entries are visited in turn. Symbolic links need no rule (their targets have one)."""
    below = [h for h in hidden if h == folder or h.startswith(folder.rstrip("/") + "/")]
    if folder in hidden:
        return
    if not below:
        yield folder, _READ
        return
    yield folder, READ_DIR
    try:
        entries = os.scandir(folder)
    except OSError:
        return
    with entries:
        for entry in entries:
            if entry.is_symlink():
                continue
            path = os.path.join(folder, entry.name)
            if entry.is_dir(follow_symlinks=False):
                yield from _read_rules(path, set(below))
            elif path not in hidden:
                yield path, _READ & ~READ_DIR


def _allow(ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # vanished or unreadable: nothing to allow
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= _FILE_RIGHTS
        if rights:
            rule = _PathBeneath(rights, fd)
            _syscall(
                "landlock_add_rule",
                ctypes.c_int(ruleset),
                ctypes.c_int(_RULE_PATH_BENEATH),
                ctypes.byref(rule),
                ctypes.c_uint32(0),
            )
    finally:
        os.close(fd)
