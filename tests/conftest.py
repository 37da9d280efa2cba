"""Suite-wide safety: no test ever touches the real user's progress or content settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property-based tests (hypothesis) run a few hundred examples each; a longer run sets
# TOKDRILL_FUZZ_EXAMPLES higher (e.g. 1000 before a release). Tests that state their own
# max_examples keep it.
FUZZ_EXAMPLES = int(os.environ.get("TOKDRILL_FUZZ_EXAMPLES", "200"))
settings.register_profile("tokdrill", max_examples=FUZZ_EXAMPLES)
settings.load_profile("tokdrill")

# Checks against the texts the content was researched from need those texts, which live outside
# the repository: .ci/run points TOKDRILL_SOURCE_TEXTS at them when they are present.
collect_ignore = [] if os.environ.get("TOKDRILL_SOURCE_TEXTS") else ["source_texts"]


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("tokdrill-home")
    monkeypatch.setenv("TOKDRILL_HOME", str(home))
    monkeypatch.delenv("TOKDRILL_CONTENT", raising=False)
    return home


def pytest_configure(config: pytest.Config) -> None:
    """Before collection: anything a test module does at import time stays out of the real home."""
    import tempfile

    base = tempfile.mkdtemp(prefix="tokdrill-suite-")
    os.environ["TOKDRILL_HOME"] = os.path.join(base, "home")
    os.environ["XDG_CACHE_HOME"] = os.path.join(base, "xdg-cache")
    os.environ["XDG_DATA_HOME"] = os.path.join(base, "xdg-data")
