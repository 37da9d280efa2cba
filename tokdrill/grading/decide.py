"""The trusted decision: from what the grader observed (:class:`RunRecord`) to a :class:`Verdict`.

A run passes only if the child reported a result for every expected test, every one passed, it
said it was done, it exited normally, and nothing forged appeared on the result channel. A
test's result stands once it is a failure: a later report of the same test cannot undo it. Test
names and the concepts they check come from the grader (its own collection of a shipped drill's
tests, what a third-party drill's files declare), never from the child;
every text that does come from the child is capped here, per test and in total.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tokdrill.grading import protocol
from tokdrill.grading.limits import Limits
from tokdrill.grading.spec import bare_name
from tokdrill.grading.submission import SUBMISSION_FILENAME
from tokdrill.grading.verdict import OUTCOMES, Outcome, TestResult, Verdict

OUTPUT_SHOWN = 4000  # characters of the submission's own output kept in the verdict
MESSAGE_SHOWN = 4000  # characters of one test's message
MESSAGES_BUDGET = 256 * 1024  # characters of all test messages together
PROBLEM_SHOWN = 8000  # characters of the whole-submission problem
PROTECTIONS_SHOWN = 40


@dataclass
class RunRecord:
    """Everything the grader observed about one run."""

    expected: tuple[str, ...]
    limits: Limits
    concepts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    filename: str = SUBMISSION_FILENAME
    notice: str = ""
    messages: list[protocol.ChannelMessage] = field(default_factory=list)
    forged: int = 0
    channel_overflow: bool = False
    protections: list[str] = field(default_factory=list)  # added by the grader itself
    exit_code: int | None = None
    signal: int | None = None
    cpu_seconds: float = 0.0
    timed_out: bool = False
    stopped: bool = False  # the supervisor killed the child (deadline, output cap, grader gone)
    scratch_full: bool = False  # the supervisor stopped it: the scratch folder outgrew its limit
    output: bytes = b""
    output_truncated: bool = False
    supervisor_lost: bool = False
    finished: bool = False  # "done" arrived: the child was stopped without waiting for its exit
    seconds: float = 0.0


def decide(drill_id: str, record: RunRecord) -> Verdict:
    """The verdict on one run: read the child's messages, name what went wrong with the run,
    give every expected test a result, and pass only a complete, clean run."""
    channel = read_channel(record)
    if channel.internal:
        return _internal(drill_id, record, channel.protections, channel.internal)
    protections = channel.protections + record.protections
    if record.supervisor_lost:
        return _internal(drill_id, record, protections, "the grader lost track of the sandboxed process")
    ended = _how_it_ended(record, channel.running, channel.done or bool(channel.problems))
    problems = channel.problems + _run_problems(record, ended)
    tests = _test_results(record, channel, problems, ended)
    if not channel.tests_started and not problems:
        problems.append("the submission's tests never started")
    passed = not problems and channel.done and all(t.outcome == "passed" for t in tests)
    return Verdict(
        drill=drill_id,
        passed=passed,
        tests=tests,
        seconds=record.seconds,
        problem=_cap("\n".join(_cap(p, PROBLEM_SHOWN) for p in problems), PROBLEM_SHOWN),
        protections=tuple(protections),
        output=_output_text(record),
        notice=record.notice,
    )


@dataclass
class ChannelReading:
    """What the child's messages said, in the grader's terms: results of expected tests only (a
    failure stands against later reports), every text capped."""

    results: dict[str, TestResult] = field(default_factory=dict)
    running: str | None = None  # the test that started and has not reported
    problems: list[str] = field(default_factory=list)
    protections: list[str] = field(default_factory=list)
    ready: bool = False
    user_code: bool = False
    tests_started: bool = False
    done: bool = False
    internal: str = ""  # the harness failed before user code ran: tokdrill's fault


def read_channel(record: RunRecord) -> ChannelReading:
    """Read the messages in order; a harness failure before user code ran ends the reading."""
    reading = ChannelReading()
    for message in record.messages:
        _READERS[type(message)](reading, message, record)
        if reading.internal:
            break
    return reading


def _ready(reading: ChannelReading, message: protocol.Ready, record: RunRecord) -> None:
    if not reading.ready:  # the first one, sent before any user code ran
        reading.ready = True
        reading.protections = [_cap(p, 300) for p in message.protections[:PROTECTIONS_SHOWN]]


def _test_starts(reading: ChannelReading, message: protocol.HiddenTestStarts, record: RunRecord) -> None:
    reading.running = _cap(message.name, 300)


def _test_result(reading: ChannelReading, message: protocol.HiddenTestResult, record: RunRecord) -> None:
    """An expected test's first result, or a failure after a pass (one of its cases failed)."""
    reading.running = None
    name = expected_name(message.name, record.expected)
    if name is None:
        return
    outcome: Outcome = message.outcome if message.outcome in OUTCOMES else "error"
    previous = reading.results.get(name)
    if previous is None or (previous.outcome == "passed" and outcome != "passed"):
        detail = _cap(message.message, MESSAGE_SHOWN)
        if message.name != name and outcome != "passed":  # one case of a parametrized test
            detail = f"{_cap(message.name, 300)}: {detail}"
        reading.results[name] = TestResult(name, outcome, explain(detail, record.limits))


