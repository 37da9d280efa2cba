"""The drill screen: editor, timer, live retype feedback, grading in a worker, results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static, TextArea

from tokdrill.content.model import Drill
from tokdrill.progress.records import Mode
from tokdrill.ui import keymap
from tokdrill.ui.formatting import clock_text
from tokdrill.ui.messages import GradeFailed, GradeFinished
from tokdrill.ui.retype import RetypeProgress, RetypeTracker, code_diff
from tokdrill.ui.screens.dialogs import RestoreDraft
from tokdrill.ui.widgets.code_editor import CodeEditor
from tokdrill.ui.widgets.reference_view import ReferenceView
from tokdrill.ui.widgets.results import ResultsPanel
from tokdrill.ui.widgets.timer import DrillTimer

if TYPE_CHECKING:
    from tokdrill.backend import AttemptSummary
    from tokdrill.ui.app import TokdrillApp

AUTOSAVE_SECONDS = 4.0  # drafts are written at least this often while there are unsaved edits


def summary_text(summary: AttemptSummary) -> Text:
    """'Passed in 6:12, 1:48 under the 8:00 target · personal best ...' as styled text."""
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
    out.append(
        f"\nRecorded: attempt #{summary.attempt_number} of this drill; next due {summary.next_due}.", style="dim"
    )
    return out


class DrillScreen(Screen[None]):
    """One drill in one mode. ``mode`` is ``retype`` (reference shown) or ``recall``."""

    BINDINGS = keymap.DRILL

    def __init__(self, drill: Drill, mode: Mode) -> None:
        super().__init__()
        self.drill = drill
        self.mode: Mode = mode
        self.tracker: RetypeTracker | None = None
        self.reference = ""
        self.keystrokes = 0
        self.submissions = 0
        self.dirty = False
        self.grading = False
        self.finished = False
        self.last_progress: RetypeProgress | None = None
        self.last_verdict = None
        self.started_at = None

    @property
    def tapp(self) -> TokdrillApp:
        return self.app  # type: ignore[return-value]

    # ----------------------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        backend = self.tapp.backend
        drill = self.drill
        if self.mode == "retype":
            self.reference = backend.reference(drill)
            self.tracker = RetypeTracker(self.reference)
        mode_name = "Retype" if self.mode == "retype" else "From memory"
        with Horizontal(id="drill-bar"):
            yield Static(
                f"[b]{drill.title}[/b]  [dim]{drill.id} · {mode_name} · {drill.difficulty}[/dim]", id="drill-title"
            )
            yield Static("", id="indent-state")
            yield DrillTimer(backend.clock, drill.target_seconds, id="timer")
        yield Static("", id="retype-status")
        with Horizontal(id="drill-body"):
            with Vertical(id="left-pane"):
                if self.mode == "retype":
                    yield ReferenceView(self.reference, id="reference")
                    yield Markdown(drill.prompt, id="prompt", classes="hidden")
                else:
                    yield Markdown(drill.prompt, id="prompt")
            yield CodeEditor("" if self.mode == "retype" else drill.starter, id="editor")
        yield ResultsPanel(id="results")
        yield Footer()

    def on_mount(self) -> None:
        self.editor = self.query_one(CodeEditor)
        self.timer = self.query_one(DrillTimer)
        self.status = self.query_one("#retype-status", Static)
        self.results = self.query_one(ResultsPanel)
        if not self.tapp.cursor_blink:
            self.editor.cursor_blink = False
        self.status.display = self.mode == "retype"
        self._show_indent_state()
        self._refresh_status(None)
        self.editor.focus()
        self.set_interval(AUTOSAVE_SECONDS, self.autosave)
        draft = self.tapp.backend.draft(self.drill.id, self.mode)
        starter = "" if self.mode == "retype" else self.drill.starter
        if draft is not None and draft.text.strip() and draft.text != starter:
            self.app.push_screen(RestoreDraft(draft), self._after_restore_choice)
        else:
            self._begin(0.0)

    def _after_restore_choice(self, restore: bool | None) -> None:
        draft = self.tapp.backend.draft(self.drill.id, self.mode)
        if restore and draft is not None:
            self.editor.load_text(draft.text)
            self.editor.move_cursor(self.editor.document.end)
            self._begin(draft.elapsed_seconds)
        else:
            self.tapp.backend.discard_draft(self.drill.id, self.mode)
            self._begin(0.0)
        self.editor.focus()

    def _begin(self, already: float) -> None:
        self.started_at = self.tapp.backend.clock.now()
        self.timer.bank(already)
        self.timer.start()
        self.dirty = False
        self.on_edit()

    # ----------------------------------------------------------------------- per keystroke
    @on(TextArea.Changed, "#editor")
    def _editor_changed(self) -> None:
        self.keystrokes += 1
        self.dirty = True
        self.on_edit()

    def on_edit(self) -> None:
        """The per-keystroke work: live accuracy and divergence (retype mode) only. Cheap."""
        if self.tracker is None:
            return
        progress = self.tracker.update(self.editor.document.lines)
        self._refresh_status(progress)

    def _refresh_status(self, progress: RetypeProgress | None) -> None:
        if self.tracker is None:
            return
        previous = self.last_progress
        self.last_progress = progress
        if progress is None:
            self.status.update(
                "Type the reference on the left. Accuracy and the first divergence show here.", layout=False
            )
            return
        divergence = progress.divergence
        if (
            previous is not None
            and previous.divergence == divergence
            and (
                round(previous.accuracy, 3) == round(progress.accuracy, 3)
                and round(previous.completion, 2) == round(progress.completion, 2)
            )
        ):
            return
        text = Text()
        text.append(f"accuracy {progress.accuracy * 100:5.1f}%", style="bold")
        text.append(f"   typed {progress.completion * 100:3.0f}% of the reference")
        if divergence is None:
            text.append("   ✓ on track", style="green")
            self.status.set_class(False, "-diverged")
        else:
            text.append(f"   ✗ first divergence {divergence.describe()}", style="bold red")
            self.status.set_class(True, "-diverged")
        self.status.update(text, layout=False)
        reference = self.query_one(ReferenceView)
        reference.mark(None if divergence is None else divergence.line)

    # ------------------------------------------------------------------------------ actions
    def action_submit(self) -> None:
        """Grade the editor's text in a worker; the UI stays responsive meanwhile.

        The text is read from the editor's own queue, after any keys still waiting there."""
        self.editor.call_later(self.submit_now)

    def submit_now(self) -> None:
        if self.grading or self.finished:
            return
        source = self.editor.text
        self.save_draft(force=True)
        self.grading = True
        self.results.show_grading()
        self.grade(source)

    @work(thread=True, exclusive=True, group="grade")
    def grade(self, source: str) -> None:
        try:
            verdict = self.tapp.backend.grade(self.drill, source)
        except Exception as exc:  # noqa: BLE001 - a crash of the grader is ours, not the user's
            self.post_message(GradeFailed(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(GradeFinished(verdict, source))

    def on_grade_failed(self, message: GradeFailed) -> None:
        self.grading = False
        self.results.show_error(message.error)

    def on_grade_finished(self, message: GradeFinished) -> None:
        self.grading = False
        self.submissions += 1
        verdict = message.verdict
        self.last_verdict = verdict
        if not verdict.passed:
            self.results.show_verdict(verdict)
            self.notify("Not passing yet: see the results below.", severity="warning", timeout=3)
            return
        seconds = self.timer.stop()
        self.finished = True
        progress = self.tracker.update(self.editor.document.lines) if self.tracker else None
        summary = self.tapp.backend.record_attempt(
            self.drill,
            self.mode,
            started_at=self.started_at or self.tapp.backend.clock.now(),
            active_seconds=seconds,
            verdict=verdict,
            submissions=self.submissions,
            keystrokes=self.keystrokes,
            retype_accuracy=None if progress is None else progress.accuracy,
        )
        self.tapp.backend.discard_draft(self.drill.id, self.mode)
        self.dirty = False
        self.results.show_verdict(verdict, summary_text(summary))
        reference = self.reference or self.tapp.backend.reference(self.drill)
        self.results.show_diff(code_diff(message.source, reference))
        self.editor.read_only = True
        self.editor.scroll_to(x=0, animate=False)
        self.results.focus()
        self.refresh_bindings()
        self.notify(f"Passed {self.drill.title} in {clock_text(seconds)}", timeout=4)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("submit", "pause", "toggle_indent", "goto_divergence", "give_up") and self.finished:
            return False
        return not (action in ("goto_divergence", "toggle_reference") and self.mode != "retype")

    def action_pause(self) -> None:
        if self.finished:
            return
        running = self.timer.toggle()
        self.editor.read_only = not running
        self.notify("Timer running" if running else "Paused: the editor is locked until you resume (ctrl+t)", timeout=2)

    def action_toggle_indent(self) -> None:
        self.editor.auto_indent = not self.editor.auto_indent
        self._show_indent_state()

    def _show_indent_state(self) -> None:
        state = "on" if self.editor.auto_indent else "off"
        self.query_one("#indent-state", Static).update(f"auto-indent {state}")

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
        prompt = self.query_one("#prompt", Markdown)
        showing_reference = not reference.has_class("hidden")
        reference.set_class(showing_reference, "hidden")
        prompt.set_class(not showing_reference, "hidden")

    def action_leave(self) -> None:
        self.app.pop_screen()

    def action_give_up(self) -> None:
        """Record this session as a failed attempt (the scheduler brings the drill back soon),
        drop the draft and leave. Leaving with Esc instead keeps the draft for later."""
        if self.finished or self.grading:
            return
        from tokdrill.grading.verdict import Verdict

        verdict = self.last_verdict or Verdict(self.drill.id, False, (), 0.0, problem="given up before a submission")
        progress = self.tracker.update(self.editor.document.lines) if self.tracker else None
        self.tapp.backend.record_attempt(
            self.drill,
            self.mode,
            started_at=self.started_at or self.tapp.backend.clock.now(),
            active_seconds=self.timer.stop(),
            verdict=verdict,
            submissions=self.submissions,
            keystrokes=self.keystrokes,
            retype_accuracy=None if progress is None else progress.accuracy,
        )
        self.tapp.backend.discard_draft(self.drill.id, self.mode)
        self.finished = True
        self.notify(f"Recorded as not passed: {self.drill.title} comes back soon.", timeout=3)
        self.app.pop_screen()

    # ------------------------------------------------------------------------------ drafts
    def autosave(self) -> None:
        self.save_draft()

    def save_draft(self, force: bool = False) -> None:
        """Write the editor text as this drill's draft if it changed (or ``force``)."""
        if self.finished or not (self.dirty or force):
            return
        self.tapp.backend.save_draft(self.drill.id, self.mode, self.editor.text, self.timer.active_seconds())
        self.dirty = False

    def on_unmount(self) -> None:
        self.save_draft()
