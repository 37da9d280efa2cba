"""The trusted decision: from what the parent observed (:class:`RunRecord`) to a :class:`Verdict`.

A run passes only if the child reported a result for every expected test, every one passed, it
said it was done, it exited normally, and nothing forged appeared on the result channel.
"""

from __future__ import annotations

import re
import signal

from tokdrill.grading.limits import Limits
from tokdrill.grading.sandbox import RunRecord
from tokdrill.grading.verdict import Outcome, TestResult, Verdict

OUTPUT_SHOWN = 4000  # characters of the submission's own output kept in the verdict


def decide(drill_id: str, record: RunRecord) -> Verdict:
    limits = record.limits
    results: dict[str, TestResult] = {}
    running: str | None = None
    problems: list[str] = []
    protections = list(record.protections)
    done = tests_started = user_code = False
    for message in record.messages:
        kind = message["k"]
        if kind == "ready":
            protections += [str(p) for p in message.get("protections", [])]  # type: ignore[union-attr]
        elif kind == "start":
            running = str(message.get("name"))
        elif kind == "result":
            name = str(message.get("name"))
            if name in record.expected and name not in results:
                outcome = message.get("outcome")
                outcome = outcome if outcome in ("passed", "failed", "error", "timeout") else "error"
                results[name] = TestResult(name, outcome, explain(str(message.get("message", "")), limits))  # type: ignore[arg-type]
            running = None
        elif kind == "user_code":
            user_code = True
        elif kind == "aborted":
            problems.append(f"your code stopped the test run: {message.get('message', '')}")
        elif kind == "tests_started":
            tests_started = True
        elif kind == "done":
            done = True
        elif kind == "import_error":
            problems.append(_import_problem(message))
        elif kind == "missing":
            names = message.get("messages") or []
            problems.append("missing from your code: " + "; ".join(str(n) for n in names))  # type: ignore[union-attr]
        elif kind == "internal" and user_code:
            problems.append(
                f"the grading harness failed while your code ran (did your code change it?):\n{message.get('message', '')}"
            )
        elif kind == "internal":
            return _internal(
                drill_id, record, protections, "the grader failed inside tokdrill:\n" + str(message.get("message", ""))
            )

    ended = _how_it_ended(record, running, done or bool(problems))
    if record.supervisor_lost:
        return _internal(drill_id, record, protections, "the grader lost track of the sandboxed process")
    if record.forged:
        problems.append(
            f"{record.forged} forged or garbled line(s) appeared on the grader's private result channel; "
            "results are only accepted from the grader itself"
        )
    if ended:
        problems.append(ended)

    tests: list[TestResult] = []
    not_run = "not run: " + (problems[0].splitlines()[0] if problems else "the run ended early")
    for name in record.expected:
        if name in results:
            tests.append(results[name])
        elif name == running:
            outcome: Outcome = "timeout" if record.timed_out or _cpu_exhausted(record) else "error"
            tests.append(
                TestResult(name, outcome, f"this test was running when the run ended: {ended or 'no result reported'}")
            )
        else:
            tests.append(TestResult(name, "error", not_run if problems else "no result reported for this test"))
    if not tests_started and not problems:
        problems.append("the submission's tests never started")
    passed = not problems and done and all(t.outcome == "passed" for t in tests)
    return Verdict(
        drill=drill_id,
        passed=passed,
        tests=tuple(tests),
        seconds=record.seconds,
        problem="\n".join(problems),
        protections=tuple(protections),
        output=_output_text(record),
    )


def _how_it_ended(record: RunRecord, running: str | None, finished: bool) -> str:
    """A plain sentence for an abnormal end, or "" for a normal exit."""
    limits = record.limits
    during = f" (during {running})" if running else ""
    if record.output_truncated:
        return f"{limits.output_text()}, output truncated; the run was stopped{during}"
    if record.timed_out:
        return f"{limits.wall_text()} reached; the run was stopped{during}"
    if _cpu_exhausted(record):
        return f"{limits.cpu_text()} reached; the run was stopped{during}"
    if record.signal is not None:
        return _signal_text(record.signal, record.output) + during
    if not finished and record.exit_code is not None:
        return (
            f"the process exited with code {record.exit_code}{during} before every test reported "
            "(did your code call os._exit() or end the process some other way?)"
        )
    return ""


def _cpu_exhausted(record: RunRecord) -> bool:
    if record.signal == signal.SIGXCPU:
        return True
    # RLIMIT_CPU is enforced on scheduler ticks: the kill can land a little before the full second.
    return record.signal == signal.SIGKILL and record.cpu_seconds >= record.limits.cpu_seconds * 0.9


def _signal_text(signum: int, output: bytes) -> str:
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    if signum == signal.SIGSEGV:
        where = _fault_location(output)
        return (
            "the process crashed with a segmentation fault (SIGSEGV): usually a C-stack overflow from very "
            f"deep recursion, or a crash in C code{where}"
        )
    if signum == signal.SIGABRT:
        return "the process aborted (SIGABRT)" + _fault_location(output)
    if signum == signal.SIGKILL:
        return "the process was killed (SIGKILL) before every test reported"
    return f"the process was killed by {name} before every test reported"


def _fault_location(output: bytes) -> str:
    """Point at the user's line from faulthandler's dump, if it names one."""
    text = output.decode("utf-8", "replace")
    lines = re.findall(r'File "submission\.py", line (\d+)', text)
    return f"; last line of your code on the stack: submission.py line {lines[0]}" if lines else ""


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
    if "Too many open files" in message:
        hints.append(f"{limits.open_files_text()} reached")
    if "RecursionError" in message:
        hints.append("RecursionError: maximum recursion depth exceeded")
    if "Network is unreachable" in message or "Connection refused" in message:
        hints.append("no network in the sandbox")
    return "\n".join(hints + [message]) if hints else message


def _import_problem(message: dict[str, object]) -> str:
    line, col = message.get("line") or 0, message.get("column") or 0
    where = f"submission.py, line {line}" + (f", column {col}" if col else "") if line else "submission.py"
    return f"your code failed to import ({where}): {message.get('message', '')}"


def _output_text(record: RunRecord) -> str:
    text = record.output.decode("utf-8", "replace")
    if len(text) > OUTPUT_SHOWN:
        text = f"... (first {len(text) - OUTPUT_SHOWN} characters cut)\n" + text[-OUTPUT_SHOWN:]
    if record.output_truncated:
        text += f"\n... ({record.limits.output_text()}: output truncated)"
    return text


def _internal(drill_id: str, record: RunRecord, protections: list[str], message: str) -> Verdict:
    return internal_error(drill_id, record.expected, message, record.seconds, protections)


def internal_error(
    drill_id: str, expected: tuple[str, ...], message: str, seconds: float = 0.0, protections: list[str] | None = None
) -> Verdict:
    """A verdict that blames tokdrill, not the submission."""
    text = "internal error in tokdrill's grader (not a problem with your code): " + message
    tests = tuple(TestResult(name, "error", "not run: internal grader error") for name in expected)
    return Verdict(drill_id, False, tests, seconds, text, tuple(protections or ()), internal=True)
