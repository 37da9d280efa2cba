"""Small modal dialogs: pick a drill mode, restore a draft, give up, yes/no questions, the
interview date, problems. Each fits an 80x24 terminal whole."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from tokdrill.clock import clock_text
from tokdrill.content.model import Drill
from tokdrill.progress.records import Draft, Mode
from tokdrill.ui import keymap
from tokdrill.ui.text import markup, plain
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.in_order import InOrderInput


class ModeChoice(ModalScreen[Mode | None]):
    """Retype (reference beside the editor) or recall (prompt and starter only)."""

    BINDINGS = keymap.MODE_CHOICE

    def __init__(self, drill: Drill) -> None:
        super().__init__()
        self.drill = drill

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                markup(
                    "[b]$title[/b]  ·  target $target",
                    title=self.drill.title,
                    target=clock_text(self.drill.target_seconds),
                )
            )
            yield Static(
                "[b]r[/b]  Retype: copy the reference code beside the editor; accuracy is tracked live.\n"
                "[b]m[/b]  From memory: write it from the prompt and the starter signatures.",
                classes="choices",
            )
        yield FittingFooter()

    def action_choose(self, mode: str) -> None:
        self.dismiss("retype" if mode == "retype" else "recall")

    def action_cancel(self) -> None:
        self.dismiss(None)


class RestoreDraft(ModalScreen[bool]):
    """Offer the autosaved draft of an unfinished drill (after a crash or leaving early)."""

    BINDINGS = keymap.RESTORE
    PREVIEW_LINES = 6

    def __init__(self, draft: Draft) -> None:
        super().__init__()
        self.draft = draft

    def compose(self) -> ComposeResult:
        lines = self.draft.text.splitlines()
        shown = lines[: self.PREVIEW_LINES]
        more = len(lines) - len(shown)
        preview = "\n".join(shown) + (f"\n… and {more} more line{'s' if more != 1 else ''}" if more > 0 else "")
        saved = self.draft.saved_at.strftime("%Y-%m-%d %H:%M UTC")
        with Vertical(classes="dialog"):
            yield Label(markup("[b]Unfinished $mode draft found[/b]", mode=self.draft.mode))
            yield Static(
                f"saved {saved} · {len(lines)} lines · {clock_text(self.draft.elapsed_seconds)} on the clock",
                classes="dim",
            )
            yield Static(plain(preview), classes="preview")
            yield Static("[b]y[/b] restore it and keep its time\n[b]n[/b] start fresh (the draft is discarded)")
        yield FittingFooter()

    def action_restore(self) -> None:
        self.dismiss(True)

    def action_discard(self) -> None:
        self.dismiss(False)


class GiveUp(ModalScreen[bool | None]):
    """Confirm giving up a drill: True keeps the code as a draft, False discards it, None cancels."""

    BINDINGS = keymap.GIVE_UP

    def __init__(self, title: str) -> None:
        super().__init__()
        self.drill_title = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(markup("[b]Give up on $title?[/b]", title=self.drill_title))
            yield Static(
                "It is recorded as a failed attempt, so the drill comes back soon.\n\n"
                "[b]y[/b] give up and keep my code as a draft\n"
                "[b]d[/b] give up and discard my code\n"
                "[b]n[/b] / Esc  keep working",
                classes="choices",
            )
        yield FittingFooter()

    def action_give_up(self, keep_draft: bool) -> None:
        self.dismiss(keep_draft)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Confirm(ModalScreen[bool]):
    """A yes/no question: y answers True, n or Esc False."""

    BINDINGS = keymap.CONFIRM

    def __init__(self, title: str, question: str | Content) -> None:
        super().__init__()
        self.question_title = title
        self.question = plain(question) if isinstance(question, str) else question  # a str is shown as text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self.question_title, "bold"))
            yield Static(self.question, classes="choices")
            yield Static("[b]y[/b] yes   [b]n[/b] / Esc  no", classes="choices")
        yield FittingFooter()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def interview_date_problem(day: date, today: date) -> str | None:
    """Why ``day`` cannot be the interview date when it is ``today`` (None when it can)."""
    if day < today:
        return f"{day.isoformat()} has passed: pick today ({today.isoformat()}) or a later day"
    return None


def example_date(today: date) -> str:
    """A date to show as an example: four weeks from ``today``."""
    return (today + timedelta(days=28)).isoformat()


class InterviewDate(ModalScreen[date | None]):
    """Ask for the interview date (YYYY-MM-DD, today or later); empty clears it."""

    BINDINGS = keymap.CLOSE

    def __init__(self, current: date | None, today: date) -> None:
        super().__init__()
        self.current = current
        self.today = today

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("[b]Interview date[/b] (YYYY-MM-DD, empty to clear, Enter to save)")
            yield InOrderInput(
                value=self.current.isoformat() if self.current else "",
                placeholder=example_date(self.today),
                id="date",
            )
            yield Static("", id="date-error", classes="error")
        yield FittingFooter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.dismiss(None)
            return
        error = self.query_one("#date-error", Static)
        try:
            day = datetime.strptime(text, "%Y-%m-%d").date()
        except ValueError:
            error.update(plain(f"{text!r} is not a date like {example_date(self.today)}"))
            return
        problem = interview_date_problem(day, self.today)
        if problem is not None:
            error.update(problem)
            return
        self.dismiss(day)

    def action_close(self) -> None:
        self.dismiss(self.current)


class Problems(ModalScreen[None]):
    """Every content or database problem found at start-up, one per line."""

    BINDINGS = keymap.CLOSE

    def __init__(self, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(f"[b]{len(self.problems)} problem(s) found[/b]: the app uses everything else.")
            with VerticalScroll():
                yield Static(plain("\n".join(self.problems)))
        yield FittingFooter()

    def action_close(self) -> None:
        self.dismiss(None)
