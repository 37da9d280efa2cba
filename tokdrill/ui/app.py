"""The Textual application: screens, global keys and the command palette, over a Backend."""

from __future__ import annotations

from collections.abc import Iterable

from textual import work
from textual.app import App, SystemCommand
from textual.screen import Screen

from tokdrill.backend import Backend
from tokdrill.progress.records import Mode
from tokdrill.progress.write_queue import StoreStatus
from tokdrill.ui import keymap
from tokdrill.ui.messages import StoreStatusChanged


def content_commands() -> type:
    """The palette provider for drills and cards, imported when the palette first opens."""
    from tokdrill.ui.commands import ContentCommands

    return ContentCommands


SYMBOL_CHECK_DELAY = 0.5  # seconds after mount before drill symbols are checked in a worker


class TokdrillApp(App[None]):
    """tokdrill's TUI. ``backend`` holds the content, the store, the grader and the clock."""

    CSS_PATH = "tokdrill.tcss"
    TITLE = "tokdrill"
    BINDINGS = keymap.APP
    COMMANDS = App.COMMANDS | {content_commands}

    def __init__(self, backend: Backend, *, cursor_blink: bool = True) -> None:
        super().__init__()
        self.backend = backend
        self.cursor_blink = cursor_blink
        self.final_store_status: StoreStatus | None = None

    def get_default_screen(self) -> Screen[None]:
        """Today is the bottom of the screen stack."""
        from tokdrill.ui.screens.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        self.backend.set_store_listener(self._post_store_status)
        self._announce_problems(self.backend.problems)
        # once start-up has settled, so that it does not compete with the first frames
        self.set_timer(SYMBOL_CHECK_DELAY, self.check_symbols)

    @work(thread=True, exclusive=True, group="content")
    def check_symbols(self) -> None:
        """After the first frame: check the drills' reference symbols (imports reference_impl)."""
        found = self.backend.check_symbols() + self.backend.check_sandbox()
        if found:
            self.call_from_thread(self._add_problems, found)

    def _add_problems(self, found: list[str]) -> None:
        self._announce_problems(found)
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

    def on_unmount(self) -> None:
        from tokdrill.ui.screens.drill import DrillScreen

        for screen in self.screen_stack:  # quitting mid-drill keeps the draft
            if isinstance(screen, DrillScreen):
                screen.save_draft()
        self.backend.set_store_listener(None)
        self.final_store_status = self.backend.close()

    # ------------------------------------------------------------------------ navigation
    def _show(self, screen: Screen[None]) -> None:
        """Go back to Today, then open ``screen`` on top of it (one level deep)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)

    def action_today(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def action_help(self) -> None:
        from tokdrill.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_browse(self) -> None:
        from tokdrill.ui.screens.browse import BrowseScreen

        self._show(BrowseScreen())

    def action_stats(self) -> None:
        from tokdrill.ui.screens.stats import StatsScreen

        self._show(StatsScreen())

    def action_review(self) -> None:
        from tokdrill.ui.screens.review import ReviewScreen

        self._show(ReviewScreen(self.backend.review_queue(), title="Review"))

    def open_card(self, card_id: str) -> None:
        """Open one card for review on top of the current screen."""
        from tokdrill.ui.screens.review import ReviewScreen

        card = self.backend.library.card(card_id)
        self.push_screen(ReviewScreen([card], title="Card"))

    def open_drill(self, drill_id: str) -> None:
        """Ask for the mode, then open the drill."""
        from tokdrill.ui.screens.dialogs import ModeChoice

        drill = self.backend.library.drill(drill_id)
        if not self._can_open(drill_id):
            return

        def chosen(mode: str | None) -> None:
            if mode in ("retype", "recall"):
                self.start_drill(drill_id, mode)  # type: ignore[arg-type]

        self.push_screen(ModeChoice(drill), chosen)

    def start_drill(self, drill_id: str, mode: Mode) -> None:
        """Open the drill screen in ``mode`` directly."""
        from tokdrill.ui.screens.drill import DrillScreen

        if self._can_open(drill_id):
            self.push_screen(DrillScreen(self.backend.library.drill(drill_id), mode))

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

    # --------------------------------------------------------------------- command palette
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Today", "What is due, readiness, streak (F2)", self.action_today)
        yield SystemCommand("Review due cards", "Flashcards due now (F5)", self.action_review)
        yield SystemCommand("Stats", "Times, retention, forecast, activity (F4)", self.action_stats)
        yield SystemCommand("Browse", "Every drill and card, search and tags (F3)", self.action_browse)
        yield SystemCommand("Help: keys", "Every key binding (F1)", self.action_help)
        yield SystemCommand("Start next item", "The first item due today", self._start_next)
        if self.backend.store_damaged:
            yield SystemCommand(
                "Repair progress", "Continue from what could be read of the damaged database", self._repair_store
            )
        if self.backend.store_status().pending:
            yield SystemCommand("Retry saving progress", "Try the unsaved changes again now", self._retry_saving)

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
