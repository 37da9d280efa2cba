"""The playground figures time what a user does: a terminal's paste into the text box, each one
replacing the box's text and drawn before the next; and the baseline encodes the same text."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events

from tokdrill.bench import playground
from tokdrill.ui.widgets.paste_area import PasteArea


def test_each_round_pastes_the_text_into_the_box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOKDRILL_HOME", str(tmp_path))
    monkeypatch.setattr(playground, "_pasted_text", lambda: "def f(x):\n    return x  # naïve\n" * 100)
    pasted: list[int] = []
    on_paste = PasteArea.on_paste

    def spy(area: PasteArea, event: events.Paste) -> None:
        pasted.append(len(event.text))
        on_paste(area, event)

    monkeypatch.setattr(PasteArea, "on_paste", spy)
    paste, counts, encode, steps = asyncio.run(playground._measure(2))
    text = playground._pasted_text()
    assert pasted == [len(text), len(text) - 1] * 2 + [len(text)]  # the warm-up round and four timed
    assert len(paste) == len(counts) == 2
    assert len(encode) == 4
    assert all(seconds > 0 for seconds in paste + counts + encode + steps)
