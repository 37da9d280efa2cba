"""The part of a drill grading needs, as a small hashable value that crosses process lines."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


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

    @classmethod
    def of(cls, drill: DrillLike) -> DrillSpec:
        if isinstance(drill, DrillSpec):
            return drill
        return cls(
            id=str(drill.id),
            symbols=tuple(str(s) for s in drill.symbols),
            hidden_tests=tuple(str(Path(p).resolve()) for p in drill.hidden_tests),
        )

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "symbols": list(self.symbols), "hidden_tests": list(self.hidden_tests)}

    @classmethod
    def from_json(cls, data: object) -> DrillSpec:
        """Inverse of :meth:`to_json`; raises ValueError for anything else."""
        if not isinstance(data, dict):
            raise ValueError("a drill must be a JSON object")
        symbols, tests = data.get("symbols"), data.get("hidden_tests")
        if not isinstance(symbols, list) or not isinstance(tests, list):
            raise ValueError("a drill needs lists 'symbols' and 'hidden_tests'")
        return cls(str(data.get("id", "")), tuple(str(s) for s in symbols), tuple(str(t) for t in tests))


def test_name(nodeid: str) -> str:
    """The name users see for a node id: ``file::test`` without folders."""
    return nodeid.rsplit("/", 1)[-1]
