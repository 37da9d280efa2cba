"""Small modal dialogs: pick a drill mode, restore a draft, set the interview date, problems."""

from __future__ import annotations

from datetime import date, datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static

from tokdrill.content.model import Drill
from tokdrill.progress.records import Draft
from tokdrill.ui import keymap
from tokdrill.ui.formatting import clock_text


class ModeChoice(ModalScreen[str | None]):
    """Retype (reference beside the editor) or recall (prompt and starter only)."""

    BINDINGS = keymap.MODE_CHOICE

    def __init__(self, drill: Drill) -> None:
        super().__init__()
        self.drill = drill

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"[b]{self.drill.title}[/b]  ·  target {clock_text(self.drill.target_seconds)}")
            yield Static(
                "[b]r[/b]  Retype: copy the reference code beside the editor; accuracy is tracked live.\n"
                "[b]m[/b]  From memory: write it from the prompt and the starter signatures.",
                classes="choices",
            )
        yield Footer()

    def action_choose(self, mode: str) -> None:
        self.dismiss(mode)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RestoreDraft(ModalScreen[bool]):
    """Offer the autosaved draft of an unfinished drill (after a crash or leaving early)."""

    BINDINGS = keymap.RESTORE

    def __init__(self, draft: Draft) -> None:
        super().__init__()
        self.draft = draft

    def compose(self) -> ComposeResult:
        lines = self.draft.text.splitlines()
        preview = "\n".join(lines[:8]) + ("\n…" if len(lines) > 8 else "")
        saved = self.draft.saved_at.strftime("%Y-%m-%d %H:%M UTC")
        with Vertical(classes="dialog"):
            yield Label(
                f"[b]Unfinished {self.draft.mode} draft found[/b] (saved {saved}, "
                f"{len(lines)} lines, {clock_text(self.draft.elapsed_seconds)} on the clock)"
            )
            yield Static(Text(preview), classes="preview")
            yield Static("[b]y[/b] restore it and keep its time   [b]n[/b] start fresh (the draft is discarded)")
        yield Footer()

    def action_restore(self) -> None:
        self.dismiss(True)

    def action_discard(self) -> None:
        self.dismiss(False)


class InterviewDate(ModalScreen[date | None]):
    """Ask for the interview date (YYYY-MM-DD); empty clears it."""

    BINDINGS = keymap.CLOSE

    def __init__(self, current: date | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("[b]Interview date[/b] (YYYY-MM-DD, empty to clear, Enter to save)")
            yield Input(value=self.current.isoformat() if self.current else "", placeholder="2026-03-01", id="date")
            yield Static("", id="date-error", classes="error")
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.dismiss(None)
            return
        try:
            self.dismiss(datetime.strptime(text, "%Y-%m-%d").date())
        except ValueError:
            self.query_one("#date-error", Static).update(f"{text!r} is not a date like 2026-03-01")

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
                yield Static(Text("\n".join(self.problems)))
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
