"""Fixtures and markers every hidden test receives.

Every hidden test names the concept(s) it checks with ``@pytest.mark.concept("merge-order")``, its
main concept first; the ids come from the concept vocabulary (``questions/concepts.yaml``). A test
whose checks also depend on another concept (a test of unchanged inputs that compares the output
too) names that one as well. A failed test tells the user what to review through the concepts it
blames (``tokdrill.practice.blame``): its own when it checks one, else those a failed test
dedicated to them convicts, or no passing dedicated test clears.

``impl`` is the implementation under test: the user's submission when the grader registered
one (plugin ``tokdrill-submission``), else the project's own ``reference_impl``. ``ref`` is
always ``reference_impl``, for differential checks.

Differential checks keep the reference's side apart from the submission's: a test module lists
*case builders* in ``REFERENCE_CASES``; each builder takes ``reference_impl`` and returns its
random inputs together with the reference's answers, and the test gets them from the
``reference_cases`` fixture and runs only the submission on them. The answers are computed once
per pytest session. When the grader is in charge, that happens at the end of collection, in the
trusted process that later forks one sandbox per submission, so a submission's run pays only for
its own side. Anywhere else (a plain pytest run, mutation testing) a builder runs lazily inside
the first test that asks for it, against whatever ``reference_impl`` is loaded at that moment.
A builder that also takes ``cpu_seconds`` gets the CPU timer of the ``cpu_seconds`` fixture: a
time budget is measured on the reference once, the same way, and not in every submission's run.
"""

from __future__ import annotations

import gc
import inspect
import resource
import signal
import types
from collections.abc import Callable, Iterable
from typing import TypeVar, cast

import pytest

GRADER_PLUGIN = "tokdrill-submission"
_ANSWERS = pytest.StashKey[dict[str, object]]()

CaseBuilder = Callable[..., object]  # (ref) or (ref, cpu_seconds)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "concept(*ids): the concept(s) from the concept vocabulary this test checks")


def _reference() -> types.ModuleType:
    import reference_impl

    return reference_impl


def _build(builder: CaseBuilder) -> object:
    """``builder(reference_impl)``, with the CPU timer too when the builder takes it."""
    if "cpu_seconds" in inspect.signature(builder).parameters:
        return builder(_reference(), cpu_seconds=_cpu_seconds)
    return builder(_reference())


def _key(builder: CaseBuilder) -> str:
    return f"{builder.__module__}.{builder.__qualname__}"


@pytest.fixture(scope="session")
def ref() -> types.ModuleType:
    return _reference()


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest, ref: types.ModuleType) -> types.ModuleType:
    provider = request.config.pluginmanager.get_plugin(GRADER_PLUGIN)
    return provider.module if provider is not None else ref


def _short_repr(value: object, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 5] + " ...)"


T = TypeVar("T")


def check_returns(value: T, kind: type | tuple[type, ...], call: str, items: type | None = None) -> T:
    """``value`` if it is a ``kind`` (and each element an ``items``, when given); else a failure
    that names the call, what it should return and what came back. Never converts anything."""
    __tracebackhide__ = True  # the failure is reported at the test's line, not here
    want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
    assert isinstance(value, kind), f"{call} must return a {want}, got {type(value).__name__}: {_short_repr(value)}"
    if items is not None:
        wrong = [item for item in cast(Iterable[object], value) if not isinstance(item, items)]
        assert not wrong, (
            f"{call} must return a {want} of {items.__name__}, got an element of type "
            f"{type(wrong[0]).__name__}: {_short_repr(wrong[0])}"
        )
    return value


@pytest.fixture(scope="session")
def returns() -> Callable[..., object]:
    """``returns(value, tuple, "merge_pair(...)")``: see :func:`check_returns`."""
    return check_returns


def _cpu_clock() -> float:
    """CPU seconds used by this process, from getrusage (microsecond steps everywhere; under an
    RLIMIT_CPU limit, as in the sandbox, time.process_time() only moves at scheduler ticks)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class _OverBudget(BaseException):
    """Raised inside the submission when it uses up its CPU allowance."""


def _cpu_seconds(run: Callable[[], object], cap: float | None = None) -> float:
    """CPU time of ``run()`` (garbage collector paused); with ``cap``, stop it after ``cap`` CPU seconds."""

    def stop(signum: int, frame: object) -> None:
        raise _OverBudget

    gc.disable()  # no collection is charged to the code timed
    previous: object = None
    capped = False
    if cap is not None:
        try:
            previous = signal.signal(signal.SIGPROF, stop)
            signal.setitimer(signal.ITIMER_PROF, cap)
            capped = True
        except (ValueError, OSError, AttributeError):
            pass  # not the main thread, or no interval timers here: measure without a cap
    start = _cpu_clock()
    try:
        run()
    except _OverBudget:
        pass
    finally:
        spent = _cpu_clock() - start
        if capped:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)  # type: ignore[arg-type]
        gc.enable()
    return spent


@pytest.fixture(scope="session")
def cpu_seconds() -> Callable[..., float]:
    """``cpu_seconds(run, cap=None)``: the CPU time ``run()`` takes, stopped after ``cap`` seconds
    (for the drills with a time budget; CPU time, so a loaded machine does not fail a fast answer)."""
    return _cpu_seconds


@pytest.fixture(scope="session")
def reference_cases(request: pytest.FixtureRequest) -> Callable[[CaseBuilder], object]:
    """``reference_cases(builder)`` returns ``builder(reference_impl)``, built once per session."""
    answers = request.config.stash.setdefault(_ANSWERS, {})

    def cases(builder: CaseBuilder) -> object:
        key = _key(builder)
        if key not in answers:
            answers[key] = _build(builder)
        return answers[key]

    return cases


def pytest_collection_finish(session: pytest.Session) -> None:
    """Under the grader, build every collected module's reference cases now (see above)."""
    if session.config.pluginmanager.get_plugin(GRADER_PLUGIN) is None:
        return
    answers = session.config.stash.setdefault(_ANSWERS, {})
    modules = {id(m): m for m in (getattr(item, "module", None) for item in session.items) if m is not None}
    for module in modules.values():
        for builder in getattr(module, "REFERENCE_CASES", ()):
            key = _key(builder)
            if key in answers:
                continue
            try:
                answers[key] = _build(builder)
            except Exception:  # noqa: BLE001 - the test that needs it builds it again and reports why
                pass
