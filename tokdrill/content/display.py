"""How content errors are shown by the commands (`list`, `validate`) and the app."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def display_path(path: Path | str) -> str:
    """``path`` relative to the working directory when it lies inside it, else as given."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return os.fspath(path)


def error_line(error: Any) -> str:
    """A content error as ``file:line: field: message`` with a short file name."""
    return f"{display_path(error.path)}:{error.line}: {error.field}: {error.message}"
