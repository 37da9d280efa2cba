"""The drill screen: editor, timer, live retype feedback, grading in a worker, results.

The clock starts with the first keystroke. In retype mode the reference beside the editor keeps
the line being typed at the cursor's height, and a status line shows live WPM, accuracy and the
first divergence. Esc leaves at once (the draft is kept), F9 asks before giving up, and results
scroll with keys while the editor keeps focus.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import ScreenResume, ScreenSuspend
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static, TextArea

from tokdrill.backend import AttemptSummary, Backend
from tokdrill.clock import clock_text
from tokdrill.content.model import Drill
from tokdrill.grading.verdict import Verdict
from tokdrill.progress.records import Mode, Origin
from tokdrill.ui import heap, keymap
from tokdrill.ui.formatting import references_text
from tokdrill.ui.messages import GradeFailed, GradeFinished
from tokdrill.ui.retype import RetypeProgress, RetypeTracker, code_diff
from tokdrill.ui.screens.dialogs import GiveUp, RestoreDraft
from tokdrill.ui.text import markup, printable
from tokdrill.ui.typing_meter import COSTLY_KEYS_KEPT, TypingFigures, TypingMeter
from tokdrill.ui.widgets.code_editor import CodeEditor
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.reference_view import ReferenceView
from tokdrill.ui.widgets.results import ResultsPanel
from tokdrill.ui.widgets.timer import DrillTimer

AUTOSAVE_SECONDS = 4.0  # drafts are written at least this often while there are unsaved edits
STATUS_SECONDS = 1.0  # the live WPM is refreshed this often while the clock runs
GRADING_SHOWN_AFTER = 0.15  # seconds: a verdict sooner than this replaces the last without a "grading…" frame
MODE_NAMES: dict[Mode, str] = {"retype": "Retype", "recall": "From memory"}
# actions that make no sense once the drill is over
LIVE_ACTIONS = frozenset({"submit", "pause", "toggle_indent", "goto_divergence", "give_up"})
RETYPE_ACTIONS = frozenset({"goto_divergence", "toggle_reference", "scroll_reference"})


def summary_text(summary: AttemptSummary, typing: TypingFigures | None = None) -> Text:
    """'Passed in 6:12, 1:48 under the 8:00 target · personal best ...' as styled text, with the
    typing figures of a retype drill."""
    out = Text()
    delta = summary.seconds - summary.target_seconds
    side = "under" if delta <= 0 else "over"
    out.append(f"Passed in {clock_text(summary.seconds)}", style="bold green")
    out.append(f", {clock_text(abs(delta))} {side} the {clock_text(summary.target_seconds)} target")
    if summary.previous_best is None:
        out.append("  ·  first pass of this drill in this mode", style="cyan")
    elif summary.seconds < summary.previous_best:
        out.append(f"  ·  new personal best (was {clock_text(summary.previous_best)})", style="bold cyan")
    else:
        out.append(f"  ·  personal best {clock_text(summary.previous_best)}", style="cyan")
    if typing is not None:
        out.append(f"\nTyping: {typing.describe()}", style="magenta")
    out.append(
        f"\nRecorded: attempt #{summary.attempt_number} of this drill; next due {summary.next_due}.", style="dim"
    )
    return out


class DrillScreen(Screen[None]):
    """One drill in one mode. ``mode`` is ``retype`` (reference shown) or ``recall``.
    ``origin`` ``mock`` is the drill of a mock round: it starts from the starter (no draft is
    offered or kept) and its attempt is recorded as made in a mock round."""

    BINDINGS = keymap.DRILL

    def __init__(self, backend: Backend, drill: Drill, mode: Mode, origin: Origin = "app") -> None:
        super().__init__()
        self.backend = backend
        self.drill = drill
        self.mode: Mode = mode
        self.origin: Origin = origin
        self.recorded: AttemptSummary | None = None
        self.reference = backend.reference(drill) if mode == "retype" else ""
        self.tracker = RetypeTracker(self.reference) if mode == "retype" else None
        self.meter = TypingMeter(self.reference) if mode == "retype" else None
        self.keystrokes = 0
        self.submissions = 0
        self.dirty = False
        self.grading = False
        self._grading_shown: Timer | None = None
        self.finished = False
        self.last_progress: RetypeProgress | None = None
        self.last_verdict: Verdict | None = None
        self.started_at = backend.clock.now()
        self._resumed = False  # a restored draft's session goes on (its start and submissions)
        self._loading = 0  # Changed messages still to come from programmatic loads
        self._was_running = False
        self._collection_paused = False  # automatic collection is off until a verdict is drawn

    @property
    def mode_name(self) -> str:
        return MODE_NAMES[self.mode]

    # ----------------------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        drill = self.drill
        # The results are drawn over the body's lower rows, and placed first: showing them then
        # changes neither the room nor the painting order of what is under them.
        yield ResultsPanel(id="results")
        with Horizontal(id="drill-bar"):
            yield Static(
                markup(
                    "[b]$title[/b]  [dim]$mode · $difficulty[/dim]",
                    title=drill.title,
                    mode=self.mode_name,
                    difficulty=drill.difficulty,
                ),
                id="drill-title",
            )
            yield Static("grading…", id="grade-state", classes="hidden")
            yield Static("", id="indent-state")
            yield DrillTimer(self.backend.clock, drill.target_seconds, id="timer")
        yield Static("", id="retype-status")
        with Horizontal(id="drill-body"):
            with Vertical(id="left-pane"):
                if self.mode == "retype":
                    yield ReferenceView(self.reference, id="reference")
                with VerticalScroll(id="prompt", classes="hidden" if self.mode == "retype" else ""):
                    if self.mode != "retype":  # retype mode writes the prompt when it is first shown
                        yield self._prompt_text()
                    yield Static(references_text(self.drill.references), id="prompt-references")
            yield CodeEditor(
                "" if self.mode == "retype" else drill.starter,
                auto_indent=self.backend.auto_indent(),
                reference=self.reference if self.mode == "retype" else None,
                id="editor",
            )
        yield FittingFooter()

    def _prompt_text(self) -> Widget:
        """The drill's prompt as Markdown (the parser and its widgets are loaded on first use)."""
        from textual.widgets import Markdown

        return Markdown(printable(self.drill.prompt), id="prompt-text", open_links=False)

    def on_mount(self) -> None:
        self.editor = self.query_one(CodeEditor)
        self.timer = self.query_one(DrillTimer)
        self.status = self.query_one("#retype-status", Static)
        self.results = self.query_one(ResultsPanel)
        self.status.display = self.mode == "retype"
        self._show_indent_state()
        self._refresh_status(None)
        self.editor.focus()
        self.editor.unlock = self._resume_on_typing
        self.set_interval(AUTOSAVE_SECONDS, self.autosave)
        self.set_interval(STATUS_SECONDS, self._tick_status)
        if self.mode == "retype":  # the editor scrolls when the results would cover its cursor, or by keys
            self.watch(self.editor, "scroll_y", self._editor_scrolled, init=False)
        draft = None if self.origin == "mock" else self.backend.draft(self.drill.id, self.mode)
        starter = "" if self.mode == "retype" else self.drill.starter
        if draft is not None and draft.text.strip() and draft.text != starter:
            self.app.push_screen(RestoreDraft(draft), self._after_restore_choice)
        else:
            self.on_edit()

    def _after_restore_choice(self, restore: bool | None) -> None:
        draft = self.backend.draft(self.drill.id, self.mode)
        if restore and draft is not None:
            self._loading += 1
            self.editor.load_text(draft.text)
            self.editor.move_cursor(self.editor.document.end)
            self.timer.bank(draft.elapsed_seconds)
            self.submissions = draft.submissions or 0
            self.started_at = draft.started_at or self.started_at
            self._resumed = draft.started_at is not None
            if draft.keystrokes is not None:
                self.keystrokes = draft.keystrokes
            if self.meter is not None and draft.typing_keystrokes is not None:
                self.meter.resume(draft.typing_keystrokes, draft.typing_errors or 0, draft.costly_keys or ())
        elif self.backend.abandon_draft(self.drill, self.mode) is not None:
            self.notify("Your earlier session was submitted and never passed: recorded as not passed.", timeout=4)
        self.dirty = False
        self.on_edit()
        self.editor.focus()

    # ----------------------------------------------------------------------- per keystroke
    @on(TextArea.Changed, "#editor")
    def _editor_changed(self) -> None:
        if self._loading:  # a restored draft, not typing
            self._loading -= 1
            return
        if self.timer.waiting and not self.finished:
            if not self._resumed:
                self.started_at = self.backend.clock.now()
            self.timer.start()
            self.prepare_grading()  # while the user types: the first ctrl+s then waits for no collection
        self.keystrokes += 1
        self.dirty = True
        self.on_edit()

    @on(CodeEditor.Typed)
    def _typed(self, message: CodeEditor.Typed) -> None:
        if self.meter is not None:
            self.meter.key(message.character, message.line, message.column)

    @on(ResultsPanel.Covering)
    def _results_cover(self, message: ResultsPanel.Covering) -> None:
        self.editor.cover(message.rows)

    @on(TextArea.SelectionChanged, "#editor")
    def _cursor_moved(self) -> None:
        self.follow_cursor()

    def _editor_scrolled(self, scroll_y: float) -> None:
        self.follow_cursor()

    def follow_cursor(self) -> None:
        """Put the reference's line at the height of the editor's cursor line (retype mode)."""
        if self.mode != "retype":
            return
        line = self.editor.cursor_location[0]
        self.query_one(ReferenceView).follow(line, at_row=line - round(self.editor.scroll_y))

    def on_edit(self) -> None:
        """The per-keystroke work: live figures and divergence (retype mode only). Cheap."""
        if self.tracker is None:
            return
        progress = self.tracker.update(self.editor.document.lines)
        self._refresh_status(progress)
        self.follow_cursor()

    def typing_figures(self) -> TypingFigures | None:
        """The typing figures so far (retype mode), or None."""
        progress = self.last_progress
        if self.meter is None or progress is None:
            return None
        remaining = progress.typed_chars - progress.correct_chars
        return self.meter.figures(progress.correct_characters, remaining, self.timer.active_seconds())

    def _tick_status(self) -> None:
        if self.timer.running:
            self._refresh_status(self.last_progress, force=True)

    def _refresh_status(self, progress: RetypeProgress | None, force: bool = False) -> None:
        if self.tracker is None:
            return
        previous = self.last_progress
        self.last_progress = progress
        if progress is None:
            self.status.update("Type the reference on the left; the clock starts with your first key.", layout=False)
            return
        divergence = progress.divergence
        unchanged = (
            previous is not None
            and previous.divergence == divergence
            and previous.correct_characters == progress.correct_characters
            and previous.typed_chars == progress.typed_chars
        )
        if unchanged and not force:
            return
        figures = self.typing_figures()
        text = Text(no_wrap=True, overflow="ellipsis")
        if figures is not None:
            text.append(f"{figures.wpm:3.0f} wpm", style="bold")
            text.append(f" · accuracy {figures.accuracy * 100:.0f}%")
        text.append(f" · {progress.completion * 100:.0f}% typed · ")
        if divergence is None:
            text.append("✓ on track", style="green")
        else:
            text.append(f"✗ {printable(divergence.describe())}", style="bold red")
        self.status.set_class(divergence is not None, "-diverged")
        self.status.update(text, layout=False)
        self.query_one(ReferenceView).mark(None if divergence is None else divergence.line)

    # ------------------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in LIVE_ACTIONS and self.finished:
            return False
        return not (action in RETYPE_ACTIONS and self.mode != "retype")

    def action_submit(self) -> None:
        """Grade the editor's text in a worker; the UI stays responsive meanwhile.

        The text is read from the editor's own queue, after any keys still waiting there."""
        self.editor.call_later(self.submit_now)

    def submit_now(self) -> None:
        """Start grading before anything else, so the worker does not wait for this screen's
        own updates; say "grading…" only if the verdict is slow to come."""
        if self.grading or self.finished:
            return
        if self.timer.waiting:
            self.timer.start()
        source = self.editor.text
        self.grading = True
        self.grade(source)
        self.save_draft(force=True)
        self._grading_shown = self.set_timer(GRADING_SHOWN_AFTER, self._show_grading)

    def _show_grading(self) -> None:
        if self.grading:
            self.query_one("#grade-state").remove_class("hidden")
            self.results.show_grading()

    def _grading_done(self) -> None:
        self.grading = False
        if self._grading_shown is not None:
            self._grading_shown.stop()
        self.query_one("#grade-state").add_class("hidden")

    @work(thread=True, exclusive=True, group="prepare", exit_on_error=False)
    def prepare_grading(self) -> None:
        """Have the grader collect this drill's tests now (seconds for the heavier drills)."""
        self.backend.prepare_grading(self.drill)

    @work(thread=True, exclusive=True, group="grade")
    def grade(self, source: str) -> None:
        try:
            verdict = self.backend.grade(self.drill, source)
        except Exception as exc:  # noqa: BLE001 - a crash of the grader is ours, not the user's
            self.post_message(GradeFailed(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(GradeFinished(verdict, source))

    def on_grade_failed(self, message: GradeFailed) -> None:
        self._grading_done()
        self.results.show_error(message.error)

    def on_grade_finished(self, message: GradeFinished) -> None:
        # the frame allocates thousands of short-lived strips: no collection inside it
        self._collection_paused = heap.pause_collection() or self._collection_paused
        self.results.after_verdict_shown(self._resume_collection)
        self._grading_done()
        self.submissions += 1
        verdict = message.verdict
        self.last_verdict = verdict
        self.backend.record_grade(self.drill, verdict, message.source, self.origin)
        if not verdict.passed:  # the failures, first in the results (no toast over them)
            self.results.show_verdict(verdict)
            return
        typing = self.typing_figures()
        summary = self.record(verdict)
        diff = code_diff(message.source, self.reference or self.backend.reference(self.drill))
        self.results.show_verdict(verdict, summary_text(summary, typing), diff)
        self.results.after_verdict_shown(self._after_pass)

    def _resume_collection(self) -> None:
        heap.resume_collection(self._collection_paused)
        self._collection_paused = False

    def _after_pass(self) -> None:
        """What follows a pass, once the verdict and the diff are on screen: the clock shown as
        done, the editor read-only (restyled, so every row it shows is drawn again) at its left
        edge, and the keys of a finished drill."""
        self.timer.tick()
        self.editor.read_only = True
        self.editor.scroll_to(x=0, animate=False)
        self.refresh_bindings()

    def record(self, verdict: Verdict) -> AttemptSummary:
        """Stop the clock and record this session as an attempt with ``verdict``."""
        seconds = self.timer.stop()
        self.finished = True
        self.dirty = False
        progress = self.tracker.update(self.editor.document.lines) if self.tracker else None
        self.last_progress = progress or self.last_progress
        typing = self.typing_figures()
        self.recorded = self.backend.record_attempt(
            self.drill,
            self.mode,
            started_at=self.started_at,
            active_seconds=seconds,
            verdict=verdict,
            submissions=self.submissions,
            keystrokes=self.keystrokes,
            retype_accuracy=None if progress is None else progress.accuracy,
            wpm=None if typing is None else typing.wpm,
            typing_accuracy=None if typing is None else typing.accuracy,
            corrected_errors=None if typing is None else typing.corrected_errors,
            costly_keys=None if typing is None else typing.costly_keys,
            origin=self.origin,
        )
        return self.recorded

    def action_scroll_results(self, direction: int) -> None:
        if not self.results.scroll_page(direction):
            self.notify("No results to scroll yet: ctrl+s grades your code.", timeout=2)

    def action_scroll_reference(self, direction: int) -> None:
        reference = self.query_one(ReferenceView)
        reference.scroll_to(y=reference.scroll_y + direction * max(1, reference.size.height - 2), animate=False)

    def action_pause(self) -> None:
        if self.timer.waiting:
            self.notify("The clock has not started: it starts with your first key.", timeout=2)
            return
        running = self.timer.toggle()
        self.editor.read_only = not running
        self.notify("Timer running" if running else "Paused: ctrl+t or any typing resumes", timeout=2)

    def _resume_on_typing(self) -> bool:
        """A key typed while paused resumes the clock and goes in; a finished drill stays locked."""
        if self.finished or self.timer.running or self.timer.waiting:
            return False
        self.timer.start()
        self.editor.read_only = False
        self.notify("Resumed: the clock runs again", timeout=2)
        return True

    def action_toggle_indent(self) -> None:
        self.editor.auto_indent = not self.editor.auto_indent
        self.backend.set_auto_indent(self.editor.auto_indent)
        self._show_indent_state()

    def _show_indent_state(self) -> None:
        state = "on" if self.editor.auto_indent else "off"
        self.query_one("#indent-state", Static).update(f"indent {state}")

    def action_goto_divergence(self) -> None:
        progress = self.last_progress
        if progress is None or progress.divergence is None:
            self.notify("No divergence: everything typed so far matches.", timeout=2)
            return
        d = progress.divergence
        self.editor.move_cursor((d.line, d.column))
        self.editor.focus()

    def action_toggle_reference(self) -> None:
        reference = self.query_one(ReferenceView)
        prompt = self.query_one("#prompt", VerticalScroll)
        showing_reference = not reference.has_class("hidden")
        if showing_reference and not prompt.query("#prompt-text"):
            prompt.mount(self._prompt_text(), before=0)
        reference.set_class(showing_reference, "hidden")
        prompt.set_class(not showing_reference, "hidden")

    def action_leave(self) -> None:
        """Back to where the drill was opened from; unfinished typing stays as the draft, with
        the clock as it stands now."""
        self.save_draft(force=not self.timer.waiting)
        self.dismiss()

    def action_give_up(self) -> None:
        """Ask, then record this session as a failed attempt (the scheduler brings the drill
        back soon) and leave, keeping the code as a draft unless the user says discard."""
        if self.finished or self.grading:
            return

        def answer(keep_draft: bool | None) -> None:
            if keep_draft is not None and not self.finished:
                self.give_up(keep_draft)

        self.app.push_screen(GiveUp(self.drill.title), answer)

    def give_up(self, keep_draft: bool) -> None:
        """Record a failed attempt now and leave; ``keep_draft`` keeps the code for next time
        (with a fresh clock: this session's time went into the recorded attempt)."""
        text = self.editor.text
        seconds = self.timer.stop()
        self.finished = True
        self.dirty = False
        self.recorded = self.backend.give_up(
            self.drill,
            self.mode,
            started_at=self.started_at,
            active_seconds=seconds,
            verdict=self.last_verdict,
            submissions=self.submissions,
            keystrokes=self.keystrokes,
            origin=self.origin,
        )
        starter = "" if self.mode == "retype" else self.drill.starter
        if self.origin == "mock":  # the drill's own draft, if any, is not the mock's to change
            keep_draft = False
        elif keep_draft and text.strip() and text != starter:
            self.backend.save_draft(self.drill.id, self.mode, text, 0.0)
        else:
            self.backend.discard_draft(self.drill.id, self.mode)
        kept = " Your code is kept as a draft." if keep_draft else ""
        self.notify(f"Recorded as not passed: {self.drill.title} comes back soon.{kept}", timeout=4)
        self.dismiss()

    # --------------------------------------------------------------------- screen changes
    def on_screen_suspend(self, event: ScreenSuspend) -> None:
        """Another screen or dialog covers the drill: the clock pauses meanwhile."""
        self._was_running = self.timer.running
        if self._was_running:
            self.timer.pause()
        self.save_draft()

    def on_screen_resume(self, event: ScreenResume) -> None:
        if self._was_running and not self.finished:
            self.timer.start()
        self._was_running = False

    # ------------------------------------------------------------------------------ drafts
    def autosave(self) -> None:
        self.save_draft()

    def save_draft(self, force: bool = False) -> None:
        """Write the editor text as this drill's draft if it changed (or ``force``); a mock
        round's drill keeps none."""
        if self.finished or self.origin == "mock" or not (self.dirty or force):
            return
        meter = self.meter
        self.backend.save_draft(
            self.drill.id,
            self.mode,
            self.editor.text,
            self.timer.active_seconds(),
            keystrokes=self.keystrokes,
            typing_keystrokes=None if meter is None else meter.keystrokes,
            typing_errors=None if meter is None else meter.errors,
            costly_keys=None if meter is None else tuple(meter.costs.most_common(COSTLY_KEYS_KEPT)),
            started_at=self.started_at if self._resumed or not self.timer.waiting else None,
            submissions=self.submissions,
        )
        self.dirty = False

    def on_unmount(self) -> None:
        self._resume_collection()  # a verdict never drawn keeps collection off no longer
        self.save_draft()
        self.editor.unlock = None  # the editor holds no way back to a closed screen
