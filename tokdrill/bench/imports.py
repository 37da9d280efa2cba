"""What the app imports before its first frame, read from ``python -X importtime``.

Each line Python writes there is ``import time: SELF | CUMULATIVE | NAME``, microseconds, the
name indented two spaces per level of nesting, a module's line after those of the modules it
imported. :func:`parse_importtime` reads the lines; :func:`top_imports` keeps the imports made
at the outer levels (what the app's own code asks for and what those pull in directly) with the
largest cumulative times, the modules worth making lazy.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|( *)(\S+)\s*$")


@dataclass(frozen=True)
class ImportTime:
    """One module's import: its own time and with what it imported (milliseconds), and how deep
    it was nested (0: imported by the running program itself)."""

    name: str
    depth: int
    self_ms: float
    cumulative_ms: float


def parse_importtime(text: str) -> list[ImportTime]:
    """The imports listed in ``text`` (stderr of ``python -X importtime``), in Python's order;
    the header and any other line are skipped."""
    found = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if match is not None:
            own, total, indent, name = match.groups()
            found.append(ImportTime(name, (len(indent) - 1) // 2, int(own) / 1000, int(total) / 1000))
    return found


def beyond(imports: Sequence[ImportTime], shared: Collection[str]) -> list[ImportTime]:
    """The imports not named in ``shared``, each cumulative time less what its nested imports
    of ``shared`` modules took: what a program imports beyond another that imports ``shared``."""
    found = []
    shared_under: dict[int, float] = {}  # depth -> shared time met among the lines at that depth so far
    for item in imports:
        below = shared_under.pop(item.depth + 1, 0.0)
        if item.name in shared:
            taken = item.cumulative_ms
        else:
            taken = below
            found.append(ImportTime(item.name, item.depth, item.self_ms, item.cumulative_ms - below))
        shared_under[item.depth] = shared_under.get(item.depth, 0.0) + taken
    return found


def top_imports(imports: Iterable[ImportTime], count: int, max_depth: int = 2) -> list[ImportTime]:
    """The ``count`` imports nested at most ``max_depth`` deep with the largest cumulative time
    (a module imported twice keeps its larger time)."""
    best: dict[str, ImportTime] = {}
    for item in imports:
        if item.depth <= max_depth and (item.name not in best or item.cumulative_ms > best[item.name].cumulative_ms):
            best[item.name] = item
    return sorted(best.values(), key=lambda i: -i.cumulative_ms)[:count]


def total_ms(imports: Sequence[ImportTime]) -> float:
    """The time spent importing: the sum of the outermost imports' cumulative times."""
    return sum(i.cumulative_ms for i in imports if i.depth == 0)
