"""Fixtures every hidden test receives.

``impl`` is the implementation under test: the user's submission when the grader registered
one (plugin ``tokdrill-submission``), else the project's own ``reference_impl``. ``ref`` is
always ``reference_impl``, for differential checks.
"""

from __future__ import annotations

import types

import pytest


@pytest.fixture(scope="session")
def ref() -> types.ModuleType:
    import reference_impl

    return reference_impl


@pytest.fixture(scope="session")
def impl(request: pytest.FixtureRequest, ref: types.ModuleType) -> types.ModuleType:
    provider = request.config.pluginmanager.get_plugin("tokdrill-submission")
    return provider.module if provider is not None else ref
