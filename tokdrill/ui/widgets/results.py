"""The results panel: the verdict with failing tests first, then after a pass the time summary,
the typing figures and the diff against the reference. It scrolls with keys while the editor keeps
focus (:meth:`ResultsPanel.scroll_page`)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tokdrill.grading.verdict import Verdict

_MARKS = {"passed": ("✓", "green"), "failed": ("✗", "red"), "error": ("!", "red"), "timeout": ("⌛", "yellow")}
MESSAGE_LINES = 12  # of each failing test's message; the assertion lines come first


def _failure_lines(message: str) -> list[str]:
    """A failing test's message with its assertion (``E`` lines) first, then where it failed."""
    lines = message.rstrip().splitlines()
    asserted = [line for line in lines if line.startswith("E ")]
    rest = [line for line in lines if not line.startswith("E ")]
    return (asserted + rest)[:MESSAGE_LINES]


def verdict_text(verdict: Verdict) -> Text:
    """A readable listing of a verdict: headline, whole-submission problem, then the failing tests
    (each with its assertion first) and the passing ones, one line each."""
    passed = sum(t.outcome == "passed" for t in verdict.tests)
    out = Text()
    if verdict.passed:
        out.append(f"PASSED  all {len(verdict.tests)} hidden tests", style="bold green")
    else:
        out.append(f"NOT YET  {passed} of {len(verdict.tests)} hidden tests pass", style="bold red")
    out.append(f" · graded in {verdict.seconds:.2f} s", style="dim")
    if verdict.problem:
        out.append("\n" + verdict.problem.rstrip(), style="yellow")
    files = {t.name.partition("::")[0] for t in verdict.tests}
    for test in sorted(verdict.tests, key=lambda t: t.outcome == "passed"):  # failures first
        mark, colour = _MARKS.get(test.outcome, ("?", "white"))
        name = (test.name.partition("::")[2] or test.name) if len(files) == 1 else test.name
        out.append(f"\n{mark} ", style=f"bold {colour}")
        if test.outcome != "passed":
            out.append(f"{test.outcome} ", style=colour)
        out.append(name, style="dim" if test.outcome == "passed" else "")
        if test.outcome != "passed":
            for line in _failure_lines(test.message):
                out.append(f"\n    {line}", style="" if line.startswith("E ") else "dim")
    return out


class ResultsPanel(VerticalScroll, can_focus=True):
    """Shows grading progress, a verdict, and after a pass the time summary and the diff."""

    DEFAULT_CSS = """
    ResultsPanel { height: auto; max-height: 50%; border-top: solid $primary; padding: 0 1; }
    ResultsPanel.-empty { display: none; }
    ResultsPanel > Static { width: 1fr; height: auto; }
    ResultsPanel > Static.-blank { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")
        self._summary = Static("", id="summary", classes="-blank")
        self._tests = Static("", id="tests", classes="-blank")
        self._diff = Static("", id="diff", classes="-blank")
        self.diff_text = ""

    def compose(self) -> ComposeResult:
        yield self._summary
        yield self._diff  # after a pass: the diff right under the time summary, then the tests
        yield self._tests

    @staticmethod
    def _show(part: Static, content: RenderableType) -> None:
        part.update(content)
        part.set_class(content == "", "-blank")

    def show_grading(self) -> None:
        self.remove_class("-empty")
        self._show(self._summary, Text("Grading…", style="italic"))
        self._show(self._tests, "")
        self._show(self._diff, "")

    def show_error(self, message: str) -> None:
        self.remove_class("-empty")
        self._show(self._summary, Text(f"Grading failed inside tokdrill (not your code): {message}", style="bold red"))

    def show_verdict(self, verdict: Verdict, summary: Text | None = None) -> None:
        self.remove_class("-empty")
        self._show(self._summary, summary or "")
        self._show(self._tests, verdict_text(verdict))
        self._show(self._diff, "")
        self.scroll_home(animate=False)

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
