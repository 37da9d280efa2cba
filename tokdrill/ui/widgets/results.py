"""The results panel: the verdict with failing tests first, then after a pass the time summary,
the typing figures and the diff against the reference. It scrolls with keys while the editor keeps
focus (:meth:`ResultsPanel.scroll_page`)."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Size

from tokdrill.grading.report import summary_line, summary_style, verdict_spans
from tokdrill.grading.verdict import Verdict
from tokdrill.ui.widgets.kept_static import KeptStatic

_STYLES = {"plain": "", "pass": "bold green", "fail": "bold red", "warn": "yellow", "dim": "dim", "heading": "bold"}


def verdict_text(verdict: Verdict) -> Text:
    """The verdict as :mod:`tokdrill.grading.report` lays it out: summary line, then the failing
    tests (each with its assertion first), then the passing ones."""
    out = Text(summary_line(verdict) + "\n\n", style=_STYLES[summary_style(verdict)])
    for span in verdict_spans(verdict, with_notice=False, compact=True):  # the sandbox note is in Problems
        out.append(span.text, style=_STYLES[span.style])
    return out


class ResultsPanel(VerticalScroll, can_focus=True):
    """Shows a verdict (greyed while the next is graded), and after a pass the time summary and the diff."""

    DEFAULT_CSS = """
    ResultsPanel { height: auto; max-height: 50%; border-top: solid $primary; padding: 0 1; scrollbar-gutter: stable; }
    ResultsPanel.-empty { display: none; }
    ResultsPanel.-stale > KeptStatic { text-opacity: 55%; }
    ResultsPanel > KeptStatic { width: 1fr; height: auto; }
    ResultsPanel > KeptStatic.-blank { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")
        self._summary = KeptStatic("", id="summary", classes="-blank")
        self._tests = KeptStatic("", id="tests", classes="-blank")
        self._diff = KeptStatic("", id="diff", classes="-blank")
        self.diff_text = ""

    def compose(self) -> ComposeResult:
        yield self._summary
        yield self._diff  # after a pass: the diff right under the time summary, then the tests
        yield self._tests

    @staticmethod
    def _show(part: KeptStatic, content: RenderableType) -> None:
        part.update(content)
        part.set_class(content == "", "-blank")

    def show_grading(self) -> None:
        """Grey out the last verdict while a new one is graded (no relayout: the screen says
        "grading" elsewhere, and the panel keeps its size until the verdict replaces it)."""
        self.add_class("-stale")

    def show_error(self, message: str) -> None:
        self.remove_class("-empty", "-stale")
        self._show(self._summary, Text(f"Grading failed inside tokdrill (not your code): {message}", style="bold red"))

    def show_verdict(self, verdict: Verdict, summary: Text | None = None) -> None:
        self.remove_class("-empty", "-stale")
        self._show(self._summary, summary or "")
        self._show(self._tests, verdict_text(verdict))
        self._show(self._diff, "")
        self.scroll_home(animate=False)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The height of the content at the width it is drawn at. Textual measures a box whose
        height follows its content at its full width, though the scroll bar's room is always kept
        (``scrollbar-gutter: stable``): a long verdict would be wrapped at two widths each time."""
        if self.styles.scrollbar_gutter == "stable":
            width = max(0, width - self.styles.scrollbar_size_vertical)
        return super().get_content_height(container, viewport, width)

    def after_verdict_shown(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the verdict shown last is on screen (see :meth:`KeptStatic.after_paint`)."""
        self._tests.after_paint(callback)

    def scroll_page(self, direction: int) -> bool:
        """Scroll most of a page down (1) or up (-1); False when there is nothing to scroll."""
        if self.has_class("-empty") or self.max_scroll_y == 0:
            return False
        step = max(1, self.scrollable_content_region.height - 2)
        self.scroll_to(y=self.scroll_y + direction * step, animate=False)
        return True

    def show_diff(self, diff: str) -> None:
        """After a pass: the user's code against the reference."""
        self.diff_text = diff
        if not diff:
            self._show(self._diff, Text("Your code matches the reference exactly.", style="green"))
        else:
            self._show(self._diff, Syntax(diff, "diff", theme="monokai", word_wrap=False))
