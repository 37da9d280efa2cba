"""Everything that flows from a submission to the trusted side is bounded: messages, reprs,
output and syntax-error lines are cut (and say so), the result reader keeps a bounded buffer,
and a verdict document stays under 1 MB whatever the submission does."""

from __future__ import annotations

import json
import os
import sys
from types import SimpleNamespace

import pytest
from grading_helpers import FAST_LIMITS, GOOD_SOURCE, declared, with_body

from tokdrill.grading.protocol import CHANNEL_LIMIT, LINE_LIMIT, ChannelReader, Done, Reporter, new_nonce

MEGABYTE = 1_000_000


def _size(verdict) -> int:
    return len(json.dumps(verdict.to_json()).encode())


def test_two_megabyte_assertion_message_is_cut(grader, tiny_drill):
    verdict = grader.grade(tiny_drill, with_body("raise AssertionError('m' * 2_000_000)"), limits=FAST_LIMITS)
    message = verdict.tests[0].message
    assert verdict.tests[0].outcome == "failed"
    assert "AssertionError" in message and "cut at" in message
    assert len(message) < 10_000
    assert _size(verdict) < MEGABYTE


def test_two_megabyte_exception_at_import_is_cut(grader, tiny_drill):
    verdict = grader.grade(tiny_drill, "raise ValueError('i' * 2_000_000)\n" + GOOD_SOURCE, limits=FAST_LIMITS)
    assert "ValueError" in verdict.problem and "cut at" in verdict.problem
    assert len(verdict.problem) < 10_000
    assert _size(verdict) < MEGABYTE


def test_huge_repr_is_cut(grader, tiny_drill):
    source = "class Loud(dict):\n    def __repr__(self):\n        return 'r' * 3_000_000\n\n"
    source += "def count_pairs(word_freqs):\n    return Loud()\n"
    verdict = grader.grade(tiny_drill, source, limits=FAST_LIMITS)
    assert verdict.tests[0].outcome == "failed"
    assert max(len(t.message) for t in verdict.tests) < 10_000
    assert _size(verdict) < MEGABYTE


def test_syntax_error_on_a_very_long_line_shows_a_window_with_the_caret(grader, tiny_drill):
    source = "x = '" + "a" * 900_000 + "' $ 1\n" + GOOD_SOURCE
    verdict = grader.grade(tiny_drill, source, limits=FAST_LIMITS)
    assert "SyntaxError" in verdict.problem
    caret_line = next(line for line in verdict.problem.splitlines() if line.strip() == "^")
    shown = verdict.problem.splitlines()[verdict.problem.splitlines().index(caret_line) - 1]
    assert "' $ 1" in shown, verdict.problem  # the window is the part of the line around the error
    if sys.version_info >= (3, 11, 7):  # 3.11.2 (Debian 12) reports a wrong column on very long lines
        assert shown[len(caret_line) - 1] == "$", verdict.problem  # the caret under the offending character
    assert len(verdict.problem) < 2_000


def test_flooding_the_result_channel_fails_and_stays_small(grader, tiny_drill):
    body = """
import os, stat
junk = b"x" * (1 << 20)
for fd in range(3, 64):
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            for _ in range(10):
                os.write(fd, junk)
    except OSError:
        pass
"""
    verdict = grader.grade(tiny_drill, with_body(body), limits=FAST_LIMITS)
    assert not verdict.passed
    assert "forged or garbled" in verdict.problem or "more than the result channel carries" in verdict.problem
    assert _size(verdict) < MEGABYTE


def test_many_failing_tests_with_long_messages_stay_under_a_megabyte(warm_grader, tmp_path):
    (tmp_path / "conftest.py").write_text(
        "import pytest\n\n@pytest.fixture\ndef impl(request):\n"
        "    return request.config.pluginmanager.get_plugin('tokdrill-submission').module\n"
    )
    hidden = tmp_path / "test_many.py"
    hidden.write_text(
        "".join(f"def test_{i}(impl):\n    assert impl.count_pairs({{}}) == 'x' * 5000\n\n" for i in range(400))
    )
    drill = SimpleNamespace(id="many", symbols=("count_pairs",), hidden_tests=(hidden,), test_concepts=declared(hidden))
    verdict = warm_grader.grade(drill, GOOD_SOURCE)
    assert len(verdict.tests) == 400 and all(t.outcome == "failed" for t in verdict.tests)
    assert _size(verdict) < MEGABYTE


def test_channel_reader_skips_an_overlong_line_without_keeping_it():
    nonce = new_nonce()
    reader = ChannelReader(nonce)
    chunk = b"y" * 4096
    for _ in range(4 * LINE_LIMIT // len(chunk)):
        reader.feed(chunk)
        assert len(reader._line) <= LINE_LIMIT  # bounded memory, whatever the input
    read_end, write_end = os.pipe()
    Reporter(write_end, nonce).send(Done())
    os.close(write_end)
    reader.feed(b"\n" + os.read(read_end, 4096))
    os.close(read_end)
    reader.close()
    assert reader.forged == 1
    assert [m.kind for m in reader.messages] == ["done"]


def test_channel_reader_stops_reading_past_its_total_limit():
    reader = ChannelReader(new_nonce())
    line = b'{"n": "x", "k": "start"}\n' * 1000
    for _ in range(CHANNEL_LIMIT // len(line) + 2):
        reader.feed(line)
    assert reader.overflowed
    kept = reader.forged + len(reader.messages)
    reader.feed(line)
    assert reader.forged + len(reader.messages) == kept


@pytest.mark.parametrize("size", [10, 100_000, 5_000_000])
def test_verdict_json_of_any_output_is_small(grader, tiny_drill, size):
    verdict = grader.grade(tiny_drill, f"print('o' * {size})\n" + GOOD_SOURCE, limits=FAST_LIMITS)
    assert len(verdict.output) <= 5000
    assert _size(verdict) < MEGABYTE
