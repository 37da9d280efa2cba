"""Live retype bookkeeping (pure functions)."""

from __future__ import annotations

from datetime import timedelta

from tokdrill.ui.formatting import interval_text, sparkline
from tokdrill.ui.retype import RetypeTracker, code_diff

REFERENCE = "def f(x):\n    if x:\n        return 1\n    return 0\n"


def test_correct_prefix_has_full_accuracy_and_no_divergence() -> None:
    tracker = RetypeTracker(REFERENCE)
    progress = tracker.update(["def f(x):", "    if"])
    assert progress.divergence is None
    assert progress.accuracy == 1.0
    assert 0 < progress.completion < 1


def test_first_divergence_names_line_column_and_characters() -> None:
    tracker = RetypeTracker(REFERENCE)
    progress = tracker.update(["def f(x):", "    iff x:", "        return 2"])
    d = progress.divergence
    assert d is not None and (d.line, d.column) == (1, 6)
    assert d.describe() == "line 2, col 7: expected a space, got 'f'"
    assert progress.accuracy < 1.0


def test_short_line_followed_by_more_lines_diverges_at_end_of_line() -> None:
    progress = RetypeTracker(REFERENCE).update(["def f(x)", "    if x:"])
    assert progress.divergence is not None
    assert progress.divergence.got == "end of line" and progress.divergence.expected == "':'"


def test_text_past_the_end_of_the_reference_diverges_but_trailing_blank_lines_do_not() -> None:
    lines = REFERENCE.rstrip("\n").split("\n")
    assert RetypeTracker(REFERENCE).update(lines + ["", ""]).divergence is None
    extra = RetypeTracker(REFERENCE).update(lines + ["print()"])
    assert extra.divergence is not None and extra.divergence.expected == "end of file"


def test_whole_reference_typed_is_complete() -> None:
    progress = RetypeTracker(REFERENCE).update(REFERENCE.split("\n"))
    assert progress.completion == 1.0 and progress.accuracy == 1.0


def test_code_diff_is_empty_for_identical_code_and_unified_otherwise() -> None:
    assert code_diff(REFERENCE, REFERENCE) == ""
    diff = code_diff(REFERENCE.replace("return 0", "return None"), REFERENCE)
    assert "-    return None" in diff and "+    return 0" in diff


def test_formatters() -> None:
    intervals = [timedelta(seconds=20), timedelta(minutes=10), timedelta(hours=5), timedelta(days=4)]
    intervals += [timedelta(days=63), timedelta(days=550)]
    assert [interval_text(i) for i in intervals] == ["1m", "10m", "5h", "4d", "2.1mo", "1.5y"]
    assert sparkline([]) == "" and len(sparkline([3, 1, 2])) == 3
    assert sparkline([1, 2])[0] == "▁" and sparkline([1, 2])[1] == "█"
