"""Reading a content or hidden test file from disk: regular files only, bounded, never blocking.

Content folders may hold anything (a named pipe, a device, a huge or binary file); reading one
must neither hang nor exhaust memory, and must fail with a sentence, not an exception.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_BYTES = 8 * 1024 * 1024
"""The largest content file read: a deck of thousands of cards is well under a megabyte."""


class UnreadableFile(Exception):
    """A file that cannot be used as content; the message says why, in plain words."""


def read_bounded(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of regular file ``path``; :class:`UnreadableFile` if it cannot be read, is not
    a regular file, or is larger than ``limit`` bytes."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:
        raise UnreadableFile(f"cannot read: {_reason(exc)}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile("not a regular file")
        if info.st_size > limit:
            raise UnreadableFile(f"too large ({info.st_size:,} bytes; content files may be up to {limit:,})")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # grew while being read
                raise UnreadableFile(f"too large (more than {limit:,} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFile(f"cannot read: {_reason(exc)}") from None
    finally:
        os.close(fd)


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc) or type(exc).__name__
