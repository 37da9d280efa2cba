"""The one rendering of a verdict for people (CLI text and the app's results panel)."""

from __future__ import annotations

from tokdrill.grading.report import printable, render_text, summary_line, verdict_spans
from tokdrill.grading.verdict import TestResult, Verdict


def _verdict(**changes: object) -> Verdict:
    base: dict[str, object] = {
        "drill": "tiny-pairs",
        "passed": False,
        "tests": (
            TestResult("t.py::a", "passed"),
            TestResult("t.py::b", "failed", "expected 1, got 2\n" + "\n".join(f"line {i}" for i in range(30))),
            TestResult("t.py::c", "error", "not run: your code failed to import"),
        ),
        "seconds": 0.123,
        "problem": "your code failed to import (mine.py, line 3): NameError",
        "output": "hello\n",
    }
    base.update(changes)
    return Verdict(**base)  # type: ignore[arg-type]


def test_control_characters_become_visible_escapes():
    assert printable("a\x1b[2Jb\r\x07\x9b\u202e\tc\nd") == "a\\x1b[2Jb\\x0d\\x07\\x9b\\u202e\tc\nd"
    assert printable("\udcff") == "\\udcff"  # a lone surrogate cannot reach a terminal encoder
    assert printable("plain ünïcode ✓") == "plain ünïcode ✓"


def test_text_lists_each_test_clips_long_messages_and_ends_with_the_summary():
    text = render_text(_verdict())
    lines = text.splitlines()
    assert lines[0] == "   PASS  t.py::a"
    assert lines[1] == "   FAIL  t.py::b"
    assert lines[2].strip() == "expected 1, got 2"
    assert any("more lines not shown; --json has the full message" in line for line in lines)
    assert "(1 test not run: see the problem below)" in text
    assert "your code printed:\n    hello" in text
    assert "problem: your code failed to import (mine.py, line 3): NameError" in text
    assert lines[-1] == "FAILED tiny-pairs: 1/3 tests passed (1 failed, 1 error) in 0.12 s"


def test_the_sandbox_note_is_shown_only_when_asked():
    verdict = _verdict(notice="The sandbox is weak on this machine: ...")
    assert "note: The sandbox is weak" in render_text(verdict)
    assert "note:" not in render_text(verdict, with_notice=False)


def test_every_span_from_the_submission_is_escaped():
    verdict = _verdict(
        tests=(TestResult("t.py::b", "failed", "bad \x1b]0;x\x07"),), output="\x1b[31m", problem="\x1b[2J"
    )
    joined = "".join(span.text for span in verdict_spans(verdict))
    assert "\x1b" not in joined and "\x07" not in joined
    assert summary_line(_verdict(internal=True)).startswith("INTERNAL ERROR tiny-pairs")
    assert summary_line(_verdict(passed=True, tests=(TestResult("t.py::a", "passed"),))) == (
        "PASSED tiny-pairs: 1/1 tests passed in 0.12 s"
    )
