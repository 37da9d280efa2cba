"""The part of a drill grading needs, as a small hashable value that crosses process lines.

A drill is *shipped* when every one of its hidden test files lies in tokdrill's own hidden-test
folder: its tests and conftest are the project's code, collected in the grading process. Any
other drill's tests (a deck folder's) are code of unknown origin: they are collected and run
only inside the sandbox, and the names they may report are the ones its files declare, read
without running them (``declared``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol

from tokdrill import locations

Declared = tuple[tuple[str, tuple[str, ...]], ...]
"""``(test name, concepts)`` per hidden test, as the content's static reading found them."""


class DrillLike(Protocol):
    """Anything with a drill's id, symbols and hidden test files (a content ``Drill``)."""

    @property
    def id(self) -> str: ...

    @property
    def symbols(self) -> Sequence[str]: ...

    @property
    def hidden_tests(self) -> Sequence[str | os.PathLike[str]]: ...


@dataclass(frozen=True)
class DrillSpec:
    """What grading needs to know about a drill."""

    id: str
    symbols: tuple[str, ...]
    hidden_tests: tuple[str, ...]  # absolute paths
    declared: Declared = ()  # from a content Drill's ``test_concepts``

    @classmethod
    def of(cls, drill: DrillLike) -> DrillSpec:
        if isinstance(drill, DrillSpec):
            return drill
        concepts: Mapping[str, Sequence[str]] = getattr(drill, "test_concepts", None) or {}
        return cls(
            id=str(drill.id),
            symbols=tuple(str(s) for s in drill.symbols),
            hidden_tests=tuple(str(Path(p).resolve()) for p in drill.hidden_tests),
            declared=tuple((str(name), tuple(str(c) for c in found)) for name, found in concepts.items()),
        )

    @property
    def shipped(self) -> bool:
        """True when every hidden test file is one of tokdrill's own (see the module docstring)."""
        own = _shipped_hidden_dir()
        return bool(self.hidden_tests) and all(os.path.dirname(os.path.realpath(p)) == own for p in self.hidden_tests)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "symbols": list(self.symbols),
            "hidden_tests": list(self.hidden_tests),
            "declared": [[name, list(concepts)] for name, concepts in self.declared],
        }

    @classmethod
    def from_json(cls, data: object) -> DrillSpec:
        """Inverse of :meth:`to_json`; raises ValueError for anything else."""
        if not isinstance(data, dict):
            raise ValueError("a drill must be a JSON object")
        symbols, tests, declared = data.get("symbols"), data.get("hidden_tests"), data.get("declared", [])
        if not isinstance(symbols, list) or not isinstance(tests, list) or not isinstance(declared, list):
            raise ValueError("a drill needs lists 'symbols', 'hidden_tests' and 'declared'")
        return cls(
            str(data.get("id", "")),
            tuple(str(s) for s in symbols),
            tuple(str(t) for t in tests),
            tuple(_declared_test(entry) for entry in declared),
        )


def _declared_test(entry: object) -> tuple[str, tuple[str, ...]]:
    if not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[1], list):
        raise ValueError("each declared test is [name, [concepts]]")
    return str(entry[0]), tuple(str(c) for c in entry[1])


@cache
def _shipped_hidden_dir() -> str:
    return os.path.realpath(locations.hidden_tests_dir())


def test_name(nodeid: str) -> str:
    """The name users see for a node id: ``file::test`` without folders."""
    return nodeid.rsplit("/", 1)[-1]


def bare_name(name: str) -> str:
    """A test's name without pytest's parameters: ``f.py::test_x[3]`` -> ``f.py::test_x``."""
    return name.split("[", 1)[0]
