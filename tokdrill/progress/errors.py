"""The one error type the progress store raises for problems a user must act on."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

Problem = Literal["damaged", "foreign", "newer", "busy", "full", "readonly", "io", "unavailable"]
"""What went wrong: a damaged file; another program's file; a newer tokdrill's schema; locked
by another process; disk full; no permission to write; an input/output error; anything else
that keeps the file from being opened."""

ADVICE: dict[Problem, str] = {
    "damaged": "the damaged file is kept as it was; `tokdrill repair` (or Repair in the app's palette) starts a fresh store from what can be read",
    "foreign": "choose another --data-dir or move the file",
    "newer": "upgrade tokdrill to use it",
    "busy": "another tokdrill (or another program) is writing it; close it or wait",
    "full": "free some disk space",
    "readonly": "make the data folder and the file writable for your user",
    "io": "check the disk (and its free space); copy the data folder somewhere safe",
    "unavailable": "check that the data folder exists and is yours",
}


class StoreError(Exception):
    """The progress database cannot be used: damaged, foreign, too new, busy or unwritable.

    ``path`` is the database file; ``backup`` is where a copy of a damaged file was put aside
    (None when no copy was needed); ``problem`` says what kind of trouble it is. ``str(error)``
    is a complete message for the user.
    """

    def __init__(self, message: str, path: Path, backup: Path | None = None, problem: Problem = "unavailable") -> None:
        self.path = path
        self.backup = backup
        self.problem: Problem = problem
        full = message
        if backup is not None:
            full += f"\nA copy of the file as found was saved to {backup}; the original was not changed."
        super().__init__(full)

    @property
    def advice(self) -> str:
        """What the user can do about it, in one sentence."""
        return ADVICE[self.problem]

    @property
    def retryable(self) -> bool:
        """True when the same write may succeed later (lock released, space freed, permissions fixed)."""
        return self.problem in ("busy", "full", "readonly", "io", "unavailable")
