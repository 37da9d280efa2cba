"""Syntax highlights computed a block of lines at a time, when a line is first drawn.

Textual's TextArea rebuilds the highlights of the whole document after every edit, by querying
the syntax tree from top to bottom; the query's cost grows faster than the document, so in a
300-line buffer each keystroke paid tens of milliseconds for lines that were not on screen.
:class:`BlockHighlights` takes the place of that map: after an edit it is emptied, and the lines
of a block are looked up (one query over just that block's rows) the first time one of them is
drawn. A node that spans blocks is cut at the block's edges, so every line gets exactly the
spans the whole-document query gives it.

An edit that keeps the number of lines looks up again only the rows it may have changed
(:func:`rows_an_edit_changed`): its own rows, the statement around them, and every range whose
syntax tree-sitter reports as changed (an opened string recolours the lines after it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

BLOCK_LINES = 50
STATEMENT_ROWS = 12  # the most rows of a statement around an edit that are looked up again

Highlight = tuple[int, int | None, str]
Point = tuple[int, int]


class Node(Protocol):
    """What is read of a tree-sitter node."""

    @property
    def start_point(self) -> Point: ...

    @property
    def end_point(self) -> Point: ...


Query = Callable[[Point, Point], Mapping[str, Sequence[Node]]]


class TreeNode(Node, Protocol):
    """What is read of a node of a syntax tree, to find the statement around an edit."""

    @property
    def type(self) -> str: ...

    @property
    def parent(self) -> TreeNode | None: ...

    def descendant_for_point_range(self, start: Point, end: Point, /) -> TreeNode | None: ...


class Tree(Protocol):
    """What is read of a tree-sitter tree."""

    @property
    def root_node(self) -> TreeNode: ...

    def changed_ranges(self, new_tree: Tree, /) -> Iterable[Node]: ...


def _position(node: Node) -> tuple[Point, Point]:
    return node.start_point, node.end_point


def rows_an_edit_changed(old_tree: Tree, new_tree: Tree, start: Point, end: Point) -> list[tuple[int, int]]:
    """Row ranges ``(first, end)`` whose highlights may differ after an edit that kept the number
    of lines, merged and in order. ``start`` and ``end`` are the points (row, byte) the edited text
    spans now; ``old_tree`` is the tree before the edit, already told of it (``Tree.edit``), and
    ``new_tree`` the tree parsed after it.

    Beyond the edited rows: the rows of the simple statement around the edit (a highlight can
    depend on text in another of its rows, as in ``X: TypeAlias``), and the ranges tree-sitter
    reports as changed."""
    ranges = [(start[0], end[0] + 1)]
    node = new_tree.root_node.descendant_for_point_range(start, end)
    while node is not None and node.parent is not None and node.parent.type not in ("block", "module"):
        node = node.parent
    if node is not None and node.type not in ("block", "module"):
        first, last = node.start_point[0], node.end_point[0]
        if last - first < STATEMENT_ROWS:
            ranges.append((first, last + 1))
    ranges += [(r.start_point[0], r.end_point[0] + 1) for r in old_tree.changed_ranges(new_tree)]
    merged: list[tuple[int, int]] = []
    for top, bottom in sorted(ranges):
        if merged and top <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], bottom))
        else:
            merged.append((top, bottom))
    return merged


class BlockHighlights(dict[int, list[Highlight]]):
    """``line -> [(start byte, end byte or None, highlight name)]``, filled a block at a time by
    ``query(start point, end point)`` (captures by highlight name, as tree-sitter returns them).

    Where two names capture the same text, the span added later is drawn over the other, so the
    spans of a line are added name by name in one fixed order: ``names`` (the query's captures in
    the order it lists them) backwards, so that the name listed first wins, as in tree-sitter's
    own highlighter; names it does not list go first. A line thus gets the same colours whichever
    rows were queried with it."""

    def __init__(self, query: Query, block_lines: int = BLOCK_LINES, names: Sequence[str] = ()) -> None:
        super().__init__()
        self._query = query
        self._block_lines = block_lines
        self._blocks: set[int] = set()
        self._rank = {name: rank for rank, name in enumerate(names)}

    def __bool__(self) -> bool:  # there are highlights to look up even before any line was drawn
        return True

    def clear(self) -> None:
        super().clear()
        self._blocks.clear()

    def look_up_again(self, first: int, end: int) -> None:
        """Forget rows ``first`` .. ``end - 1`` and query those of them in blocks already looked up
        (the rest are looked up with their block)."""
        for row in range(first, end):
            self.pop(row, None)
        size = self._block_lines
        for block in range(first // size, (end - 1) // size + 1):
            if block in self._blocks:
                self._fill(max(first, block * size), min(end, (block + 1) * size))

    def __missing__(self, line: int) -> list[Highlight]:
        block = line // self._block_lines
        if block not in self._blocks:
            self._blocks.add(block)
            self._fill(block * self._block_lines, (block + 1) * self._block_lines)
        return dict.get(self, line, [])

    def _fill(self, first: int, end: int) -> None:
        """Add the highlights of rows ``first`` .. ``end - 1``."""
        captures = self._query((first, 0), (end, 0))
        for name in sorted(captures, key=lambda name: (-self._rank.get(name, len(self._rank)), name)):
            nodes = captures[name]
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
