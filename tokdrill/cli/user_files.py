"""Files a person names on the command line: read and written only when they are regular files.

A path that names a symbolic link (for writing), a named pipe, a device, a socket or a folder is
refused at once with the reason, rather than written through (a dangling link would create its
target wherever it points) or waited on (opening a pipe blocks until the other end opens it). A
file is opened without blocking (and, for writing, without following links) and checked again
once open, so nothing swapped in between the check and the use is read or written either.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _refusal(mode: int) -> OSError | None:
    for check, kind in _KINDS:
        if check(mode):
            return OSError(errno.EPERM, f"it is {kind}, not a regular file")
    return None


def refuse_unless_regular(path: Path, *, follow: bool = False) -> None:
    """Raise OSError (its ``strerror`` says why in plain words) when ``path`` exists and is not a
    regular file; a symbolic link is refused whatever it points to, unless ``follow`` (a file to
    be read), when what it points to is checked."""
    try:
        refused = _refusal((os.stat if follow else os.lstat)(path).st_mode)
    except FileNotFoundError:
        return
    if refused is not None:
        raise refused


def _opened(path: Path, flags: int) -> int:
    try:
        fd = os.open(path, flags | os.O_NONBLOCK | _CLOEXEC, 0o666)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):  # swapped for a link or a pipe since the check
            raise OSError(exc.errno, "it is not a regular file") from None
        raise
    refused = _refusal(os.fstat(fd).st_mode)
    if refused is not None:
        os.close(fd)
        raise refused
    return fd


def read_regular_file(path: Path) -> bytes:
    """The bytes of the regular file at ``path`` (it may be reached through a link); OSError when
    it is anything else or cannot be read."""
    with os.fdopen(_opened(path, os.O_RDONLY), "rb") as fh:
        return fh.read()


def write_regular_file(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, created or replaced, when it is a regular file or does
    not exist; OSError when it is anything else (a symbolic link included) or cannot be written."""
    refuse_unless_regular(path)
    with os.fdopen(_opened(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW), "wb") as fh:
        fh.truncate(0)
        fh.write(text.encode("utf-8"))
