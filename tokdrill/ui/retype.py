"""Retype-mode bookkeeping: live accuracy and the first divergence from the reference.

Pure Python (no Textual), called on every edit, so it has to stay cheap: whole lines are compared
with string equality and only lines that differ are compared character by character (cached).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from functools import lru_cache
from itertools import compress
from operator import ne, not_

from msgspec import Struct


class Divergence(Struct, frozen=True):
    """Where the typed text first departs from the reference (0-based line and column)."""

    line: int
    column: int
    expected: str
    got: str

    def describe(self) -> str:
        return f"line {self.line + 1}, col {self.column + 1}: expected {self.expected}, got {self.got}"


class RetypeProgress(Struct, frozen=True):
    """Accuracy of what was typed so far, how much of the reference it covers, and the divergence."""

    typed_chars: int
    correct_chars: int
    reference_chars: int
    divergence: Divergence | None
    correct_line_breaks: int = 0  # line breaks typed after a line that matches the reference

    @property
    def accuracy(self) -> float:
        """Correct characters over typed characters (1.0 before anything is typed)."""
        return 1.0 if self.typed_chars == 0 else self.correct_chars / self.typed_chars

    @property
    def correct_characters(self) -> int:
        """Characters typed as the reference has them, line breaks included (what WPM counts)."""
        return self.correct_chars + self.correct_line_breaks

    @property
    def completion(self) -> float:
        """Correct characters over the reference's characters."""
        return 0.0 if self.reference_chars == 0 else min(1.0, self.correct_chars / self.reference_chars)


def _show(ch: str) -> str:
    if ch == " ":
        return "a space"
    if ch == "\t":
        return "a tab"
    return repr(ch)


@lru_cache(maxsize=4096)
def _line_correct(typed: str, reference: str) -> int:
    """Characters of ``typed`` equal to the reference character in the same column."""
    return sum(1 for a, b in zip(typed, reference) if a == b)


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class RetypeTracker:
    """Compares the editor's lines with a fixed reference text."""

    def __init__(self, reference: str) -> None:
        self.reference_lines: list[str] = reference.split("\n")
        if self.reference_lines and self.reference_lines[-1] == "":
            self.reference_lines.pop()
        self.reference_chars = sum(len(line) for line in self.reference_lines)

    def update(self, lines: Sequence[str]) -> RetypeProgress:
        """Progress for the editor's current ``lines`` (without newline characters).

        Whole-line work is done by C-level ``map``/``sum``; only lines that differ from the
        reference are looked at one by one, so a 300-line buffer costs tens of microseconds.
        """
        ref = self.reference_lines
        n_ref = len(ref)
        last = len(lines) - 1
        while last > 0 and lines[last] == "" and last >= n_ref:
            last -= 1  # trailing blank lines past the reference are not typing mistakes
        used = lines[: last + 1]
        overlap = min(len(used), n_ref)
        typed = sum(map(len, used))
        differs = list(map(ne, used[:overlap], ref[:overlap]))
        correct = sum(map(len, compress(used, map(not_, differs))))
        divergence: Divergence | None = None
        for i in compress(range(overlap), differs):
            line, want = used[i], ref[i]
            correct += _line_correct(line, want)
            if divergence is not None:
                continue
            col = _common_prefix(line, want)
            if col < len(line):
                expected = _show(want[col]) if col < len(want) else "end of line"
                divergence = Divergence(i, col, expected, _show(line[col]))
            elif i < last:
                divergence = Divergence(i, col, _show(want[col]), "end of line")
            # else: the line being typed is a correct prefix of the reference line
        if divergence is None:
            for i in range(overlap, len(used)):
                if used[i]:
                    divergence = Divergence(i, 0, "end of file", _show(used[i][0]))
                    break
        breaks = differs[: min(last, overlap)].count(False)
        return RetypeProgress(typed, correct, self.reference_chars, divergence, breaks)


def code_diff(user: str, reference: str) -> str:
    """A unified diff of the user's code against the reference ('' when they are identical)."""
    lines = difflib.unified_diff(
        user.splitlines(), reference.splitlines(), fromfile="your code", tofile="reference", lineterm=""
    )
    return "\n".join(lines)
