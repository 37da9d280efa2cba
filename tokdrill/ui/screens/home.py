"""Today: what is due, the interview countdown and readiness, the streak, and the next item."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tokdrill.backend import Backend, Today
from tokdrill.ui import keymap
from tokdrill.ui.formatting import percent, plural
from tokdrill.ui.messages import ContentChanged, OpenCard, OpenDrill
from tokdrill.ui.text import printable
from tokdrill.ui.today_text import QueueLine, queue_lines
from tokdrill.ui.widgets.footer import FittingFooter

WELCOME = (
    "New here? tokdrill times you writing tokenizer code against hidden tests and quizzes you with "
    "spaced-repetition cards; press Enter to start with your first drill, {title}."
)


READINESS_SHORT = "Readiness is what you would recall on the interview morning; F1 explains it."
TALL = 30
"""Rows from which Today has room for readiness's whole explanation (F1 always shows it)."""


def readiness_text(explanation: str, *, tall: bool = True) -> Text:
    """What the readiness figure means and what raises it; on a short screen one line that says
    where the whole explanation is, so that Up next keeps its rows."""
    if tall:
        return Text(printable(explanation), style="dim")
    return Text(READINESS_SHORT, style="dim", no_wrap=True, overflow="ellipsis")


def weakest_text(today: Today) -> Text:
    """The weakest items, one line each (each cut with an ellipsis when it is too long)."""
    out = Text(no_wrap=True, overflow="ellipsis")
    label = "Weakest now: "
    for number, item in enumerate(today.weakest[:3]):
        out.append("\n" + " " * len(label) if number else label, style="bold")
        out.append(printable(item))
    return out


def queue_label(icon: str, title: str, detail: str) -> Text:
    """One Up next row: kept to one line (cut with an ellipsis), so that every item has a row."""
    label = Text(no_wrap=True, overflow="ellipsis")
    label.append(f"{icon} ", style="bold")
    label.append(printable(title))
    label.append(f"   {printable(detail)}", style="dim")
    return label


class HomeScreen(Screen[None]):
    """The landing screen; refreshed every time it is shown again."""

    BINDINGS = keymap.HOME

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend
        self.today: Today | None = None
        self.lines: tuple[QueueLine, ...] = ()
        self._just_mounted = False

    def compose(self) -> ComposeResult:
        yield Static("[b]tokdrill[/b] · Today", id="home-title")
        yield Static("", id="welcome")
        with Horizontal(id="home-panels"):
            for panel_id, title in (("due", "Due now"), ("interview", "Interview"), ("streak", "Streak")):
                panel = Static("", id=panel_id, classes="panel")
                panel.border_title = title
                yield panel
        yield Static("", id="readiness")
        yield Static("", id="weakest")
        queue = OptionList(id="queue")
        queue.border_title = "Up next · Enter starts the highlighted item, n the first"
        yield queue
        yield Static("", id="problems-line")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.refresh_today()
        self._just_mounted = True

    def on_screen_resume(self) -> None:
        if self._just_mounted:  # shown for the first time: on_mount has just read everything
            self._just_mounted = False
            return
        self.refresh_today()

    def refresh_today(self) -> None:
        """Re-read what is due from the store and scheduler."""
        backend = self.backend
        today = backend.today()
        self.today = today
        self.lines = queue_lines(today, backend.clock.now())
        welcome = self.query_one("#welcome", Static)
        if today.first_run and today.first_drill is not None:
            welcome.update(Text(WELCOME.format(title=printable(today.first_drill.title)), style="bold"))
            welcome.display = True
        else:
            welcome.display = False
        due = Text()
        due.append(f"{plural(today.due.cards, 'card')}", style="cyan")
        due.append(f" ({today.due.new_cards} new)\n" if today.due.new_cards else "\n")
        due.append(f"{plural(today.due.drills, 'drill')}", style="cyan")
        self.query_one("#due", Static).update(due)
        interview = Text()
        readiness = self.query_one("#readiness", Static)
        if today.interview_date is None:
            interview.append("no date set\n(i sets one)", style="dim")
            readiness.display = False
        else:
            days = today.days_left or 0
            when = "today" if days == 0 else ("passed" if days < 0 else f"in {plural(days, 'day')}")
            interview.append(f"{today.interview_date.isoformat()}\n{when}\n")
            interview.append(f"readiness {percent(today.readiness)}", style="bold cyan")
            self._show_readiness()
            readiness.display = today.readiness is not None
        weakest = self.query_one("#weakest", Static)
        weakest.update(weakest_text(today))
        weakest.display = readiness.display and bool(today.weakest)
        self.query_one("#interview", Static).update(interview)
        streak = Text()
        streak.append(f"{plural(today.streak, 'day')}", style="bold green" if today.streak else "dim")
        streak.append(f"\n{today.done_today} done today", style="dim")
        self.query_one("#streak", Static).update(streak)
        queue = self.query_one("#queue", OptionList)
        queue.clear_options()
        for item in self.lines:
            icon = "⌨" if item.kind == "drill" else "❏"
            queue.add_option(Option(queue_label(icon, item.title, item.detail), id=f"{item.kind}:{item.item_id}"))
        if not self.lines:
            queue.add_option(
                Option(Text("Nothing due. Press d to pick any drill, or F3 to browse.", style="dim"), disabled=True)
            )
        queue.highlighted = 0 if self.lines else None
        queue.focus()
        problems = backend.problems
        line = self.query_one("#problems-line", Static)
        line.display = bool(problems)
        if problems:
            line.update(
                Text(
                    f"⚠ {plural(len(problems), 'problem')} in content or progress data: press e to see them.",
                    style="yellow",
                )
            )

    def on_content_changed(self, message: ContentChanged) -> None:
        self.refresh_today()

    def _show_readiness(self) -> None:
        tall = self.size.height >= TALL
        self.query_one("#readiness", Static).update(readiness_text(self.backend.readiness_explanation(), tall=tall))

    def on_resize(self) -> None:
        if self.today is not None and self.today.interview_date is not None:
            self._show_readiness()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.start(event.option.id)

    def start(self, key: str) -> None:
        kind, _, item_id = key.partition(":")
        if kind == "drill":
            self.post_message(OpenDrill(item_id))
        elif kind == "cards":
            self.app.call_later(self.app.run_action, "review")
        else:
            self.post_message(OpenCard(item_id))

    def action_next(self) -> None:
        if self.lines:
            first = self.lines[0]
            self.start(f"{first.kind}:{first.item_id}")
        else:
            self.notify("Nothing is due: pick a drill with d or browse with F3.", timeout=3)

    def action_interview_date(self) -> None:
        from tokdrill.ui.screens.dialogs import InterviewDate

        backend = self.backend

        def done(day):  # type: ignore[no-untyped-def]
            backend.set_interview_date(day)
            self.refresh_today()

        self.app.push_screen(InterviewDate(backend.interview_date(), backend.local_day(backend.clock.now())), done)

    def action_problems(self) -> None:
        from tokdrill.ui.screens.dialogs import Problems

        problems = self.backend.problems
        if problems:
            self.app.push_screen(Problems(problems))
        else:
            self.notify("No problems found in content or progress data.", timeout=2)
