"""Syntax highlights computed a block of lines at a time, when a line is first drawn.

Textual's TextArea rebuilds the highlights of the whole document after every edit, by querying
the syntax tree from top to bottom; the query's cost grows faster than the document, so in a
300-line buffer each keystroke paid tens of milliseconds for lines that were not on screen.
:class:`BlockHighlights` takes the place of that map: after an edit it is emptied, and the lines
of a block are looked up (one query over just that block's rows) the first time one of them is
drawn. A node that spans blocks is cut at the block's edges, so every line gets exactly the
spans the whole-document query gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

BLOCK_LINES = 50

Highlight = tuple[int, int | None, str]
Point = tuple[int, int]


class Node(Protocol):
    """What is read of a tree-sitter node."""

    @property
    def start_point(self) -> Point: ...

    @property
    def end_point(self) -> Point: ...


Query = Callable[[Point, Point], Mapping[str, Sequence[Node]]]


def _position(node: Node) -> tuple[Point, Point]:
    return node.start_point, node.end_point


class BlockHighlights(dict[int, list[Highlight]]):
    """``line -> [(start byte, end byte or None, highlight name)]``, filled a block at a time by
    ``query(start point, end point)`` (captures by highlight name, as tree-sitter returns them)."""

    def __init__(self, query: Query, block_lines: int = BLOCK_LINES) -> None:
        super().__init__()
        self._query = query
        self._block_lines = block_lines
        self._blocks: set[int] = set()

    def __bool__(self) -> bool:  # there are highlights to look up even before any line was drawn
        return True

    def clear(self) -> None:
        super().clear()
        self._blocks.clear()

    def __missing__(self, line: int) -> list[Highlight]:
        block = line // self._block_lines
        if block not in self._blocks:
            self._blocks.add(block)
            self._fill(block * self._block_lines, (block + 1) * self._block_lines)
        return dict.get(self, line, [])

    def _fill(self, first: int, end: int) -> None:
        """Add the highlights of rows ``first`` .. ``end - 1``."""
        for name, nodes in self._query((first, 0), (end, 0)).items():
            # by position within a name (tree-sitter's order there varies from query to query),
            # so an unchanged line gets the same spans after an edit and its drawing is reused
            for node in sorted(nodes, key=_position):
                start_row, start_column = node.start_point
                end_row, end_column = node.end_point
                for row in range(max(first, start_row), min(end - 1, end_row) + 1):
                    if start_row == end_row:
                        span: Highlight = (start_column, end_column, name)
                    elif row == start_row:
                        span = (start_column, None, name)
                    elif row == end_row:
                        span = (0, end_column, name)
                    else:
                        span = (0, None, name)
                    self.setdefault(row, []).append(span)
