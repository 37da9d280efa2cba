"""Suite-wide safety: no test ever touches the real user's progress or content settings."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("tokdrill-home")
    monkeypatch.setenv("TOKDRILL_HOME", str(home))
    monkeypatch.delenv("TOKDRILL_CONTENT", raising=False)
    return home
