"""The Textual application: screens, global keys, the command palette and navigation, over a Backend.

Screens receive the backend when they are made and ask for navigation with messages
(:mod:`tokdrill.ui.messages`); this module is the one place that decides what opens where, so
no screen imports the app.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual import events, on, work
from textual.app import App, SystemCommand
from textual.command import Provider
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import WorkerState

from tokdrill.backend import Backend
from tokdrill.content.model import Library
from tokdrill.progress.records import Mode
from tokdrill.progress.write_queue import StoreStatus
from tokdrill.ui import heap, keymap
from tokdrill.ui.heap import HeapSettler
from tokdrill.ui.key_routing import RoutesKeys
from tokdrill.ui.messages import (
    ContentChanged,
    GradeFailed,
    GradeFinished,
    OpenCard,
    OpenDrill,
    OpenPlayground,
    SettingsChanged,
    StoreStatusChanged,
)
from tokdrill.ui.text import markup, printable, web_link
from tokdrill.ui.textual_internals import lazy_strip_caches, quick_key_name_lookups, release_closed_widgets

if TYPE_CHECKING:
    from textual.widgets import Markdown

    from tokdrill.ui.screens.drill import DrillScreen


@runtime_checkable
class BlinkingCursor(Protocol):
    """A widget with a text cursor that blinks: Textual's Input and TextArea (matched by this
    attribute, so the text area's module is not imported before a screen uses it)."""

    cursor_blink: bool


def content_commands() -> type[Provider]:
    """The palette provider for drills and cards, imported when the palette first opens."""
    from tokdrill.ui.commands import ContentCommands

    return ContentCommands


SYMBOL_CHECK_DELAY = 0.5  # seconds after mount before drill symbols are checked in a worker
CONTENT_CHECK_SECONDS = 2.0  # how often the user's content files are looked at (a few stat calls)
STATS = "stats"  # the name the Stats screen is installed under (it is kept between visits)


