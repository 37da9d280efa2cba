"""Typing figures of a retype drill, measured the way typing trainers do (no Textual here).

* **WPM** is characters typed as the reference has them (line breaks count), divided by five,
  per minute of active time: the clock starts with the first keystroke.
* **Accuracy** is correct keystrokes over all keystrokes. A keystroke is correct when it puts the
  reference's character at the reference's position, so a wrong key still counts against
  accuracy after it is corrected; ``corrected_errors`` says how many wrong keys were fixed.
* **Costly keys** are the reference tokens (a name, a run of punctuation, indentation, a line
  end) where wrong keys landed, most often first.
"""

from __future__ import annotations

import re
from collections import Counter

from msgspec import Struct

COSTLY_KEYS_KEPT = 10
_TOKEN = re.compile(r"\w+|[^\w\s]+|\s+")


class TypingFigures(Struct, frozen=True):
    """One drill's typing: speed, keystroke accuracy, fixed errors and the costliest tokens."""

    wpm: float
    accuracy: float
    keystrokes: int
    errors: int
    corrected_errors: int
    costly_keys: tuple[tuple[str, int], ...]

    def describe(self, top: int = 3) -> str:
        """``52 wpm · accuracy 96.4% (5 corrected) · costliest: `(` ×3, `merges` ×2``."""
        text = f"{self.wpm:.0f} wpm · accuracy {self.accuracy * 100:.1f}% ({self.corrected_errors} corrected)"
        if self.costly_keys:
            text += " · costliest: " + ", ".join(f"`{key}` ×{n}" for key, n in self.costly_keys[:top])
        return text


def words_per_minute(characters: int, seconds: float) -> float:
    """``characters / 5`` per minute; 0 before a full second has passed."""
    return 0.0 if seconds < 1.0 else characters / 5 / (seconds / 60)


def token_at(line: str, column: int) -> str:
    """The reference token at ``column`` of ``line``: a name or number, a run of punctuation,
    ``indentation``, ``space``, or ``line end`` past the last character."""
    if column >= len(line):
        return "line end"
    for match in _TOKEN.finditer(line):
        if match.start() <= column < match.end():
            if match.group().isspace():
                return "indentation" if match.start() == 0 else "space"
            return match.group()
    return line[column]  # not reached: the pattern covers every character


class TypingMeter:
    """Counts keystrokes against a fixed reference text."""

    def __init__(self, reference: str) -> None:
        self.lines = reference.split("\n")
        self.keystrokes = 0
        self.errors = 0
        self.costs: Counter[str] = Counter()

    def resume(self, keystrokes: int, errors: int, costs: tuple[tuple[str, int], ...]) -> None:
        """Go on from counts kept with a draft (a restored draft keeps its accuracy)."""
        self.keystrokes, self.errors = keystrokes, min(errors, keystrokes)
        self.costs = Counter(dict(costs))

    def expected(self, line: int, column: int, length: int = 1) -> str:
        """The ``length`` reference characters from (line, column), ``\\n`` for each line end
        ('' past the end of the text)."""
        out: list[str] = []
        while len(out) < length and line < len(self.lines):
            text = self.lines[line]
            if column < len(text):
                out.append(text[column])
                column += 1
            elif column == len(text) and line + 1 < len(self.lines):
                out.append("\n")
                line, column = line + 1, 0
            else:
                break
        return "".join(out)

    def key(self, typed: str, line: int, column: int) -> bool:
        """Count one keystroke that typed ``typed`` (a character, or a Tab's spaces) at
        (line, column); True if it matches the reference there."""
        self.keystrokes += 1
        if self.expected(line, column, len(typed)) == typed:
            return True
        self.errors += 1
        text = self.lines[line] if line < len(self.lines) else ""
        self.costs[token_at(text, column)] += 1
        return False

    def figures(self, correct_characters: int, remaining_errors: int, seconds: float) -> TypingFigures:
        """The figures now, given the correct characters and wrong characters in the text."""
        accuracy = 1.0 if self.keystrokes == 0 else (self.keystrokes - self.errors) / self.keystrokes
        return TypingFigures(
            wpm=words_per_minute(correct_characters, seconds),
            accuracy=accuracy,
            keystrokes=self.keystrokes,
            errors=self.errors,
            corrected_errors=max(0, self.errors - remaining_errors),
            costly_keys=tuple(self.costs.most_common(COSTLY_KEYS_KEPT)),
        )
