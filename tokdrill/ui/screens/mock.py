"""A mock interview round: one drill from memory, then questions answered by typing, each
followed by one of its follow-ups, under one clock; then the scorecard.

The round is planned by ``tokdrill.practice.mock`` (through the backend); the drill runs on
the ordinary drill screen (its attempt recorded as made in a mock round, no draft kept); every
answer is scored and recorded when the round ends (F9, the last answer, or the clock).
"""

from __future__ import annotations

from datetime import datetime

from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static, TextArea

from tokdrill.backend import Backend, MockScorecard, Scheduled
from tokdrill.clock import clock_text
from tokdrill.content.model import Card
from tokdrill.grading.verdict import Verdict
from tokdrill.practice.mock import MockPlan, follow_up_answer, score_answer
from tokdrill.progress.records import MockAnswer
from tokdrill.ui import keymap
from tokdrill.ui.formatting import plural
from tokdrill.ui.screens.dialogs import Confirm
from tokdrill.ui.screens.drill import DrillScreen
from tokdrill.ui.screens.review import RATING_NAMES
from tokdrill.ui.text import markdown_literal, printable, rich_plain
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.safe_history import SafeHistory

INTRO = (
    "**Mock interview** · {minutes} minutes on one clock\n\n"
    "1. Write **{drill}** from memory (target {target}); ctrl+s grades it, Esc moves on.\n"
    "2. Answer {questions} by typing, each followed by a follow-up; ctrl+s submits an answer.\n\n"
    "F9 ends the round early. Press **ctrl+s** to start the clock and the drill."
)


def scorecard_text(card: MockScorecard) -> Group:
    """The scorecard: drill verdict and time against its target, key points per answer,
    concepts missed and what is now scheduled. Each answer sits beside its number and each
    scheduled line under its indent, wrapped lines too, so that it reads at 80 columns."""
    mock = card.mock
    out = Text()
    out.append("Drill  ", style="bold")
    out.append(printable(card.drill_title))
    if mock.drill_passed:
        out.append("  passed", style="bold green")
    else:
        out.append("  not passed", style="bold red")
    target = clock_text(mock.drill_target_seconds)
    if mock.drill_seconds is None:
        out.append(f" (never submitted; target {target})")
    elif mock.drill_passed:
        delta = mock.drill_seconds - mock.drill_target_seconds
        side = "under" if delta <= 0 else "over"
        out.append(f" in {clock_text(mock.drill_seconds)}, {clock_text(abs(delta))} {side} the {target} target")
    else:
        out.append(f" after {clock_text(mock.drill_seconds)} (target {target})")
    used = (mock.ended_at - mock.started_at).total_seconds()
    out.append(f"\nRound  {clock_text(used)} of {clock_text(mock.clock_seconds)}\n", style="dim")
    answers = Table.grid(padding=(0, 1))
    answers.add_column(no_wrap=True, style="bold")
    answers.add_column()
    for number, view in enumerate(card.answers, 1):
        answer = view.answer
        label = "follow-up" if answer.follow_up is not None else "question"
        body = Text()
        body.append(f"({label}) {printable(' '.join(view.question.split()))}\n", style="italic")
        if not answer.answer.strip():
            body.append("not answered\n", style="yellow")
        if answer.follow_up is None:
            style = "green" if answer.covered == answer.total else "yellow" if answer.covered else "red"
            body.append(f"key points {answer.covered}/{answer.total}", style=style)
            if view.missed_points:
                body.append(" · missed: " + printable("; ".join(view.missed_points)), style="dim")
        else:
            body.append(f"model answer: {printable(' '.join(view.model_answer.split()))}", style="dim")  # whole
        answers.add_row(f"{number}.", body)
        answers.add_row("", "")
    end = Text()
    end.append("Concepts missed  ", style="bold")
    end.append(
        printable(", ".join(mock.concepts_missed)) if mock.concepts_missed else "none",
        style="red" if mock.concepts_missed else "green",
    )
    end.append("\n\nNow scheduled", style="bold")
    scheduled = [Padding(rich_plain(line), (0, 0, 0, 2)) for line in map(scheduled_line, card.scheduled)]
    return Group(out, answers, end, *scheduled)


