"""Typing figures as typing trainers count them: WPM from correct characters over active time,
accuracy that remembers corrected errors, and the tokens that cost the most."""

from __future__ import annotations

import pytest
from ui_helpers import SIZE, start_drill, submit

from tokdrill.clock import FixedClock
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.retype import RetypeTracker
from tokdrill.ui.typing_meter import TypingMeter, token_at, words_per_minute

REFERENCE = "def f(x):\n    return x + 1\n"


def test_wpm_is_characters_over_five_per_minute() -> None:
    assert words_per_minute(300, 60.0) == 60.0
    assert words_per_minute(150, 30.0) == 60.0
    assert words_per_minute(100, 0.5) == 0.0  # not measured before a second has passed


def test_line_breaks_count_as_characters() -> None:
    progress = RetypeTracker(REFERENCE).update(["def f(x):", "    return x + 1"])
    assert progress.correct_characters == len("def f(x):") + 1 + len("    return x + 1")
    assert RetypeTracker(REFERENCE).update(["def f(x):", ""]).correct_line_breaks == 1
    assert RetypeTracker(REFERENCE).update(["def f(y):", ""]).correct_line_breaks == 0


def test_a_corrected_error_still_counts_against_accuracy() -> None:
    meter = TypingMeter(REFERENCE)
    for column, character in enumerate("def"):
        assert meter.key(character, 0, column)
    assert not meter.key("g", 0, 3)  # wrong: a space is expected
    assert meter.key(" ", 0, 3)  # after Backspace, the right key
    figures = meter.figures(correct_characters=4, remaining_errors=0, seconds=60.0)
    assert figures.keystrokes == 5 and figures.errors == 1 and figures.corrected_errors == 1
    assert figures.accuracy == pytest.approx(4 / 5)
    assert figures.wpm == pytest.approx(4 / 5)


def test_a_line_break_is_right_only_at_the_end_of_the_line() -> None:
    meter = TypingMeter(REFERENCE)
    assert not meter.key("\n", 0, 4)
    assert meter.key("\n", 0, len("def f(x):"))
    assert meter.key("    ", 1, 0)  # a Tab's four spaces, one key
    assert not meter.key("x", 5, 0)  # past the end of the text


def test_costly_keys_name_the_reference_tokens_most_missed_first() -> None:
    meter = TypingMeter(REFERENCE)
    meter.key("[", 0, 5)  # ( expected
    meter.key("]", 0, 7)  # ): expected
    meter.key("X", 0, 6)  # x expected
    meter.key("r", 1, 0)  # indentation expected
    meter.key("{", 0, 5)
    costly = meter.figures(0, 0, 10.0).costly_keys
    assert costly[0] == ("(", 2)
    assert {key for key, _ in costly} == {"(", "):", "x", "indentation"}
    assert token_at("    return x", 10) == "space"
    assert token_at("ab", 5) == "line end"
    assert token_at("counts[left, right] += freq", 8) == "left"


def test_typing_figures_describe_themselves() -> None:
    meter = TypingMeter(REFERENCE)
    meter.key("[", 0, 5)
    text = meter.figures(correct_characters=250, remaining_errors=1, seconds=60.0).describe()
    assert text.startswith("50 wpm · accuracy 0.0% (0 corrected)") and "costliest: `(` ×1" in text


async def test_the_drill_counts_keys_live_and_reports_the_costliest(app: TokdrillApp, clock: FixedClock) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "retype")
        first_line = screen.reference.split("\n")[0]
        wrong = first_line[:4] + "X"
        await pilot.press(*wrong, "backspace", first_line[4])
        clock.advance(seconds=12)
        screen._tick_status()
        status = str(screen.status.render())
        assert "wpm" in status and "accuracy 83%" in status  # 5 right keys of 6
        figures = screen.typing_figures()
        assert figures is not None and figures.corrected_errors == 1
        assert figures.wpm == pytest.approx(5 / 5 / (12 / 60))
        screen.editor.load_text(screen.reference)
        await pilot.pause()
        await submit(app, pilot)
        summary = screen.results.text_of("summary")
        assert "Typing:" in summary and "wpm" in summary and "costliest: `" in summary
