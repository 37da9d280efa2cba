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
    monkeypatch.setattr(playground, "_pasted_text", lambda size=0: "def f(x):\n    return x  # naïve\n" * 100)
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


def test_growth_pastes_each_size_and_fits_both_curves(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[tuple[int, int, bool]] = []

    def measured(repeat: int, size: int = playground.PASTE_BYTES, stepping: bool = True) -> tuple[list[float], ...]:
        sizes.append((repeat, size, stepping))
        return [size / 1e6] * repeat, [2 * size / 1e6] * repeat, [], []

    monkeypatch.setattr(playground, "_run", measured)
    tokens, counts = playground.growth(quick=True)
    assert sizes == [(3, size, False) for size in playground.GROWTH_BYTES]
    assert tokens.sizes == counts.sizes == playground.GROWTH_BYTES
    assert counts.values == [2 * v for v in tokens.values]
    assert tokens.exponent == pytest.approx(1.0)


def test_a_text_of_any_size_is_cut_at_that_many_bytes() -> None:
    for size in playground.GROWTH_BYTES:
        text = playground._pasted_text(size)
        assert size - 4 < len(text.encode("utf-8")) <= size