def scheduled_line(item: Scheduled) -> str:
    """One line of "Now scheduled": the drill's next due day, a card's rating and next due day,
    or a card the drill's failure made due today."""
    if item.kind == "drill":
        return f"Drill {item.title}: next due {item.next_due}"
    if item.concept is not None:
        return f"Card {item.title}: due {item.next_due} (the drill failed {item.concept})"
    rating = "" if item.rating is None else f"{RATING_NAMES[item.rating]}, "
    return f"Card {item.title}: {rating}next due {item.next_due}"


class MockScreen(Screen[None]):
    """One mock round, from the plan to the scorecard."""

    BINDINGS = keymap.MOCK

    def __init__(self, backend: Backend, plan: MockPlan) -> None:
        super().__init__()
        self.backend = backend
        self.plan = plan
        self.drill = backend.library.drill(plan.drill_id)
        self.cards: list[Card] = [backend.library.card(c) for c in plan.card_ids]
        self.steps: list[tuple[Card, int | None]] = []
        for card, follow in zip(self.cards, plan.follow_ups):
            self.steps += [(card, None), (card, follow)]
        self.stage = "intro"  # intro, drill, questions, done
        self.step = 0
        self.started_at: datetime | None = None
        self.asked_at: datetime | None = None
        self.answers: list[MockAnswer] = []
        self.answer_seconds: list[float] = []
        self.drill_verdict: Verdict | None = None
        self.drill_seconds: float | None = None
        self.drill_next_due: str | None = None
        self.scorecard: MockScorecard | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="mock-bar"):
            yield Static("[b]Mock interview[/b]", id="mock-title")
            yield Static("", id="mock-clock")
        with VerticalScroll(id="mock-body"):
            yield Markdown("", id="mock-question", open_links=False)
        yield SafeHistory("", id="mock-answer", soft_wrap=True, show_line_numbers=False)
        with VerticalScroll(id="mock-scorecard", classes="hidden"):
            yield Static("", id="scorecard-text")
        yield FittingFooter()

    def on_mount(self) -> None:
        minutes = self.plan.clock_seconds // 60
        questions = plural(len(self.cards), "question")
        self.query_one("#mock-question", Markdown).update(
            INTRO.format(
                minutes=minutes,
                drill=markdown_literal(self.drill.title),
                target=clock_text(self.plan.drill_target_seconds or self.drill.target_seconds),
                questions=questions,
            )
        )
        self.query_one("#mock-answer", TextArea).display = False
        self._show_clock()
        self.set_interval(1.0, self._tick)

    # ------------------------------------------------------------------------------ clock
    def remaining(self) -> float:
        """Seconds left on the round's clock (all of it before the round starts)."""
        if self.started_at is None:
            return float(self.plan.clock_seconds)
        return self.plan.clock_seconds - (self.backend.clock.now() - self.started_at).total_seconds()

    def _show_clock(self) -> None:
        left = self.remaining()
        text = Text(f"{clock_text(max(0.0, left))} left ", style="bold red" if left < 300 else "bold")
        if self.stage == "done":
            text = Text("round over ", style="dim")
        self.query_one("#mock-clock", Static).update(text)

    def _tick(self) -> None:
        self._show_clock()
        if self.stage == "questions" and self.remaining() <= 0:
            self.notify("Time is up: the round ends here.", timeout=4)
            self.finish()

    # ----------------------------------------------------------------------------- stages
    def action_next(self) -> None:
        """ctrl+s: start the round, or submit the answer shown."""
        if self.stage == "intro":
            self.start_drill()
        elif self.stage == "questions":
            self.submit_answer()

    def start_drill(self) -> None:
        """Start the clock and open the drill from memory."""
        self.started_at = self.backend.clock.now()
        self.stage = "drill"
        screen = DrillScreen(self.backend, self.drill, "recall", origin="mock")
        self.app.push_screen(screen, lambda _result: self.drill_done(screen))

    def drill_done(self, screen: DrillScreen) -> None:
        """Back from the drill: keep its verdict and time (a drill left unfinished is recorded
        as not passed), then ask the first question."""
        if not screen.finished:
            verdict = screen.last_verdict or Verdict(self.drill.id, False, (), 0.0, problem="left before a submission")
            screen.record(verdict)
        summary = screen.recorded
        self.drill_verdict = screen.last_verdict
        self.drill_seconds = None if summary is None or screen.submissions == 0 else summary.seconds
        self.drill_next_due = None if summary is None else summary.next_due
        self.stage = "questions"
        if self.remaining() <= 0:
            self.finish()
            return
        self.ask()

    def ask(self) -> None:
        """Show the current question and an empty answer box."""
        card, follow = self.steps[self.step]
        number = self.step // 2 + 1
        if follow is None:
            text = f"**Question {number} of {len(self.cards)}**\n\n{card.question}"
        else:
            text = f"**Follow-up to question {number}**\n\n{card.follow_ups[follow].question}"
        self.query_one("#mock-question", Markdown).update(printable(text))
        answer = self.query_one("#mock-answer", TextArea)
        answer.display = True
        answer.load_text("")
        answer.focus()
        self.asked_at = self.backend.clock.now()

    def submit_answer(self) -> None:
        """Keep the typed answer (scored now) and move on; after the last, the scorecard. A
        blank answer is kept only once the user says so."""
        if not self.query_one("#mock-answer", TextArea).text.strip():

            def answered(yes: bool | None) -> None:
                if yes and self.stage == "questions":
                    self._move_on()

            self.app.push_screen(Confirm("Blank answer", "Nothing is typed. Submit it as it is?"), answered)
            return
        self._move_on()

    def _move_on(self) -> None:
        self.keep_answer()
        self.step += 1
        if self.step >= len(self.steps):
            self.finish()
        else:
            self.ask()

    def keep_answer(self) -> None:
        card, follow = self.steps[self.step]
        text = self.query_one("#mock-answer", TextArea).text
        answer = score_answer(card, text) if follow is None else follow_up_answer(card, follow, text)
        self.answers.append(answer)
        asked = self.asked_at or self.backend.clock.now()
        self.answer_seconds.append(max(0.0, (self.backend.clock.now() - asked).total_seconds()))

    def action_finish(self) -> None:
        """F9: end the round now (the answer being typed counts)."""
        if self.stage == "intro":
            self.dismiss()
        elif self.stage == "questions":
            self.keep_answer()
            self.finish()

    def finish(self) -> None:
        """Record the round and show its scorecard."""
        if self.stage == "done":
            return
        self.stage = "done"
        self.scorecard = self.backend.finish_mock(
            self.plan,
            self.started_at or self.backend.clock.now(),
            self.drill_verdict,
            self.drill_seconds,
            self.drill_next_due,
            tuple(self.answers),
            tuple(self.answer_seconds),
        )
        self.query_one("#mock-body").display = False
        self.query_one("#mock-answer", TextArea).display = False
        self.query_one("#mock-title", Static).update("[b]Mock interview[/b] · scorecard")
        self._show_clock()
        self.query_one("#scorecard-text", Static).update(scorecard_text(self.scorecard))
        scorecard = self.query_one("#mock-scorecard", VerticalScroll)
        scorecard.remove_class("hidden")
        scorecard.focus()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next", "finish"):
            return self.stage in ("intro", "questions")
        return True

    def action_leave(self) -> None:
        """Esc: leave the round (a round in progress asks nothing and is not recorded; its
        drill attempt is)."""
        if self.stage == "questions":
            self.notify("Leaving the round: F9 would end it with a scorecard instead.", timeout=3)
        self.dismiss()