def _user_code(reading: ChannelReading, message: protocol.UserCodeStarts, record: RunRecord) -> None:
    reading.user_code = True


def _aborted(reading: ChannelReading, message: protocol.Aborted, record: RunRecord) -> None:
    reading.problems.append(f"your code stopped the test run: {message.message}")


def _tests_start(reading: ChannelReading, message: protocol.HiddenTestsStart, record: RunRecord) -> None:
    reading.tests_started = True


def _done(reading: ChannelReading, message: protocol.Done, record: RunRecord) -> None:
    reading.done = True


def _import_failed(reading: ChannelReading, message: protocol.ImportFailed, record: RunRecord) -> None:
    reading.problems.append(_import_problem(message, record.filename))


def _missing(reading: ChannelReading, message: protocol.Missing, record: RunRecord) -> None:
    reading.problems.append("missing from your code: " + "; ".join(message.messages[:20]))


def _internal_failure(reading: ChannelReading, message: protocol.InternalFailure, record: RunRecord) -> None:
    if reading.user_code:
        reading.problems.append(
            f"the grading harness failed while your code ran (did your code change it?):\n{message.message}"
        )
    else:
        reading.internal = "the grader failed inside tokdrill:\n" + _cap(message.message, PROBLEM_SHOWN)


_READERS: dict[type[protocol.Message], Callable[[ChannelReading, Any, RunRecord], None]] = {
    protocol.Ready: _ready,
    protocol.HiddenTestStarts: _test_starts,
    protocol.HiddenTestResult: _test_result,
    protocol.UserCodeStarts: _user_code,
    protocol.Aborted: _aborted,
    protocol.HiddenTestsStart: _tests_start,
    protocol.Done: _done,
    protocol.ImportFailed: _import_failed,
    protocol.Missing: _missing,
    protocol.InternalFailure: _internal_failure,
}


def _run_problems(record: RunRecord, ended: str) -> list[str]:
    """What went wrong with the run itself: forged lines, an overflowing channel, an abnormal end."""
    problems = []
    if record.forged:
        problems.append(
            f"{record.forged} forged or garbled line(s) appeared on the grader's private result channel; "
            "results are only accepted from the grader itself"
        )
    if record.channel_overflow:
        problems.append("the sandboxed process sent more than the result channel carries; the rest was dropped")
    if ended:
        problems.append(ended)
    return problems


def _test_results(
    record: RunRecord, channel: ChannelReading, problems: list[str], ended: str
) -> tuple[TestResult, ...]:
    """A result for every expected test, in the grader's order, with its concepts; the messages
    share :data:`MESSAGES_BUDGET` characters."""
    tests = []
    budget = MESSAGES_BUDGET
    running = expected_name(channel.running, record.expected) if channel.running is not None else None
    for name in record.expected:
        result = channel.results.get(name)
        concepts = record.concepts.get(name, ())
        if result is None:
            result = _unreported(record, name, running, problems, ended)
            if name != running:
                concepts = ()  # it never ran (the code did not import, or the run ended first): it caught nothing
        shown = result.message if len(result.message) <= budget else _cap(result.message, max(budget, 200))
        budget = max(0, budget - len(shown))
        tests.append(TestResult(name, result.outcome, shown, concepts))
    return tuple(tests)


def _unreported(record: RunRecord, name: str, running: str | None, problems: list[str], ended: str) -> TestResult:
    """The result of a test that did not report: cut short while it ran, or never run."""
    if name == running:
        outcome: Outcome = "timeout" if record.timed_out or _cpu_exhausted(record) else "error"
        return TestResult(name, outcome, f"this test was running when the run ended: {ended or 'no result reported'}")
    if problems:
        return TestResult(name, "error", "not run: " + problems[0].splitlines()[0][:300])
    return TestResult(name, "error", "no result reported for this test")


def expected_name(sent: str, expected: tuple[str, ...]) -> str | None:
    """The expected test a reported name stands for: itself, or, where the expected names carry
    no parameters (a third-party drill's declared tests), the test one of its cases belongs to.
    None for a name the grader does not expect: such a result counts for nothing."""
    if sent in expected:
        return sent
    bare = bare_name(sent)
    return bare if bare != sent and bare in expected else None


def _cap(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: max(limit - 50, 0)] + f" ... (cut at {limit} characters)"


