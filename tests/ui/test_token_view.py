"""The token view's layout: the first lines of a layout are the whole layout's first lines, a
view shown them takes the rest when it comes, and a late rest for other runs is ignored."""

from __future__ import annotations

from typing import ClassVar

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult

from tokdrill.ui.widgets.token_view import Run, TokenView, lay_out, wrap_runs

RUNS = st.lists(
    st.tuples(st.sampled_from(["a", "bc", "def·", "日本", "\n", "x" * 30, "🙂", "é"]), st.integers(0, 1)),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(runs=RUNS, width=st.integers(1, 20), lines=st.integers(1, 8))
def test_the_first_lines_are_the_whole_layouts_first_lines(runs: list[Run], width: int, lines: int) -> None:
    whole = wrap_runs(runs, width)
    first = lay_out(runs, width, lines)
    assert first.lines == whole[:lines]
    assert first.complete == (len(whole) < lines)
    assert lay_out(runs, width).lines == whole
    assert lay_out(runs, width).complete


class One(App[None]):
    CSS: ClassVar[str] = "TokenView { width: 12; height: 3; }"

    def compose(self) -> ComposeResult:
        yield TokenView()


async def test_a_view_shows_the_first_lines_then_takes_the_rest() -> None:
    runs: tuple[Run, ...] = tuple((f"t{i:02}", i % 2) for i in range(40))
    async with One().run_test() as pilot:
        view = pilot.app.query_one(TokenView)
        width = view.wrap_width
        view.show(runs, lay_out(runs, width, 3))
        assert view.line_count == 3
        assert view.virtual_size.height == 3
        view.complete(list(runs), lay_out(runs, width))  # equal runs, but not the ones shown
        assert view.line_count == 3
        view.complete(runs, lay_out(runs, width + 1))  # laid out for another width
        assert view.line_count == 3
        whole = lay_out(runs, width)
        view.complete(runs, whole)
        assert view.line_count == len(whole.lines) > 3
        assert view.virtual_size.height == len(whole.lines)
        assert "".join(view.plain_lines()) == "".join(text for text, _ in runs)


async def test_a_layout_for_another_width_is_laid_out_again_in_the_view() -> None:
    runs: tuple[Run, ...] = tuple((f"t{i:02}", i % 2) for i in range(40))
    async with One().run_test() as pilot:
        view = pilot.app.query_one(TokenView)
        view.show(runs, lay_out(runs, view.wrap_width + 5, 3))
        assert view.plain_lines() == ["".join(t for t, _ in line) for line in wrap_runs(runs, view.wrap_width)]
