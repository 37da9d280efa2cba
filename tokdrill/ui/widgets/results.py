"""The results panel: every hidden test with its outcome and message, then the pass summary."""

from __future__ import annotations

from rich.syntax import Syntax
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tokdrill.grading.report import summary_line, summary_style, verdict_spans
from tokdrill.grading.verdict import Verdict

_STYLES = {"plain": "", "pass": "bold green", "fail": "bold red", "warn": "yellow", "dim": "dim", "heading": "bold"}


def verdict_text(verdict: Verdict) -> Text:
    """The verdict as :mod:`tokdrill.grading.report` lays it out, summary line first."""
    out = Text(summary_line(verdict) + "\n\n", style=_STYLES[summary_style(verdict)])
    for span in verdict_spans(verdict, with_notice=False):  # the sandbox note is in Problems
        out.append(span.text, style=_STYLES[span.style])
    return out


class ResultsPanel(VerticalScroll, can_focus=True):
    """Shows grading progress, a verdict, and after a pass the time summary and the diff."""

    DEFAULT_CSS = """
    ResultsPanel { height: auto; max-height: 50%; border-top: solid $primary; padding: 0 1; }
    ResultsPanel.-empty { display: none; }
    ResultsPanel > Static { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")
        self._summary = Static("", id="summary")
        self._tests = Static("", id="tests")
        self._diff = Static("", id="diff")
        self.diff_text = ""

    def compose(self):  # type: ignore[no-untyped-def]
        yield self._summary
        yield self._diff  # after a pass: the diff right under the time summary, then the tests
        yield self._tests

    def show_grading(self) -> None:
        self.remove_class("-empty")
        self._summary.update(Text("Grading…", style="italic"))
        self._tests.update("")
        self._diff.update("")

    def show_error(self, message: str) -> None:
        self.remove_class("-empty")
        self._summary.update(Text(f"Grading failed inside tokdrill (not your code): {message}", style="bold red"))

    def show_verdict(self, verdict: Verdict, summary: Text | None = None) -> None:
        self.remove_class("-empty")
        self._summary.update(summary or "")
        self._tests.update(verdict_text(verdict))
        self._diff.update("")
        self.scroll_home(animate=False)

    def show_diff(self, diff: str) -> None:
        self.diff_text = diff
        if not diff:
            self._diff.update(Text("Your code matches the reference exactly.\n", style="green"))
            return
        self._diff.update(Syntax(diff + "\n", "diff", theme="monokai", word_wrap=False))
