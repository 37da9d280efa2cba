"""How a verdict reads to a person: one rendering for `tokdrill check` and the app's results panel.

:func:`verdict_spans` lays a verdict out as styled spans (each test with its mark and message,
the code's own output, the problem, the sandbox notice); :func:`summary_line` is the one-line
outcome. The command line prints the spans then the summary; the app shows the summary first and
maps each style to a colour. Every text that may come from a submission goes through
:func:`printable`, so control bytes (escape sequences, carriage returns, bidirectional overrides)
are shown as visible escapes and never reach a terminal as commands. :func:`short_message` cuts
a test's failure text for a person (file names without their folder, a bounded length).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from msgspec import Struct

if TYPE_CHECKING:  # printable() alone is used where no verdict is (the app's launch, every command)
    from tokdrill.grading.verdict import Verdict

Style = Literal["plain", "pass", "fail", "warn", "dim", "heading"]
MESSAGE_LIMIT = 2000  # characters of one test's failure text
MARKS = {"passed": "PASS", "failed": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}
MARK_STYLES: dict[str, Style] = {"passed": "pass", "failed": "fail", "error": "fail", "timeout": "warn"}
MESSAGE_LINES = 12  # lines of each failure message shown (the JSON output has them all)
_INDENT = " " * 11


class Span(Struct, frozen=True):
    """A piece of text and how it should look."""

    text: str
    style: Style = "plain"


def _escape_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in [*range(0x20), *range(0x7F, 0xA0)]:
        if chr(code) not in "\n\t":
            table[code] = f"\\x{code:02x}"
    for code in [0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029, 0xFEFF]:
        table[code] = f"\\u{code:04x}"
    return table


_ESCAPES = _escape_table()
_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` with every control character (bar newline and tab), bidirectional control and
    lone surrogate written as a visible escape such as ``\\x1b``."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text.translate(_ESCAPES))


def summary_line(verdict: Verdict) -> str:
    """``PASSED drill: 3/3 tests passed in 0.05 s`` (or FAILED / INTERNAL ERROR, with counts)."""
    total = len(verdict.tests)
    passed = sum(1 for t in verdict.tests if t.outcome == "passed")
    counts = {o: sum(1 for t in verdict.tests if t.outcome == o) for o in ("failed", "error", "timeout")}
    detail = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
    head = "INTERNAL ERROR" if verdict.internal else ("PASSED" if verdict.passed else "FAILED")
    tail = f" ({detail})" if detail else ""
    return f"{head} {printable(verdict.drill)}: {passed}/{total} tests passed{tail} in {verdict.seconds:.2f} s"


def summary_style(verdict: Verdict) -> Style:
    return "pass" if verdict.passed else "fail"


def verdict_spans(
    verdict: Verdict, *, with_notice: bool = True, message_lines: int = MESSAGE_LINES, compact: bool = False
) -> list[Span]:
    """Everything but the summary line, top to bottom; each span ends its own line(s).

    ``compact`` is the layout for a small panel: a whole-submission problem (the code does not
    import, a limit was hit) comes first, the failing tests before the passing ones, each message
    shows its assertion lines (pytest's ``E`` lines) before where it failed, and test names leave
    out their file when every test comes from one file.
    """
    spans: list[Span] = []
    problem = Span("problem: " + printable(verdict.problem.rstrip()) + "\n", "warn") if verdict.problem else None
    if problem is not None and compact:
        spans.append(Span(problem.text + "\n", problem.style))
    not_run = 0
    tests = sorted(verdict.tests, key=lambda t: t.outcome == "passed") if compact else verdict.tests
    one_file = len({t.name.partition("::")[0] for t in verdict.tests}) == 1
    for test in tests:
        name = (test.name.partition("::")[2] or test.name) if compact and one_file else test.name
        spans.append(
            Span(f"{MARKS.get(test.outcome, test.outcome.upper()):>7}  ", MARK_STYLES.get(test.outcome, "fail"))
        )
        spans.append(Span(printable(name) + "\n"))
        if test.message.startswith("not run: ") and verdict.problem:
            not_run += 1  # the reason is the problem shown below; say it once
        elif test.outcome != "passed" and test.message:
            lines = printable(test.message).splitlines()
            if compact:
                lines = [line for line in lines if line.startswith("E ")] + [
                    line for line in lines if not line.startswith("E ")
                ]
            lines = _clip(lines, message_lines)
            spans.append(Span("".join(f"{_INDENT}{line}\n" for line in lines), "dim"))
    if not_run:
        where = "above" if compact else "below"
        spans.append(Span(f"({not_run} test{'s' if not_run != 1 else ''} not run: see the problem {where})\n", "dim"))
    if verdict.output.strip():
        lines = _clip(printable(verdict.output.rstrip()).splitlines(), message_lines, keep_tail=True)
        spans.append(Span("\nyour code printed:\n", "heading"))
        spans.append(Span("".join(f"    {line}\n" for line in lines), "dim"))
    if problem is not None and not compact:
        spans.append(Span("\n" + problem.text, problem.style))
    if with_notice and verdict.notice:
        spans.append(Span("\nnote: " + printable(verdict.notice) + "\n", "warn"))
    return spans


def render_text(verdict: Verdict, *, with_notice: bool = True) -> str:
    """The verdict as plain text for a terminal: spans, a blank line, then the summary line."""
    body = "".join(span.text for span in verdict_spans(verdict, with_notice=with_notice))
    return body + "\n" + summary_line(verdict)


def _clip(lines: list[str], keep: int, keep_tail: bool = False) -> list[str]:
    if len(lines) <= keep:
        return lines
    cut = len(lines) - keep
    note = f"... ({cut} more line{'s' if cut != 1 else ''} not shown; --json has the full message)"
    return [note, *lines[-keep:]] if keep_tail else [*lines[:keep], note]


_TEST_FILE_PATH = re.compile(r"(?:[A-Za-z]:)?[\\/][^\s:'\"]*[\\/](test_\w+\.py)")


def short_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A report's text for a person: test files named without their folder, capped in size."""
    if len(text) > 4 * limit:
        text = text[: 2 * limit] + "\n" + text[-2 * limit :]  # keep the regex's work bounded
    text = _TEST_FILE_PATH.sub(r"\1", text.strip())
    if len(text) <= limit:
        return text
    return text[: limit - 60].rstrip() + f"\n... (message cut at {limit} characters)"
