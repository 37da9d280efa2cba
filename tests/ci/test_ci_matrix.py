"""The Python versions CI runs and the versions pyproject.toml declares are the same list."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _ci_versions() -> list[str]:
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    found = re.search(r"^SUPPORTED=\(([^)]*)\)", text, re.M)
    assert found, ".ci/run must list the versions it tests as SUPPORTED=(...)"
    return found.group(1).split()


def _declared() -> tuple[list[str], str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    prefix = "Programming Language :: Python :: "
    versions = [c[len(prefix) :] for c in project["classifiers"] if re.fullmatch(re.escape(prefix) + r"3\.\d+", c)]
    return versions, project["requires-python"]


def test_ci_tests_exactly_the_declared_versions() -> None:
    versions, _ = _declared()
    assert versions, "pyproject.toml declares no Python 3.x classifiers"
    assert _ci_versions() == versions


def test_the_oldest_declared_version_is_the_minimum() -> None:
    versions, requires = _declared()
    assert requires == f">={versions[0]}"
    assert [tuple(map(int, v.split("."))) for v in versions] == sorted(tuple(map(int, v.split("."))) for v in versions)


def test_ci_fails_on_a_missing_version_instead_of_skipping_it() -> None:
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'fail "Python $version is not installed on this machine"' in text
