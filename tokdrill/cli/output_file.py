"""Writing a file a person named on the command line, safely: only ever a regular file.

A path that names a symbolic link (dangling or not), a named pipe, a device, a socket or a folder
is refused at once with the reason, rather than written through (a dangling link would create
its target wherever it points) or waited on (opening a pipe for writing blocks until a reader
comes). The file is opened without following links and without blocking, and checked again once
open, so nothing swapped in between the check and the write is written either.
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


def _refusal(mode: int) -> OSError | None:
    for check, kind in _KINDS:
        if check(mode):
            return OSError(errno.EPERM, f"it is {kind}, not a regular file; name a new file or a regular one")
    return None


def write_regular_file(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, created or replaced, when it is a regular file or does
    not exist; raises OSError (its ``strerror`` says why in plain words) otherwise."""
    try:
        refused = _refusal(os.lstat(path).st_mode)
    except FileNotFoundError:
        refused = None
    if refused is not None:
        raise refused
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):  # swapped for a link or a pipe since the check
            raise OSError(exc.errno, "it is not a regular file; name a new file or a regular one") from None
        raise
    with os.fdopen(fd, "wb") as fh:
        refused = _refusal(os.fstat(fd).st_mode)
        if refused is not None:
            raise refused
        fh.truncate(0)
        fh.write(text.encode("utf-8"))