def _how_it_ended(record: RunRecord, running: str | None, finished: bool) -> str:
    """A plain sentence for an abnormal end, or "" for a normal exit."""
    limits = record.limits
    during = f" (during {running})" if running else ""
    if record.output_truncated:
        return f"{limits.output_text()}, output truncated; the run was stopped{during}"
    if record.timed_out:
        return f"{limits.wall_text()} reached; the run was stopped{during}"
    if record.scratch_full:
        return f"{limits.scratch_text()} reached; the run was stopped{during}"
    if _cpu_exhausted(record):
        return f"{limits.cpu_text()} reached; the run was stopped{during}"
    if record.signal is not None:
        return _signal_text(record.signal, record.output, record.filename) + during
    if not finished and record.exit_code is not None:
        return (
            f"the process exited with code {record.exit_code}{during} before every test reported "
            "(did your code call os._exit() or end the process some other way?)"
        )
    return ""


def _cpu_exhausted(record: RunRecord) -> bool:
    if record.signal == signal.SIGXCPU:
        return True
    # At the CPU limit the kernel sends SIGKILL (the only signal a PID namespace's first process
    # cannot ignore). A SIGKILL the supervisor did not send, after most of the CPU allowance
    # (the limit is checked on scheduler ticks, the usage is exact), is that limit.
    return (
        record.signal == signal.SIGKILL and not record.stopped and record.cpu_seconds >= record.limits.cpu_seconds * 0.5
    )


def _signal_text(signum: int, output: bytes, filename: str) -> str:
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    if signum == signal.SIGSEGV:
        where = _fault_location(output, filename)
        return (
            "the process crashed with a segmentation fault (SIGSEGV): usually a C-stack overflow from very "
            f"deep recursion, or a crash in C code{where}"
        )
    if signum == signal.SIGABRT:
        return "the process aborted (SIGABRT)" + _fault_location(output, filename)
    if signum == signal.SIGKILL:
        return "the process was killed (SIGKILL) before every test reported"
    return f"the process was killed by {name} before every test reported"


def _fault_location(output: bytes, filename: str) -> str:
    """Point at the user's line from faulthandler's dump, if it names one."""
    text = output.decode("utf-8", "replace")
    lines = re.findall(r'File "' + re.escape(filename) + r'", line (\d+)', text)
    return f"; last line of your code on the stack: {filename} line {lines[0]}" if lines else ""


_PYTEST_HINT = re.compile(r"^E?\s*Use -v+ to get (more|the full) diff\.?\s*$", re.MULTILINE)


def explain(message: str, limits: Limits) -> str:
    """Prefix a test's failure text with the limit it hit, when the exception says so (and drop
    pytest's command-line hints, which mean nothing here)."""
    message = _PYTEST_HINT.sub("", message).rstrip()
    hints = []
    if "MemoryError" in message:
        hints.append(f"{limits.memory_text()} reached (MemoryError)")
    if "Resource temporarily unavailable" in message and ("fork" in message or "BlockingIOError" in message):
        hints.append(f"{limits.processes_text()} reached")
    if "File too large" in message:
        hints.append(f"{limits.file_size_text()} reached")
    if "No space left on device" in message:
        hints.append(f"{limits.scratch_text()} reached")
    if "Too many open files" in message:
        hints.append(f"{limits.open_files_text()} reached")
    if "RecursionError" in message:
        hints.append("RecursionError: maximum recursion depth exceeded (too deep recursion)")
    if "Network is unreachable" in message or "Connection refused" in message or _socket_refused(message):
        hints.append("no network in the sandbox")
    if "Operation not permitted" in message and any(w in message for w in ("fork", "Popen", "spawn", "subprocess")):
        hints.append("starting processes is refused in this sandbox")
    return "\n".join(hints + [message]) if hints else message


def _socket_refused(message: str) -> bool:
    return "socket" in message and ("Operation not permitted" in message or "Permission denied" in message)


def _import_problem(message: protocol.ImportFailed, filename: str) -> str:
    line, col = message.line, message.column
    where = f"{filename}, line {line}" + (f", column {col}" if col else "") if line else filename
    return f"your code failed to import ({where}): {_cap(message.message, PROBLEM_SHOWN)}"


def _output_text(record: RunRecord) -> str:
    text = record.output.decode("utf-8", "replace")
    if len(text) > OUTPUT_SHOWN:
        text = f"... (first {len(text) - OUTPUT_SHOWN} characters cut)\n" + text[-OUTPUT_SHOWN:]
    if record.output_truncated:
        text += f"\n... ({record.limits.output_text()}: output truncated)"
    return text


def _internal(drill_id: str, record: RunRecord, protections: list[str], message: str) -> Verdict:
    return internal_error(drill_id, record.expected, message, record.seconds, protections, record.notice)


def internal_error(
    drill_id: str,
    expected: tuple[str, ...],
    message: str,
    seconds: float = 0.0,
    protections: list[str] | None = None,
    notice: str = "",
) -> Verdict:
    """A verdict that blames tokdrill, not the submission."""
    text = "internal error in tokdrill's grader (not a problem with your code): " + message
    tests = tuple(TestResult(name, "error", "not run: internal grader error") for name in expected)
    return Verdict(drill_id, False, tests, seconds, text, tuple(protections or ()), internal=True, notice=notice)
