"""Anki cloze deletions (``{{c1::text}}``, ``{{c1::text::hint}}``, nested ones too) -> one
question/answer pair per cloze number, as Anki makes one card per number."""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = re.compile(r"\{\{c(\d+)::")
BLANK = "[...]"
MAX_DEPTH = 16
"""Deepest nesting of deletions read (Anki's editor makes a handful at most)."""


@dataclass(frozen=True)
class _Deletion:
    number: int
    parts: tuple[str | _Deletion, ...]
    hint: str | None


_Parts = tuple["str | _Deletion", ...]


def _parse(text: str, pos: int = 0, depth: int = 0) -> tuple[_Parts, str | None, int]:
    """Parts of ``text`` from ``pos`` up to the ``}}`` closing the current deletion (when
    ``depth`` > 0), its hint, and the position after it. Deletions nested deeper than
    :data:`MAX_DEPTH` are left as text."""
    nested = depth > 0
    parts: list[str | _Deletion] = []
    buffer: list[str] = []
    hint: str | None = None
    while pos < len(text):
        opening = _OPEN.match(text, pos) if depth < MAX_DEPTH else None
        if opening:
            if buffer:
                parts.append("".join(buffer))
                buffer = []
            inner, inner_hint, pos = _parse(text, opening.end(), depth + 1)
            parts.append(_Deletion(int(opening.group(1)), inner, inner_hint))
            continue
        if nested and text.startswith("}}", pos):
            if buffer:
                parts.append("".join(buffer))
            return tuple(parts), hint, pos + 2
        if nested and hint is None and text.startswith("::", pos):
            # the hint is the rest of the deletion after its first "::"
            if buffer:
                parts.append("".join(buffer))
                buffer = []
            end = text.find("}}", pos + 2)
            end = len(text) if end < 0 else end
            hint = text[pos + 2 : end]
            pos = end
            continue
        buffer.append(text[pos])
        pos += 1
    if buffer:
        parts.append("".join(buffer))
    return tuple(parts), hint, pos


def cloze_numbers(text: str) -> list[int]:
    """The cloze numbers used in ``text``, ascending (each becomes one card)."""
    found: set[int] = set()

    def walk(parts: _Parts) -> None:
        for part in parts:
            if isinstance(part, _Deletion):
                found.add(part.number)
                walk(part.parts)

    walk(_parse(text)[0])
    return sorted(number for number in found if number > 0)


def _render(parts: _Parts, number: int, question: bool) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif part.number == number and question:
            out.append(f"[{part.hint}]" if part.hint else BLANK)
        elif part.number == number:
            out.append(f"<b>{_render(part.parts, number, question)}</b>")
        else:
            out.append(_render(part.parts, number, question))
    return "".join(out)


def cloze_card(text: str, number: int) -> tuple[str, str, tuple[str, ...]]:
    """``(question, answer, hidden)`` HTML for cloze ``number``: the question blanks that
    deletion (showing its hint if it has one), the answer reveals it in bold; ``hidden`` lists
    the text of each blanked deletion."""
    parts = _parse(text)[0]
    hidden: list[str] = []

    def collect(items: _Parts) -> None:
        for part in items:
            if isinstance(part, _Deletion):
                if part.number == number:
                    hidden.append(_render(part.parts, number, question=False))
                else:
                    collect(part.parts)

    collect(parts)
    return _render(parts, number, question=True), _render(parts, number, question=False), tuple(hidden)
