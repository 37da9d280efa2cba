"""The one error type the progress store raises for problems a user must act on."""

from __future__ import annotations

from pathlib import Path


class StoreError(Exception):
    """The progress database cannot be used: corrupt, foreign, too new, busy or unwritable.

    ``path`` is the database file; ``backup`` is where a copy of a damaged file was put aside
    (None when no copy was needed). ``str(error)`` is a complete message for the user.
    """

    def __init__(self, message: str, path: Path, backup: Path | None = None) -> None:
        self.path = path
        self.backup = backup
        full = message
        if backup is not None:
            full += f"\nA copy of the file as found was saved to {backup}; the original was not changed."
        super().__init__(full)
