"""Every screen and dialog fits an 80x24 terminal: footers show whole keys only (the rest are in
F1 and the palette) and dialogs show whole, borders and every choice included."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey
from ui_helpers import SMALL, screen_lines, start_drill, submit

from tokdrill.backend import Backend
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.widgets.footer import FittingFooter

DRILL = "bytes-to-unicode"


async def drill(app: TokdrillApp, pilot: Pilot[None], mode: str, *keys: str) -> None:
    await start_drill(app, pilot, DRILL, mode)  # type: ignore[arg-type]
    await pilot.press(*keys)


async def failed_retype(app: TokdrillApp, pilot: Pilot[None]) -> None:
    await drill(app, pilot, "retype", *"def bytes_to_unicode(): return {}")
    await submit(app, pilot)


STEPS: dict[str, Callable[[TokdrillApp, Pilot[None]], Awaitable[None]]] = {
    "today": lambda app, pilot: pilot.pause(),
    "mode choice": lambda app, pilot: pilot.press("enter"),
    "drill retype": lambda app, pilot: drill(app, pilot, "retype"),
    "drill recall": lambda app, pilot: drill(app, pilot, "recall"),
    "drill failed": failed_retype,
    "give up": lambda app, pilot: drill(app, pilot, "retype", "x", "f9"),
    "review": lambda app, pilot: pilot.press("f5", "space"),
    "review typed": lambda app, pilot: pilot.press("f5", "t"),
    "stats": lambda app, pilot: pilot.press("f4"),
    "browse": lambda app, pilot: pilot.press("f3"),
    "help": lambda app, pilot: pilot.press("f1"),
    "settings": lambda app, pilot: pilot.press("s"),
}


@pytest.mark.parametrize("name", list(STEPS))
async def test_the_footer_shows_whole_keys_that_fit(app: TokdrillApp, name: str) -> None:
    async with app.run_test(size=SMALL) as pilot:
        await STEPS[name](app, pilot)
        await pilot.pause()
        footer = app.screen.query_one(FittingFooter)
        keys = list(footer.query(FooterKey))
        assert keys
        width = app.size.width
        for key in keys:
            assert key.region.right <= width, f"{key.key_display} {key.description} is cut at {width} columns"
        bottom = screen_lines(app)[-1]
        for key in keys:
            assert key.description in bottom


async def test_the_restore_dialog_shows_whole_at_80x24(app: TokdrillApp, backend: Backend) -> None:
    text = backend.reference(backend.library.drill(DRILL))
    backend.save_draft(DRILL, "recall", text, 200.0)
    async with app.run_test(size=SMALL) as pilot:
        app.start_drill(DRILL, "recall")
        await pilot.pause()
        lines = screen_lines(app)
        top = next(i for i, line in enumerate(lines) if line.strip().startswith("╭"))
        bottom = next(i for i, line in enumerate(lines) if line.strip().startswith("╰"))
        inside = "\n".join(lines[top:bottom])
        assert "Unfinished recall draft found" in inside and "more lines" in inside
        assert "y restore it and keep its time" in inside and "n start fresh" in inside
        assert all(line.rstrip().endswith("│") for line in lines[top + 1 : bottom]), "cut on the right"


async def test_the_footer_refits_when_the_terminal_is_resized(app: TokdrillApp) -> None:
    def shown() -> list[FooterKey]:
        return list(app.screen.query_one(FittingFooter).query(FooterKey))

    async with app.run_test(size=(200, 50)) as pilot:
        await drill(app, pilot, "retype")
        await pilot.pause()
        wide = len(shown())
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        await pilot.pause()
        assert len(shown()) < wide
        assert all(key.region.right <= SMALL[0] for key in shown())
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        await pilot.pause()
        assert len(shown()) == wide
