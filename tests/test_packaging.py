"""A plain (non-editable) wheel carries everything the app needs."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The names in a wheel built by the project's build backend, hatchling (a test extra), as
    ``pip install .`` builds it; no pip needed (an environment made by uv has none)."""
    out = tmp_path_factory.mktemp("wheel")
    build = "import sys, hatchling.build; hatchling.build.build_wheel(sys.argv[1])"
    done = subprocess.run([sys.executable, "-c", build, str(out)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("tokdrill-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def _shipped(folder: str, pattern: str) -> list[str]:
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / folder).glob(pattern))


def test_wheel_contains_every_drill_deck_and_hidden_test(wheel_names: set[str]) -> None:
    expected = [
        f"tokdrill/_content/{name}"
        for name in _shipped("drills", "*.yaml") + _shipped("drills", "hidden/*.py") + _shipped("questions", "*.yaml")
    ]
    assert expected, "no content found in the checkout"
    missing = [name for name in expected if name not in wheel_names]
    assert not missing, f"missing from the wheel: {missing}"


def test_wheel_contains_reference_impl_and_app(wheel_names: set[str]) -> None:
    for name in _shipped("reference_impl", "*.py"):
        assert name in wheel_names
    assert "tokdrill/cli/__init__.py" in wheel_names
    assert any(n.startswith("tokdrill/ui/") and n.endswith(".tcss") for n in wheel_names)