class TokdrillApp(App[None]):
    """tokdrill's TUI. ``backend`` holds the content, the store, the grader and the clock;
    ``cursor_blink=False`` keeps every text cursor steady (tests and snapshots); ``start_action``
    is an action run once the app is up (``mock`` for `tokdrill mock`)."""

    CSS_PATH = "tokdrill.tcss"
    TITLE = "tokdrill"
    BINDINGS = keymap.APP
    COMMANDS = App.COMMANDS | {content_commands}

    def __init__(
        self,
        backend: Backend,
        *,
        cursor_blink: bool = True,
        start_action: str | None = None,
        collection_paused: bool = False,
    ) -> None:
        """``collection_paused``: the launch switched automatic garbage collection off
        (:func:`tokdrill.ui.heap.pause_collection`); it goes back on at the first frame."""
        super().__init__()
        quick_key_name_lookups()
        lazy_strip_caches()
        self.backend = backend
        self.start_action = start_action
        self.cursor_blink = cursor_blink
        self.final_store_status: StoreStatus | None = None
        self.heap = HeapSettler(launching=collection_paused)
        self._settle_timer: Timer | None = None

    def get_default_screen(self) -> Screen[None]:
        """Today is the bottom of the screen stack."""
        from tokdrill.ui.screens.home import HomeScreen

        return HomeScreen(self.backend)

    def on_mount(self) -> None:
        self.backend.set_store_listener(self._post_store_status)
        self._announce_problems(self.backend.problems)
        # once start-up has settled, so that it does not compete with the first frames
        self.set_timer(SYMBOL_CHECK_DELAY, self.check_symbols)
        # a deck imported (`tokdrill import-anki`) or edited while the app runs shows up in it
        self._content_seen = self.backend.content_signature()
        self.set_interval(CONTENT_CHECK_SECONDS, self.look_for_content)
        if self.start_action is not None:  # `tokdrill mock` opens on the mock round
            self.call_later(self.run_action, self.start_action)
        # garbage collection, paused by the launch, resumes with the first frame (see tokdrill.ui.heap)
        self.call_after_refresh(self._first_frame)
        # collect and freeze the heap once each screen has settled
        self.screen_change_signal.subscribe(self, self._screen_changed)
        self._screen_changed(self.screen)

    def _first_frame(self) -> None:
        """Collection resumes; the frame after, the launch's garbage is collected once, so that
        the first screens opened reuse its memory instead of adding to it."""
        if self.heap.launching:
            self.heap.launched()
            self.call_after_refresh(self.heap.settle)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)) and not event.is_forwarded:
            self.heap.activity()
            # the screen routes a key before it is sent to the focused widget
            if isinstance(event, events.Key) and isinstance(self.screen, RoutesKeys) and self.screen.route_key(event):
                return
        await super().on_event(event)

    @on(GradeFinished)
    @on(GradeFailed)
    def _verdict_shown(self) -> None:
        """A verdict is being drawn (the drill screen's handler ran first): settle after it."""
        self.heap.activity()

    def _screen_changed(self, screen: Screen[object]) -> None:
        """Settle the heap again (freeing what the last screen left) once the new one has been quiet a moment."""
        self.heap.screen_changed()
        # Started from the app's own queue: a timer keeps the context it was made in until its
        # due time, even stopped, and a screen's handler runs in a context that holds the screen.
        self.call_next(self._start_settle_timer)

    def _start_settle_timer(self) -> None:
        if self._settle_timer is not None:
            self._settle_timer.stop()
        self._settle_timer = self.set_timer(heap.SETTLE_AFTER_SECONDS, self._settle_heap)

    def _settle_heap(self) -> None:
        # A collection now would delay the echo of a key just pressed, or a verdict being drawn.
        working = any(worker.state in (WorkerState.PENDING, WorkerState.RUNNING) for worker in self.workers)
        wait = self.heap.wait_before_settling(working)
        if wait > 0:
            self._settle_timer = self.set_timer(wait, self._settle_heap)
            return
        self._settle_timer = None
        release_closed_widgets(self)  # what closed screens' widgets left behind, freed with them
        self.heap.settle()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Text cursors follow the app's ``cursor_blink`` choice."""
        if not self.cursor_blink and isinstance(event.widget, BlinkingCursor):
            event.widget.cursor_blink = False

    @work(thread=True, exclusive=True, group="content")
    def check_symbols(self) -> None:
        """After the first frame: check the drills' reference symbols (imports reference_impl)."""
        found = self.backend.check_symbols() + self.backend.check_sandbox()
        if found:
            self.call_from_thread(self._add_problems, found)

    @work(thread=True, exclusive=True, group="content-files")
    def look_for_content(self) -> None:
        """Load the content again when its files changed since it was last loaded."""
        seen = self.backend.content_signature()
        if seen != self._content_seen:
            self.call_from_thread(self._use_content, self.backend.load_content(), seen)

    def _use_content(self, library: Library, seen: tuple[tuple[str, int, int], ...]) -> None:
        self._content_seen = seen
        self.backend.use_content(library)
        for screen in self.screen_stack:
            screen.post_message(ContentChanged())
        self.notify("Content files changed: loaded again.", timeout=3)

    def _add_problems(self, found: list[str]) -> None:
        self._announce_problems(found)
        self._refresh_today()

    def _refresh_today(self) -> None:
        from tokdrill.ui.screens.home import HomeScreen

        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.refresh_today()

    def _announce_problems(self, problems: list[str]) -> None:
        if problems:
            self.notify(
                f"{len(problems)} problem(s) in content or progress data; the rest works. Press e on Today to see them.",
                severity="warning",
                timeout=8,
            )

    def _post_store_status(self, status: StoreStatus) -> None:
        self.post_message(StoreStatusChanged(status))  # thread-safe: called from the writer's thread

    def on_store_status_changed(self, message: StoreStatusChanged) -> None:
        """Store trouble (or its end) as a notification; the app goes on either way."""
        status = message.status
        if status.state == "saved":
            self.notify("Progress saved again; nothing was lost.", title="Progress", timeout=5)
            return
        if status.state == "lost":
            self.notify(status.message, title="Progress not saved", severity="error", timeout=30)
        else:
            self.notify(status.message, title="Progress not saved", severity="warning", timeout=30)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's toast, its message and title always shown as plain text: messages quote
        titles, ids and file names, which are never markup here (``markup`` is ignored)."""
        super().notify(printable(message), title=printable(title), severity=severity, timeout=timeout, markup=False)

    def on_unmount(self) -> None:
        drill = self._drill_screen()
        if drill is not None:  # quitting mid-drill keeps the draft
            drill.save_draft()
        self.backend.set_store_listener(None)
        self.final_store_status = self.backend.close()
        self.heap.release()  # nothing of this app stays frozen after it

    # ------------------------------------------------------------------------ navigation
    def _show(self, screen: Screen[None]) -> None:
        """Go back to Today, then open ``screen`` on top of it (one level deep). A drill left
        this way keeps its draft (the drill screen saves it when it closes)."""
        self.action_today()
        self.push_screen(screen)

    def action_today(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def action_help(self) -> None:
        from tokdrill.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.backend.readiness_explanation()))

    def action_browse(self) -> None:
        from tokdrill.ui.screens.browse import BrowseScreen

        self._show(BrowseScreen(self.backend))

    def action_stats(self) -> None:
        from tokdrill.ui.screens.stats import StatsScreen

        if not self.is_screen_installed(STATS):  # built once, re-read each time it is shown
            self.install_screen(StatsScreen(self.backend), STATS)
        self._show(self.get_screen(STATS))

    def action_review(self) -> None:
        from tokdrill.ui.screens.review import ReviewScreen

        self._show(ReviewScreen(self.backend, self.backend.review_queue(), title="Review"))

    def action_mistakes(self) -> None:
        from tokdrill.ui.screens.mistakes import MistakesScreen

        self._show(MistakesScreen(self.backend))

    def action_mock(self) -> None:
        """Start a mock interview round (unless one is running: then go back to it)."""
        from tokdrill.ui.screens.mock import MockScreen

        running = next((s for s in self.screen_stack if isinstance(s, MockScreen)), None)
        if running is not None:
            while self.screen is not running:
                self.pop_screen()
            return
        if self._drill_screen() is not None:
            self.notify("Leave the open drill first (Esc keeps its draft), then start the mock round.", timeout=4)
            return
        plan = self.backend.plan_mock()
        if plan is None:
            self.notify("A mock round needs a drill and cards with follow-up questions.", severity="warning")
            return
        self._show(MockScreen(self.backend, plan))

    def action_playground(self) -> None:
        from tokdrill.ui.screens.playground import PlaygroundScreen

        self._show(PlaygroundScreen(self.backend))

    @on(OpenPlayground)
    def open_playground(self, message: OpenPlayground) -> None:
        """A card's or drill's "see it": the Playground on its text, over the current screen."""
        from tokdrill.ui.screens.playground import PlaygroundScreen

        message.stop()
        self.push_screen(PlaygroundScreen(self.backend, message.text, message.encodings, message.note))

    def action_steps(self) -> None:
        from tokdrill.ui.screens.steps import StepsScreen

        self.push_screen(StepsScreen())

    def action_settings(self) -> None:
        from tokdrill.ui.screens.settings import SettingsScreen

        self._show(SettingsScreen(self.backend))

    @on(OpenCard)
    def open_card(self, message: OpenCard) -> None:
        """Open one card for review on top of the current screen."""
        from tokdrill.ui.screens.review import ReviewScreen

        message.stop()
        card = self.backend.library.card(message.card_id)
        self.push_screen(ReviewScreen(self.backend, [card], title="Card"))

    @on(OpenDrill)
    def open_drill(self, message: OpenDrill) -> None:
        """Open a drill in the mode asked for, or ask for the mode first."""
        message.stop()
        if message.mode is not None:
            self.start_drill(message.drill_id, message.mode)
            return
        from tokdrill.ui.screens.dialogs import ModeChoice

        if not self._can_open(message.drill_id):
            return
        drill_id = message.drill_id

        def chosen(mode: Mode | None) -> None:
            if mode is not None:
                self.start_drill(drill_id, mode)

        self.push_screen(ModeChoice(self.backend.library.drill(drill_id)), chosen)

    def start_drill(self, drill_id: str, mode: Mode) -> None:
        """Open the drill screen in ``mode``. With another drill already open, ask first; the
        open one's typing is kept as its draft either way."""
        if not self._can_open(drill_id):
            return
        current = self._drill_screen()
        if current is None:
            self._push_drill(drill_id, mode)
            return
        if (current.drill.id, current.mode) == (drill_id, mode):
            while self.screen is not current:  # it is open already: go back to it
                self.pop_screen()
            return
        if current.finished:
            self._leave_drill_for(current, drill_id, mode)
            return
        from tokdrill.ui.screens.dialogs import Confirm

        other = self.backend.library.drill(drill_id)
        question = markup(
            "You are in the middle of [b]$current[/b] ($mode).\n"
            "Leave it for [b]$other[/b]? Your typing is kept as a draft and offered when you open it again.",
            current=current.drill.title,
            mode=current.mode_name,
            other=other.title,
        )

        def answer(leave: bool | None) -> None:
            if leave:
                self._leave_drill_for(current, drill_id, mode)

        self.push_screen(Confirm("Open another drill?", question), answer)

    def _leave_drill_for(self, current: DrillScreen, drill_id: str, mode: Mode) -> None:
        current.save_draft(force=True)
        while current in self.screen_stack:
            self.pop_screen()
        self._push_drill(drill_id, mode)

    def _push_drill(self, drill_id: str, mode: Mode) -> None:
        from tokdrill.ui.screens.drill import DrillScreen

        self.push_screen(DrillScreen(self.backend, self.backend.library.drill(drill_id), mode))

    def _drill_screen(self) -> DrillScreen | None:
        """The open drill screen, if any (there is never more than one). Its module is loaded
        with the first drill, so quitting before any drill was opened does not load it."""
        drill = sys.modules.get("tokdrill.ui.screens.drill")
        if drill is None:
            return None
        return next((s for s in self.screen_stack if isinstance(s, drill.DrillScreen)), None)

    def _can_open(self, drill_id: str) -> bool:
        found = self.backend.check_symbols()  # no-op once the background check has run
        if found:
            self._add_problems(found)
        if drill_id in self.backend.broken_drills:
            self.notify(
                f"{drill_id} names reference code that does not exist: press e on Today for details.",
                severity="error",
                timeout=6,
            )
            return False
        return True

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        """A link clicked in a prompt, answer or question opens in the browser when it is a web
        address; anything else (a file, a script, an action) is left alone."""
        if web_link(event.href):
            self.open_url(event.href)

    def on_settings_changed(self, message: SettingsChanged) -> None:
        self._refresh_today()

    # --------------------------------------------------------------------- command palette
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Today", "What is due, readiness, streak (F2)", self.action_today)
        yield SystemCommand("Review due cards", "Flashcards due now (F5)", self.action_review)
        yield SystemCommand("Stats", "Times, typing, retention, forecast, activity (F4)", self.action_stats)
        yield SystemCommand("Browse", "Every drill and card, search and tags (F3)", self.action_browse)
        yield SystemCommand(
            "Mistakes", "Every concept a hidden test caught, with its lesson (m on Today)", self.action_mistakes
        )
        yield SystemCommand(
            "Mock interview", "One drill from memory, then questions with follow-ups, one clock", self.action_mock
        )
        yield SystemCommand(
            "Playground",
            "Tokens of your text in cl100k, o200k, your BPE or a tokenizer.json (F8)",
            self.action_playground,
        )
        yield SystemCommand(
            "Step through an algorithm",
            "BPE training and encoding, WordPiece, Viterbi, byte mapping on your own input (ctrl+n in the Playground)",
            self.action_steps,
        )
        yield SystemCommand(
            "Settings", "New items per day, retention, auto-indent, interview date", self.action_settings
        )
        yield SystemCommand("Help: keys", "Every key binding, and what readiness means (F1)", self.action_help)
        yield SystemCommand("Start next item", "The first item due today", self._start_next)
        if self.backend.store_damaged:
            yield SystemCommand(
                "Repair progress", "Continue from what could be read of the damaged database", self._repair_store
            )
        if self.backend.store_status().pending:
            yield SystemCommand("Retry saving progress", "Try the unsaved changes again now", self._retry_saving)
        yield from screen_commands(screen)

    def _repair_store(self) -> None:
        self.notify(self.backend.repair_store(), title="Progress", timeout=15)
        self.action_today()

    def _retry_saving(self) -> None:
        self.backend.progress.retry_now()

    def _start_next(self) -> None:
        from tokdrill.ui.screens.home import HomeScreen

        self.action_today()
        if isinstance(self.screen, HomeScreen):
            self.screen.action_next()


def screen_commands(screen: Screen[object]) -> Iterable[SystemCommand]:
    """The keys of ``screen`` that can run now, as palette commands (the footer shows only the
    keys that fit; here are all of them)."""
    keys: dict[str, list[str]] = {}
    described: dict[str, str] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if active.node is screen and active.enabled and binding.description:
            keys.setdefault(binding.action, []).append(key)
            described.setdefault(binding.action, binding.description)
    for action, names in keys.items():
        yield SystemCommand(
            described[action], f"{' / '.join(names)} on this screen", partial(screen.run_action, action)
        )
