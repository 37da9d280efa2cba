"""Content test setup: the broken fixtures in ``fixtures/`` are data, not tests."""

from __future__ import annotations

from pathlib import Path

import pytest

# fixtures/**/hidden/test_*.py are hidden tests named by fixture drills, not tests of this suite
collect_ignore_glob = ["fixtures/*"]


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """An empty user content folder with a ``hidden/`` test `content_helpers.drill_yaml` drills can name."""
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden" / "test_user_drill.py").write_text(
        "def test_counts(impl):\n    assert impl.count_pairs({('a', 'b'): 1})[('a', 'b')] == 1\n", encoding="utf-8"
    )
    return tmp_path
