"""Cheaper failure reports for the hidden tests.

To show the failing statement, pytest parses the whole test file again for every failing test
and walks its syntax tree (tens of ms per failure on these files). The grading process parses
each hidden test file once, while preparing a drill; forked runs then reuse the tree and its
statement line numbers. Files it has not seen go through pytest's own code unchanged.
"""

from __future__ import annotations

import ast
import io
from bisect import bisect_right
from typing import Any

_trees: dict[str, ast.AST] = {}  # source text (as pytest joins it) -> parsed tree
_starts: dict[int, list[int]] = {}  # id(tree) -> sorted 0-based first lines of its statements
_installed = False


def remember(text: str) -> None:
    """Parse ``text`` (a test file's source) now, for the failure reports of later runs."""
    key = "\n".join(line.rstrip("\n") for line in io.StringIO(text).readlines())
    if key in _trees:
        return
    try:
        tree = ast.parse(key, "source", "exec")
    except SyntaxError:
        return
    _trees[key] = tree
    _starts[id(tree)] = _statement_starts(tree)
    install()


def _statement_starts(tree: ast.AST) -> list[int]:
    """Where each statement (or except clause, decorator, else/finally block) begins, 0-based;
    the same boundaries pytest uses to cut a statement out of a file."""
    starts: list[int] = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.stmt, ast.ExceptHandler)):
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            starts.extend(d.lineno - 1 for d in node.decorator_list)
        starts.append(node.lineno - 1)
        for block in ("finalbody", "orelse"):
            body = getattr(node, block, None)
            if body:
                starts.append(body[0].lineno - 2)
    starts.sort()
    return starts


def install() -> None:
    """Route pytest's statement-range lookups through the cache (idempotent)."""
    global _installed
    if _installed:
        return
    from _pytest._code import code as code_module
    from _pytest._code import source as source_module

    original_range = source_module.getstatementrange_ast
    original_bounds = source_module.get_statement_startend2

    def getstatementrange_ast(lineno: int, source: Any, assertion: bool = False, astnode: ast.AST | None = None) -> Any:
        if astnode is None:
            astnode = _trees.get(str(source))
        return original_range(lineno, source, assertion, astnode)

    def get_statement_startend2(lineno: int, node: ast.AST) -> tuple[int, int | None]:
        starts = _starts.get(id(node))
        if starts is None:  # not a tree of ours (ours stay alive, so their ids are never reused)
            return original_bounds(lineno, node)
        index = bisect_right(starts, lineno)
        return starts[index - 1], (starts[index] if index < len(starts) else None)

    source_module.get_statement_startend2 = get_statement_startend2
    code_module.getstatementrange_ast = getstatementrange_ast
    source_module.getstatementrange_ast = getstatementrange_ast
    _installed = True
