"""Text from outside the package is shown as text on every screen and dialog, at 80x24.

A content folder holds a drill, a deck, a concept and a broken file whose every text field (and
the broken file's name) carries Textual markup, a click action and, where the format lets it,
an escape sequence; an Anki export with the same is imported; a submission prints the same and
fails with it. Every screen and dialog is opened, the shown hostile text is clicked, and the test
asserts that the app is still running, no action ran from a click, no file was written, the
markup is shown literally and no escape character reaches the terminal.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from factories import record_retype_pass
from hostile import (
    ACTION,
    CARD,
    CONCEPT,
    DRILL,
    ESCAPE,
    MARKUP,
    SUBMISSION,
    TITLE,
    write_anki_export,
    write_hostile_content,
)
from textual import events
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.widgets import Input, TextArea
from ui_helpers import SMALL, drawn, screen_lines, screen_text, submit

from tokdrill.backend import Backend
from tokdrill.cli import main as cli_main
from tokdrill.clock import FixedClock
from tokdrill.grading.verdict import TestResult, Verdict
from tokdrill.practice.mock import MockPlan
from tokdrill.progress.records import Mode
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.messages import OpenCard, OpenDrill
from tokdrill.ui.screens.drill import DrillScreen


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder that is also the home folder, so that a file any action writes
    in either is seen."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    return folder


@pytest.fixture
def hostile(
    home: Path, tmp_path: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch, cwd: Path
) -> Iterator[Backend]:
    """The backend over the hostile content, the Anki import and some history of the hostile drill
    (a retype pass with typing figures, a failed attempt whose tests fail the hostile concept)."""
    content = tmp_path / "content"
    write_hostile_content(content)
    monkeypatch.setenv("TOKDRILL_CONTENT", str(content))
    export = tmp_path / "anki.txt"
    write_anki_export(export)
    assert cli_main(["import-anki", str(export), "--deck", "anki-hostile", "--title", TITLE]) == 0
    backend = Backend.open(clock=clock)
    drill = backend.library.drill(DRILL)
    record_retype_pass(backend, clock, 300.0, drill_id=DRILL, wpm=40.0, accuracy=0.9, costly_keys=((ACTION, 2),))
    failed = Verdict(
        DRILL,
        False,
        (TestResult("test_bytes_to_unicode.py::test_table", "failed", MARKUP + ESCAPE, (CONCEPT,)),),
        0.05,
        output=MARKUP + ESCAPE,
    )
    backend.record_attempt(
        drill,
        "recall",
        started_at=clock.now(),
        active_seconds=200.0,
        verdict=failed,
        submissions=1,
        keystrokes=None,
        retype_accuracy=None,
    )
    backend.record_grade(drill, failed, SUBMISSION)
    backend.save_draft(DRILL, "recall", SUBMISSION, 30.0)
    backend.store  # noqa: B018 - every queued write applied before the app starts
    yield backend
    backend.close()


async def open_drill(app: TokdrillApp, pilot: Pilot[None], *keys: str) -> None:
    app.post_message(OpenDrill(DRILL, "recall"))
    await drawn(pilot)
    await pilot.press(*keys)  # the restore dialog first: y or n
    await drawn(pilot)


async def failed_submission(app: TokdrillApp, pilot: Pilot[None]) -> None:
    await open_drill(app, pilot, "n")  # start fresh, not from the draft
    screen = app.screen
    assert isinstance(screen, DrillScreen)
    screen.editor.load_text(SUBMISSION)
    await pilot.pause()
    await submit(app, pilot)
    assert screen.last_verdict is not None


async def other_drill(app: TokdrillApp, pilot: Pilot[None]) -> None:
    await open_drill(app, pilot, "y")
    app.screen.query_one(TextArea).insert("x")
    await pilot.pause()
    app.post_message(OpenDrill("bytes-to-unicode", "recall"))
    await drawn(pilot)


async def give_up_toast(app: TokdrillApp, pilot: Pilot[None]) -> None:
    await open_drill(app, pilot, "y", "f9", "y")


async def card(app: TokdrillApp, pilot: Pilot[None], *keys: str) -> None:
    app.post_message(OpenCard(CARD))
    await drawn(pilot)
    await pilot.press(*keys)
    await drawn(pilot)


async def typed_answer(app: TokdrillApp, pilot: Pilot[None]) -> None:
    await card(app, pilot, "t")
    app.screen.query_one("#typed-answer", TextArea).load_text("nothing that matches")
    await pilot.press("ctrl+s")
    await drawn(pilot)


async def browse(app: TokdrillApp, pilot: Pilot[None], query: str) -> None:
    await pilot.press("f3")
    await drawn(pilot)
    app.screen.query_one("#search", Input).value = query
    await drawn(pilot)


async def interview_date(app: TokdrillApp, pilot: Pilot[None]) -> None:
    await pilot.press("i")
    await drawn(pilot)
    app.screen.query_one(Input).value = MARKUP
    await pilot.press("enter")
    await drawn(pilot)


async def palette(app: TokdrillApp, pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+p")
    await drawn(pilot)
    await pilot.press(*"click")
    for _ in range(300):  # the palette gathers its hits in a worker: up to 30 s on a loaded machine
        await drawn(pilot)
        if ACTION in screen_text(app):
            break
        await pilot.pause(0.1)


async def mock(app: TokdrillApp, pilot: Pilot[None], *keys: str) -> None:
    """A mock round of the hostile drill and card (the planner would pick by what is due)."""
    from tokdrill.ui.screens.mock import MockScreen

    plan = MockPlan(DRILL, (CARD,), (0,), 45 * 60)
    await app.push_screen(MockScreen(app.backend, plan))
    await drawn(pilot)
    await pilot.press(*keys)
    await drawn(pilot)


async def opened(app: TokdrillApp, pilot: Pilot[None], drill_mode: Mode | None = None) -> None:
    app.post_message(OpenDrill(DRILL, drill_mode))
    await drawn(pilot)


async def press(app: TokdrillApp, pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await drawn(pilot)


Step = Callable[[TokdrillApp, Pilot[None]], Awaitable[None]]
STEPS: dict[str, tuple[Step, str]] = {  # each step and hostile text it must show literally (on one line)
    "today": (lambda app, pilot: drawn(pilot), ACTION),
    "mode choice": (opened, TITLE),
    "restore draft": (lambda app, pilot: opened(app, pilot, "recall"), MARKUP),
    "drill": (lambda app, pilot: open_drill(app, pilot, "y"), "https://example.org/" + ACTION),
    "drill failed": (failed_submission, MARKUP + "\\x1b[31m raised"),
    "give up": (lambda app, pilot: open_drill(app, pilot, "y", "f9"), "Give up on " + MARKUP),
    "give up toast": (give_up_toast, "▌ " + MARKUP),
    "another drill": (other_drill, ACTION),
    "card": (card, MARKUP + " question?"),
    "card answer": (lambda app, pilot: card(app, pilot, "space"), MARKUP + " answer"),
    "card typed": (typed_answer, MARKUP),
    "playground": (lambda app, pilot: card(app, pilot, "p"), "See it: " + MARKUP),
    "anki card": (lambda app, pilot: browse(app, pilot, "anki front"), MARKUP + " [31m anki front"),
    "browse": (lambda app, pilot: browse(app, pilot, "byte table"), MARKUP),
    "stats": (lambda app, pilot: press(app, pilot, "f4"), ACTION),
    "charts": (lambda app, pilot: press(app, pilot, "f4", "c"), ACTION),
    "mistakes": (lambda app, pilot: press(app, pilot, "m"), MARKUP + " concept"),
    "mock": (mock, MARKUP + " Byte"),
    "mock question": (lambda app, pilot: mock(app, pilot, "ctrl+s", "escape"), MARKUP + " question?"),
    "mock scorecard": (lambda app, pilot: mock(app, pilot, "ctrl+s", "escape", "f9"), MARKUP + " Byte"),
    "problems": (lambda app, pilot: press(app, pilot, "e"), "\\x1b[31m.yaml:2: yaml:"),
    "interview date": (interview_date, repr(MARKUP)),
    "palette": (palette, ACTION),
    "help": (lambda app, pilot: press(app, pilot, "f1"), "Readiness"),
    "settings": (lambda app, pilot: press(app, pilot, "s"), "Settings"),
}


@pytest.mark.parametrize("name", list(STEPS))
async def test_outside_text_is_shown_literally_and_clicking_it_runs_nothing(
    hostile: Backend, cwd: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    step, expected = STEPS[name]
    app = TokdrillApp(hostile, cursor_blink=False)
    clicked_actions: list[object] = []
    opened: list[str] = []
    monkeypatch.setattr(app, "open_url", lambda url, **_kw: opened.append(url))
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await step(app, pilot)
        shown = screen_text(app)
        assert "\x1b" not in app.export_screenshot(), "an escape character reached the terminal"
        assert expected in shown.replace("\n", " "), f"{expected!r} is not shown literally on:\n{shown}"
        assert "Byte table" not in shown or ACTION in shown, f"markup was obeyed on:\n{shown}"

        async def recording(event_name: str, event: events.Event, default_namespace: DOMNode) -> bool:
            """Textual's own route from a click on styled text to an action, recorded."""
            ran = await broker(event_name, event, default_namespace)
            style = getattr(event, "style", None)
            meta = getattr(style, "meta", None) or {}
            # Markup's actions travel as "@click"; a scroll bar's own "@mouse.down" is Textual's widget.
            if ran and "@click" in meta:
                clicked_actions.append(style)
            return ran

        broker = app._broker_event
        monkeypatch.setattr(app, "_broker_event", recording)
        screen = app.screen
        for row, line in enumerate(screen_lines(app)):
            column = line.find(ACTION)
            if column < 0 or app.screen is not screen:
                continue
            for offset in (1, len(ACTION) // 2, len(ACTION) - 2):  # the @, the action's name, its end
                await pilot.click(offset=(column + offset, row))
                await pilot.pause()
                assert app.is_running and app.return_code is None, f"a click on row {row} ended the app"
                if app.screen is not screen:
                    break
        assert not clicked_actions, f"clicking shown text ran {clicked_actions}"
        assert all(url.startswith("https://") for url in opened), opened
    assert [p for p in cwd.rglob("*") if not p.is_dir()] == [], "an action wrote a file"


def test_the_package_builds_no_actions_or_markup_from_text() -> None:
    """The one rendering rule holds in the source: no click action is written into text, and
    Textual's markup parsers are reached only through tokdrill/ui/text.py."""
    import tokdrill.ui

    root = Path(tokdrill.ui.__file__).parent
    needles = ("@click", "from_markup(", "matcher.highlight(", "markup=True", "Text.from_ansi(")
    sources = {path: path.read_text(encoding="utf-8") for path in root.rglob("*.py") if path != root / "text.py"}
    offenders = [f"{path.relative_to(root)}: {n}" for path, source in sources.items() for n in needles if n in source]
    assert offenders == []
