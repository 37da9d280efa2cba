"""KeptStatic shows what a Static shows, wraps its content once per content and width, draws only
the lines shown, and draws nothing again when only its text opacity changes (the results greyed
while grading)."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import Static
from ui_helpers import screen_lines

from tokdrill.ui.widgets.kept_static import KeptStatic

CSS = """
VerticalScroll { height: 12; scrollbar-gutter: stable; }
VerticalScroll > Static { width: 1fr; }
VerticalScroll.-grey > KeptStatic { text-opacity: 50%; }
"""


def long_text() -> Text:
    text = Text()
    for i in range(60):
        text.append(f"line {i}: ", style="bold red" if i % 3 == 0 else "")
        text.append("a fairly long message that wraps at narrow widths " * (1 + i % 2) + "\n")
    return text


class Pair(App[None]):
    CSS = CSS

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="kept-box"):
            yield KeptStatic(id="kept")
        with VerticalScroll(id="plain-box"):
            yield Static(id="plain")

    def show(self, text: Text) -> None:
        self.query_one("#kept", KeptStatic).update(text)
        self.query_one("#plain", Static).update(text)


def box_lines(app: App[None], box: str) -> list[str]:
    """The box's rows as the terminal shows them."""
    region = app.query_one(box).region
    return screen_lines(app)[region.y : region.bottom]


async def test_it_shows_what_a_static_shows_and_scrolls_the_same() -> None:
    app = Pair()
    async with app.run_test(size=(50, 30)) as pilot:
        app.show(long_text())
        await pilot.pause()
        kept, plain = app.query_one("#kept", KeptStatic), app.query_one("#plain", Static)
        assert kept.size == plain.size and kept.size.height > 60  # wrapped alike
        assert box_lines(app, "#kept-box") == box_lines(app, "#plain-box")
        for box in ("#kept-box", "#plain-box"):
            app.query_one(box, VerticalScroll).scroll_to(y=40, animate=False)
        await pilot.pause()
        assert box_lines(app, "#kept-box") == box_lines(app, "#plain-box")
        assert any("line 20" in line for line in box_lines(app, "#kept-box"))


async def shown(app: Pair, pilot: Pilot[None]) -> KeptStatic:
    """The kept widget, once the long text is shown in it."""
    app.show(long_text())
    await pilot.pause()
    return app.query_one("#kept", KeptStatic)


async def test_it_wraps_once_per_content_and_width_and_draws_only_lines_shown() -> None:
    app = Pair()
    async with app.run_test(size=(50, 30)) as pilot:
        kept = await shown(app, pilot)
        drawn = kept.wraps
        box_height = app.query_one("#kept-box").size.height
        assert kept.size.height > 3 * box_height and kept.lines_drawn <= box_height + 1
        box = app.query_one("#kept-box", VerticalScroll)
        for y in (10, 30, 0):  # scrolling and refreshing redraw nothing
            box.scroll_to(y=y, animate=False)
            kept.refresh()
            await pilot.pause()
        assert kept.wraps == drawn
        assert kept.lines_drawn <= 3 * box_height  # three views of the box: each line drawn once
        box.add_class("-grey")  # greyed: the kept lines are dimmed, not drawn again
        await pilot.pause()
        assert kept.wraps == drawn
        assert kept.render_line(0).text.startswith("line 0")
        box.remove_class("-grey")
        await pilot.pause()
        app.show(long_text())  # new content: drawn again
        await pilot.pause()
        assert kept.wraps == drawn + 1
        await pilot.resize_terminal(40, 30)  # a new width: drawn again, at that width
        await pilot.pause()
        assert kept.wraps == drawn + 2
        assert all(len(kept.render_line(y).text) == kept.size.width for y in range(5))


async def test_a_new_theme_draws_it_again() -> None:
    app = Pair()
    async with app.run_test(size=(50, 30)) as pilot:
        kept = await shown(app, pilot)
        drawn = kept.wraps
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        assert kept.wraps > drawn


class Growing(App[None]):
    """A scrolling box whose height follows its content up to a limit, as the results panel's."""

    CSS = "VerticalScroll { height: auto; max-height: 12; scrollbar-gutter: stable; }"

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="kept-box"):
            yield KeptStatic(id="kept")


async def test_in_a_box_as_tall_as_its_content_each_width_is_wrapped_once() -> None:
    """Such a box measures its content at two widths on every layout pass (with and without
    the scroll bar's room): both wraps are kept, so a layout pass later wraps nothing."""
    app = Growing()
    async with app.run_test(size=(50, 30)) as pilot:
        kept = app.query_one("#kept", KeptStatic)
        before = kept.wraps
        kept.update(long_text())
        await pilot.pause()
        wraps = kept.wraps
        assert kept.size.height > 60 and wraps - before == 2
        for _ in range(3):
            app.query_one("#kept-box").refresh(layout=True)
            await pilot.pause()
        assert kept.wraps == wraps


def count_frames(app: App[None]) -> list[int]:
    """A list that grows by one for every frame the app paints."""
    frames: list[int] = []
    display = app._display

    def counted(screen: object, renderable: object) -> None:
        display(screen, renderable)  # type: ignore[arg-type]
        if renderable is not None:
            frames.append(len(frames))

    app._display = counted  # type: ignore[method-assign]
    return frames


async def test_after_paint_runs_once_the_new_content_is_on_screen() -> None:
    app = Pair()
    async with app.run_test(size=(50, 30)) as pilot:
        kept = await shown(app, pilot)
        frames = count_frames(app)
        seen: list[tuple[int, str]] = []
        kept.update(Text("the verdict"))
        kept.after_paint(lambda: seen.append((len(frames), box_lines(app, "#kept-box")[0].strip())))
        assert not seen  # not before the frame
        for _ in range(100):
            await pilot.pause(0.01)
            if seen:
                break
        assert seen and seen[0][0] >= 1 and seen[0][1] == "the verdict", seen


async def test_after_paint_runs_anyway_when_nothing_draws_the_widget() -> None:
    app = Pair()
    async with app.run_test(size=(50, 30)) as pilot:
        kept = await shown(app, pilot)
        app.query_one("#kept-box").display = False
        await pilot.pause()
        seen: list[bool] = []
        kept.update(Text("hidden"))
        kept.after_paint(lambda: seen.append(True))
        for _ in range(300):
            await pilot.pause(0.01)
            if seen:
                break
        assert seen == [True]
