"""Fixtures every hidden test receives.

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
"""

from __future__ import annotations

import types
from collections.abc import Callable

import pytest

GRADER_PLUGIN = "tokdrill-submission"
_ANSWERS = pytest.StashKey[dict[str, object]]()

CaseBuilder = Callable[[types.ModuleType], object]


def _reference() -> types.ModuleType:
    import reference_impl

    return reference_impl


def _key(builder: CaseBuilder) -> str:
    return f"{builder.__module__}.{builder.__qualname__}"


@pytest.fixture(scope="session")
def ref() -> types.ModuleType:
    return _reference()


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest, ref: types.ModuleType) -> types.ModuleType:
    provider = request.config.pluginmanager.get_plugin(GRADER_PLUGIN)
    return provider.module if provider is not None else ref


@pytest.fixture(scope="session")
def reference_cases(request: pytest.FixtureRequest) -> Callable[[CaseBuilder], object]:
    """``reference_cases(builder)`` returns ``builder(reference_impl)``, built once per session."""
    answers = request.config.stash.setdefault(_ANSWERS, {})

    def cases(builder: CaseBuilder) -> object:
        key = _key(builder)
        if key not in answers:
            answers[key] = builder(_reference())
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
                answers[key] = builder(_reference())
            except Exception:  # noqa: BLE001 - the test that needs it builds it again and reports why
                pass
