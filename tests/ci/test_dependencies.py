"""uv.lock is in step with pyproject.toml, the libraries whose private names the app uses are
pinned to the release the lock holds, and CI checks what the pins promise."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PINNED = ("textual", "textual-plotext")  # their private names: tokdrill/ui/{textual,plotext}_internals.py


def _project() -> dict[str, object]:
    project: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project


def _lock() -> dict[str, dict[str, object]]:
    packages = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))["package"]
    return {canonicalize_name(package["name"]): package for package in packages}


def _marker(text: str) -> str:
    return str(Marker(text)) if text else ""


def _declared() -> set[tuple[str, str, str]]:
    """(name, specifiers, marker) of every dependency pyproject.toml declares, extras included."""
    project = _project()
    found: set[tuple[str, str, str]] = set()
    lines = [(line, "") for line in project["dependencies"]]  # type: ignore[attr-defined]
    for extra, requirements in project["optional-dependencies"].items():  # type: ignore[attr-defined]
        lines += [(line, extra) for line in requirements]
    for line, extra in lines:
        requirement = Requirement(line)
        marker = _marker(f"extra == '{extra}'" if extra else str(requirement.marker or ""))
        found.add((canonicalize_name(requirement.name), str(SpecifierSet(str(requirement.specifier))), marker))
    return found


def _locked_requirements() -> set[tuple[str, str, str]]:
    metadata = _lock()["tokdrill"]["metadata"]
    return {
        (
            canonicalize_name(entry["name"]),
            str(SpecifierSet(entry.get("specifier", ""))),
            _marker(entry.get("marker", "")),
        )
        for entry in metadata["requires-dist"]  # type: ignore[index]
    }


def test_the_lock_was_made_from_the_dependencies_pyproject_declares() -> None:
    declared, locked = _declared(), _locked_requirements()
    assert declared == locked, (
        f"uv.lock is out of date (run `uv lock`): only in pyproject.toml {sorted(declared - locked)}, "
        f"only in uv.lock {sorted(locked - declared)}"
    )


def test_libraries_whose_internals_are_used_are_pinned_to_the_locked_release() -> None:
    lock = _lock()
    for name in PINNED:
        (specifier,) = (s for n, s, marker in _declared() if n == name and not marker)
        pinned = SpecifierSet(specifier)
        assert all(s.operator in ("==", "~=") for s in pinned), f"{name} is not pinned to a release: {specifier}"
        (operator_version,) = (s.version for s in pinned)
        assert len(Version(operator_version).release) == 3, f"{name} {specifier}: pin a patch range, not a minor one"
        assert Version(str(lock[name]["version"])) in pinned, f"{name} {lock[name]['version']} in uv.lock, {specifier}"


def test_pytest_is_not_capped_below_the_current_major() -> None:
    (specifier,) = (s for n, s, marker in _declared() if n == "pytest" and not marker)
    assert Version("9.2") in SpecifierSet(specifier) and Version("8.3") in SpecifierSet(specifier), specifier


def test_ci_lints_with_the_lock_and_grades_under_pytest_9() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "sync --quiet --locked" in ci and "lock --check" in ci, "CI must lint with uv.lock's versions"
    assert "mypy tests" in ci.splitlines()[ci.splitlines().index('  mypy || fail "mypy"') + 1]
    assert '"pytest>=9,<10"' in ci and "tests/grading" in ci, "CI must run the grading tests under pytest 9"
