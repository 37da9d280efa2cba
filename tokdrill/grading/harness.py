"""Child side of the sandbox: lock the process down, then load and test the submission.

Runs in the forked process that will execute user code. Everything up to reading the source is
trusted set-up (see :mod:`tokdrill.grading.confine`); after that, whatever the user's code does,
the grader decides the verdict from what arrives on the result channel and how the process
ended. :func:`child_main` never returns.
"""

from __future__ import annotations

import faulthandler
import io
import linecache
import os
import sys
import traceback
import types
from dataclasses import dataclass

from tokdrill.grading.confine import Confinement, Lockdown
from tokdrill.grading.inprocess import ResultCollector
from tokdrill.grading.prepared import PreparedDrill
from tokdrill.grading.protocol import (
    Aborted,
    Done,
    HiddenTestResult,
    HiddenTestsStart,
    HiddenTestStarts,
    ImportFailed,
    InternalFailure,
    Missing,
    Ready,
    Reporter,
    UserCodeStarts,
)
from tokdrill.grading.pytest_session import PreparationError
from tokdrill.grading.spec import test_name
from tokdrill.grading.submission import build_module

EXIT_INTERNAL = 70
TEXT_LIMIT = 4000  # characters of any one text the harness reports about the user's code
SOURCE_LIMIT = 4 << 20  # bytes of source read (the grader refuses larger files before this)


@dataclass(frozen=True)
class ChildPlan:
    """What the child needs, fixed by the grader before forking."""

    result_fd: int
    output_fd: int
    source_fd: int
    nonce: str
    confinement: Confinement
    filename: str  # the name the user knows their code by, in messages and tracebacks


def child_main(prepared: PreparedDrill, plan: ChildPlan) -> None:
    """Entry point of the sandboxed child; ends the process with ``os._exit``."""
    code = EXIT_INTERNAL
    reporter = Reporter(plan.result_fd, plan.nonce)
    try:
        _redirect_stdio(plan.output_fd)
        lockdown = Lockdown(plan.confinement)
        lockdown.isolate()

        def seal() -> None:
            reporter.send(Ready(protections=lockdown.seal()))

        def load() -> types.ModuleType | None:
            return _load_submission(prepared, _read_source(plan.source_fd), plan.filename, reporter)

        if prepared.session.run(seal, load, [StreamingReporter(reporter)]):
            reporter.send(Done())
        code = 0
    except BaseException as exc:  # noqa: BLE001 - report our own failure as ours
        try:
            if "user_code" in reporter.sent:
                detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()[:TEXT_LIMIT]
                reporter.send(Aborted(message=detail))
            elif isinstance(exc, PreparationError):  # a drill's tests collected in here: its words suffice
                reporter.send(InternalFailure(message=f"the drill's hidden tests cannot grade: {exc}"[:TEXT_LIMIT]))
            else:
                reporter.send(InternalFailure(message=traceback.format_exc(limit=8)[-3000:]))
        except BaseException:  # noqa: BLE001
            pass
    finally:
        _flush_stdio()
        os._exit(code)


def _read_source(fd: int) -> str:
    chunks = []
    size = 0
    while size <= SOURCE_LIMIT:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    os.close(fd)
    return b"".join(chunks).decode("utf-8", "surrogatepass")


def _redirect_stdio(output_fd: int) -> None:
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(output_fd)
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(
        io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="replace", write_through=True
    )
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="replace", write_through=True
    )
    sys.__stdout__, sys.__stderr__ = sys.stdout, sys.stderr  # type: ignore[misc]  # read-only in typeshed
    faulthandler.enable(file=sys.stderr, all_threads=False)


def _flush_stdio() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            pass


def _load_submission(
    prepared: PreparedDrill, source: str, filename: str, reporter: Reporter
) -> types.ModuleType | None:
    """Build the module from the user's source; report why not and return None if it fails."""
    reporter.send(UserCodeStarts())  # from here on, anything odd may be the submission's doing
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    try:
        module, missing = build_module(source, prepared.spec.symbols, filename=filename)
    except BaseException as exc:  # noqa: BLE001 - anything the user's import does is theirs
        reporter.send(describe_import_error(exc, filename))
        return None
    if missing:
        reporter.send(Missing(symbols=[m.symbol for m in missing], messages=[str(m) for m in missing]))
        return None
    reporter.send(HiddenTestsStart())
    return module


class StreamingReporter(ResultCollector):
    """Sends each test's start and final result as soon as pytest knows it."""

    def __init__(self, reporter: Reporter) -> None:
        super().__init__()
        self._reporter = reporter

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        self._reporter.send(HiddenTestStarts(name=test_name(nodeid)))

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        result = self.results.get(test_name(nodeid))
        if result is not None:
            self._reporter.send(HiddenTestResult(name=result.name, outcome=result.outcome, message=result.message))


def describe_import_error(exc: BaseException, filename: str) -> ImportFailed:
    """Kind, location in the user's file and a readable message for an exception at import."""
    kind = type(exc).__name__
    if isinstance(exc, SyntaxError) and (exc.filename in (filename, None)):
        line, col = exc.lineno or 0, exc.offset or 0
        text = (exc.text or "").rstrip("\n")
        detail = f"{kind}: {str(exc.msg)[:TEXT_LIMIT]}"
        if text:
            shown, caret = _caret_line(text, col)
            detail += f"\n    {shown}\n    {caret}"
        return ImportFailed(error_type=kind, line=line, column=col, message=detail)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    line = (frames[-1].lineno or 0) if frames else 0
    col = (frames[-1].colno or 0) + 1 if frames and frames[-1].colno is not None else 0
    where = "".join(traceback.format_list(frames[-5:]))[-TEXT_LIMIT:] if frames else ""
    if isinstance(exc, SystemExit):
        summary = f"your code called sys.exit({_short_repr(exc.code)}) while being imported"
    elif isinstance(exc, KeyboardInterrupt):
        summary = "KeyboardInterrupt while your code was being imported"
    else:
        summary = _exception_text(exc)
    message = summary + (f"\n{where.rstrip()}" if where else "")
    return ImportFailed(error_type=kind, line=line, column=col, message=message)


def _caret_line(text: str, column: int, width: int = 100) -> tuple[str, str]:
    """The offending line (trimmed to ``width`` around ``column``) and a caret under it."""
    stripped = text.lstrip()
    column = max(column - 1 - (len(text) - len(stripped)), 0)
    start = max(0, min(column - width // 2, len(stripped) - width))
    shown = stripped[start : start + width]
    prefix = "... " if start else ""
    suffix = " ..." if start + width < len(stripped) else ""
    return prefix + shown + suffix, " " * (len(prefix) + column - start) + "^"


def _exception_text(exc: BaseException) -> str:
    try:
        text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    except BaseException:  # noqa: BLE001 - a hostile __str__
        text = type(exc).__name__
    if len(text) > TEXT_LIMIT:
        text = text[: TEXT_LIMIT - 60] + f" ... (cut at {TEXT_LIMIT} characters)"
    return text


def _short_repr(value: object) -> str:
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001
        text = "..."
    return text if len(text) <= 200 else text[:200] + "..."
