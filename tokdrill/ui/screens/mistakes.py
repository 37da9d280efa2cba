"""Mistakes: every concept a hidden test caught, how often and when, on which drills, whether it
is fixed, and its one-line lesson; Enter opens the card that teaches it. The same log as
``tokdrill mistakes`` (computed in ``tokdrill.practice.mistakes``)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tokdrill.backend import Backend
from tokdrill.practice.mistakes import Mistake
from tokdrill.ui import keymap
from tokdrill.ui.formatting import plural
from tokdrill.ui.messages import OpenCard
from tokdrill.ui.text import printable
from tokdrill.ui.widgets.footer import FittingFooter

EMPTY = "No mistakes logged yet: every hidden test a submission fails is listed here with its lesson."


def mistake_text(mistake: Mistake, last_day: str) -> Table:
    """One concept of the log: its mark beside the concept and title; under them, indented (and
    kept so when they wrap), how often, when, where; the lesson; the card to review."""
    head = Text()
    head.append(printable(mistake.concept), style="bold")
    head.append(f" · {printable(mistake.title)}")
    body = Text()
    body.append(f"{plural(mistake.count, 'failure')} · last {last_day} · ", style="dim")
    body.append(printable(", ".join(mistake.drills)), style="cyan")
    body.append(
        " · fixed (passed since)" if mistake.fixed else " · not fixed yet", style="green" if mistake.fixed else "yellow"
    )
    if mistake.lesson:
        body.append(f"\n{printable(mistake.lesson)}")
    if mistake.card is not None:
        body.append("\nCard: ", style="dim")
        body.append(printable(mistake.card.question), style="italic")
        if mistake.card.key_point:
            body.append(f" ({printable(mistake.card.key_point)})", style="dim")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()
    mark = Text("✓", style="bold green") if mistake.fixed else Text("✗", style="bold red")
    grid.add_row(mark, head)
    grid.add_row("", body)
    return grid


class MistakesScreen(Screen[None]):
    """The mistake log; refreshed whenever it is shown."""

    BINDINGS = keymap.MISTAKES

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend
        self.mistakes: list[Mistake] = []

    def compose(self) -> ComposeResult:
        yield Static("[b]Mistakes[/b] · what hidden tests caught, newest first", id="mistakes-title")
        yield Static("", id="mistakes-summary")
        log = OptionList(id="mistakes")
        log.border_title = "Enter reviews the concept's card"
        yield log
        yield FittingFooter()

    def on_mount(self) -> None:
        self.refresh_log()

    def on_screen_resume(self) -> None:
        self.refresh_log()

    def refresh_log(self) -> None:
        """Re-read the log from the store."""
        self.mistakes = self.backend.mistakes()
        open_ones = sum(1 for m in self.mistakes if not m.fixed)
        summary = self.query_one("#mistakes-summary", Static)
        summary.update(
            f"{plural(len(self.mistakes), 'concept')} missed, {open_ones} not fixed yet · "
            "printable: tokdrill mistakes --markdown"
        )
        log = self.query_one("#mistakes", OptionList)
        log.clear_options()
        for mistake in self.mistakes:
            day = self.backend.local_day(mistake.last).isoformat()
            log.add_option(Option(mistake_text(mistake, day), id=mistake.concept))
        if not self.mistakes:
            log.add_option(Option(Text(EMPTY, style="dim"), disabled=True))
        log.highlighted = 0 if self.mistakes else None
        log.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        mistake = next((m for m in self.mistakes if m.concept == event.option.id), None)
        if mistake is None or mistake.card is None:
            self.notify("No card teaches this concept yet.", timeout=3)
            return
        self.post_message(OpenCard(mistake.card.card_id))

    def action_leave(self) -> None:
        self.app.pop_screen()
