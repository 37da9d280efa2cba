"""The part of a drill grading needs, as a small hashable value that crosses process lines."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DrillSpec:
    """What grading needs to know about a drill (a content ``Drill`` converts to this)."""

    id: str
    symbols: tuple[str, ...]
    hidden_tests: tuple[str, ...]  # absolute paths

    @classmethod
    def of(cls, drill: object) -> DrillSpec:
        """Build from anything with ``id``, ``symbols`` and ``hidden_tests`` attributes."""
        if isinstance(drill, DrillSpec):
            return drill
        return cls(
            id=str(drill.id),  # type: ignore[attr-defined]
            symbols=tuple(str(s) for s in drill.symbols),  # type: ignore[attr-defined]
            hidden_tests=tuple(str(Path(p).resolve()) for p in drill.hidden_tests),  # type: ignore[attr-defined]
        )

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "symbols": list(self.symbols), "hidden_tests": list(self.hidden_tests)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> DrillSpec:
        return cls(str(data["id"]), tuple(data["symbols"]), tuple(data["hidden_tests"]))  # type: ignore[arg-type]


def test_name(nodeid: str) -> str:
    """The name users see for a node id: ``file::test`` without folders."""
    return nodeid.rsplit("/", 1)[-1]
