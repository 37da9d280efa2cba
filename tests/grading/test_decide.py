"""The decision from what was observed to a verdict, step by step, without running a sandbox:
only a complete, clean run passes, and the names, order and concepts come from the grader."""

from __future__ import annotations

import signal

from tokdrill.grading import protocol as wire
from tokdrill.grading.decide import RunRecord, decide, read_channel
from tokdrill.grading.limits import Limits
from tokdrill.grading.protocol import ChannelMessage

EXPECTED = ("t.py::a", "t.py::b")
CONCEPTS = {"t.py::a": ("pair-counting",), "t.py::b": ("merge-order",)}


def _record(*messages: ChannelMessage, **observed: object) -> RunRecord:
    record = RunRecord(expected=EXPECTED, limits=Limits(), concepts=dict(CONCEPTS), messages=list(messages))
    for name, value in {"exit_code": 0, "finished": True, **observed}.items():
        setattr(record, name, value)
    return record


def _run(*results: wire.HiddenTestResult) -> list[ChannelMessage]:
    started: list[ChannelMessage] = [
        wire.Ready(protections=["seccomp"]),
        wire.UserCodeStarts(),
        wire.HiddenTestsStart(),
    ]
    for result in results:
        started += [wire.HiddenTestStarts(name=result.name), result]
    return started


def test_a_complete_clean_run_passes_with_the_graders_concepts() -> None:
    verdict = decide(
        "tiny", _record(*_run(*(wire.HiddenTestResult(name=n, outcome="passed") for n in EXPECTED)), wire.Done())
    )
    assert verdict.passed and verdict.problem == "" and verdict.protections == ("seccomp",)
    assert [(t.name, t.outcome, t.concepts) for t in verdict.tests] == [
        ("t.py::a", "passed", ("pair-counting",)),
        ("t.py::b", "passed", ("merge-order",)),
    ]


def test_without_done_or_with_a_forged_line_nothing_passes() -> None:
    results = [wire.HiddenTestResult(name=n, outcome="passed") for n in EXPECTED]
    assert not decide("tiny", _record(*_run(*results))).passed
    forged = decide("tiny", _record(*_run(*results), wire.Done(), forged=1))
    assert not forged.passed and "1 forged or garbled line(s)" in forged.problem


def test_unexpected_names_repeats_and_unknown_outcomes_are_not_taken_at_their_word() -> None:
    reading = read_channel(
        _record(
            *_run(
                wire.HiddenTestResult(name="t.py::a", outcome="failed", message="expected 1"),
                wire.HiddenTestResult(name="t.py::a", outcome="passed"),
                wire.HiddenTestResult(name="t.py::sneaky", outcome="passed"),
                wire.HiddenTestResult(name="t.py::b", outcome="magnificent"),
            )
        )
    )
    assert {name: result.outcome for name, result in reading.results.items()} == {
        "t.py::a": "failed",
        "t.py::b": "error",
    }
    assert reading.running is None and reading.tests_started and reading.user_code


def test_a_failed_case_of_a_declared_test_fails_it_after_a_passing_case() -> None:
    """Expected names without parameters (a third-party drill's declared tests) stand for each case."""
    record = _record(
        *_run(
            wire.HiddenTestResult(name="t.py::a[1]", outcome="passed"),
            wire.HiddenTestResult(name="t.py::a[2]", outcome="failed", message="expected 2"),
            wire.HiddenTestResult(name="t.py::a[3]", outcome="passed"),
            wire.HiddenTestResult(name="t.py::b", outcome="passed"),
        ),
        wire.Done(),
    )
    verdict = decide("tiny", record)
    assert not verdict.passed
    assert (verdict.tests[0].outcome, verdict.tests[0].message) == ("failed", "t.py::a[2]: expected 2")


def test_a_test_cut_short_by_the_cpu_limit_is_a_timeout_and_the_rest_never_ran() -> None:
    messages = [*_run(), wire.HiddenTestStarts(name="t.py::a")]
    verdict = decide("tiny", _record(*messages, signal=signal.SIGXCPU, exit_code=None, finished=False))
    a, b = verdict.tests
    assert (a.outcome, a.concepts) == ("timeout", ("pair-counting",))
    assert a.message.startswith("this test was running when the run ended: ")
    assert (b.outcome, b.concepts) == ("error", ())  # it never ran: it caught nothing
    assert b.message.startswith("not run: ") and "(during t.py::a)" in verdict.problem


def test_an_import_error_names_the_users_file_and_line() -> None:
    failed = wire.ImportFailed(error_type="NameError", line=3, column=5, message="NameError: name 'x' is not defined")
    verdict = decide("tiny", _record(wire.Ready(), wire.UserCodeStarts(), failed, filename="mine.py"))
    assert verdict.problem.startswith("your code failed to import (mine.py, line 3, column 5): NameError")
    assert [t.message for t in verdict.tests] == ["not run: " + verdict.problem.splitlines()[0][:300]] * 2


def test_a_harness_failure_is_tokdrills_before_user_code_and_the_codes_after() -> None:
    ours = decide("tiny", _record(wire.Ready(protections=["userns"]), wire.InternalFailure(message="KeyError: 'x'")))
    assert ours.internal and "the grader failed inside tokdrill:\nKeyError: 'x'" in ours.problem
    assert ours.protections == ("userns",)
    theirs = decide("tiny", _record(wire.Ready(), wire.UserCodeStarts(), wire.InternalFailure(message="boom")))
    assert not theirs.internal and "the grading harness failed while your code ran" in theirs.problem
    stopped = decide("tiny", _record(*_run(), wire.Aborted(message="KeyboardInterrupt")))
    assert "your code stopped the test run: KeyboardInterrupt" in stopped.problem


def test_a_lost_supervisor_blames_the_grader() -> None:
    verdict = decide("tiny", _record(*_run(), supervisor_lost=True))
    assert verdict.internal and "lost track of the sandboxed process" in verdict.problem
