"""Writing a file whole or not at all, for exports and the unsaved-progress journal."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str, newline: str | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: into a hidden temporary file
    beside it (``.NAME.xxxx``), flushed to disk, then renamed over ``path``. On any failure,
    an interrupt included, the temporary file is removed and ``path`` is left as it was."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
