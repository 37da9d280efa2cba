"""Hidden test files: finding the one a drill names, and reading which concepts its tests check.

A hidden test declares what it checks with ``@pytest.mark.concept("merge-order", ...)`` on the
test function or its class, or with ``pytestmark = pytest.mark.concept(...)`` (or a list of
marks) in the module or a class. The markers are read statically with :mod:`ast`: the files are
never imported here, so loading content runs none of their code. Tests are what pytest collects
by default: ``test*`` functions at module level and ``test*`` methods of ``Test*`` classes
(nested classes included). Each is named ``file.py::test`` or ``file.py::Class::test``, the
way the grader names results (without parameters).
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from tokdrill.content.files import UnreadableFile, read_bounded
from tokdrill.content.model import ContentError

MARKER = "concept"
FIELD = "concepts"


class HiddenTest(NamedTuple):
    """One test: its name, the line of its ``def``, and each concept it names with the marker's line."""

    name: str
    line: int
    concepts: tuple[tuple[str, int], ...]


class HiddenTestFile(NamedTuple):
    """What a hidden test file declares, and the problems found reading it (file:line each)."""

    tests: tuple[HiddenTest, ...]
    errors: tuple[ContentError, ...]


def find_hidden_test(search_dirs: Sequence[Path], name: str) -> Path | None:
    """The resolved path of hidden test ``name`` in the first of ``search_dirs`` that has it."""
    match = next((d / name for d in search_dirs if (d / name).is_file()), None)
    return None if match is None else match.resolve()


def read_hidden_test_file(path: Path) -> HiddenTestFile:
    """Parse ``path`` (never import it) and collect its tests' concept markers.

    Never raises for bad input: an unreadable file, bad encoding, a syntax error or a marker
    whose arguments are not quoted names come back as errors.
    """
    try:
        source = read_bounded(path)
    except UnreadableFile as exc:
        return HiddenTestFile((), (ContentError(path, 1, "file", str(exc)),))
    try:
        with warnings.catch_warnings():  # e.g. "invalid escape sequence": Python's concern when it runs
            warnings.simplefilter("ignore")
            tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        line = exc.lineno or _nul_line(source)
        return HiddenTestFile((), (ContentError(path, line, "python", f"not valid Python: {exc.msg}"),))
    except ValueError as exc:  # a NUL byte, on older Pythons (newer ones raise SyntaxError without a line)
        return HiddenTestFile((), (ContentError(path, _nul_line(source), "python", f"not valid Python: {exc}"),))
    except (RecursionError, MemoryError) as exc:  # absurd nesting
        return HiddenTestFile((), (ContentError(path, 1, "python", f"cannot parse: {type(exc).__name__}"),))
    reader = _MarkerReader(path)
    tests = tuple(reader.tests(tree.body, prefix=path.name, inherited=reader.pytestmark(tree.body)))
    return HiddenTestFile(tests, tuple(reader.errors))


def _nul_line(source: bytes) -> int:
    """The line of the first NUL byte in ``source`` (1 if there is none)."""
    return source.count(b"\n", 0, max(source.find(b"\0"), 0)) + 1


class _MarkerReader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.errors: list[ContentError] = []

    def tests(
        self, body: list[ast.stmt], *, prefix: str, inherited: tuple[tuple[str, int], ...]
    ) -> Iterator[HiddenTest]:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                own = self.decorators(node.decorator_list)
                yield HiddenTest(f"{prefix}::{node.name}", node.lineno, _merge(inherited, own))
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                marks = _merge(inherited, self.decorators(node.decorator_list), self.pytestmark(node.body))
                yield from self.tests(node.body, prefix=f"{prefix}::{node.name}", inherited=marks)

    def pytestmark(self, body: list[ast.stmt]) -> tuple[tuple[str, int], ...]:
        """Concepts named by ``pytestmark = ...`` statements in a module or class body."""
        found: list[tuple[str, int]] = []
        for node in body:
            value: ast.expr | None = None
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
            ):
                value = node.value
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                value = node.value if node.target.id == "pytestmark" else None
            if value is None:
                continue
            marks = value.elts if isinstance(value, ast.List | ast.Tuple) else [value]
            found += self.decorators(marks)
        return tuple(found)

    def decorators(self, marks: Sequence[ast.expr]) -> tuple[tuple[str, int], ...]:
        """Concepts named by the ``concept`` marks among ``marks``, each with its line."""
        found: list[tuple[str, int]] = []
        for mark in marks:
            if not _is_concept_mark(mark):
                continue
            if not isinstance(mark, ast.Call):
                self.error(mark.lineno, "the concept marker needs at least one concept name")
                continue
            if mark.keywords or not mark.args:
                self.error(mark.lineno, 'write the concepts as names: @pytest.mark.concept("merge-order")')
            for arg in mark.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.append((arg.value, arg.lineno))
                else:
                    self.error(arg.lineno, "concept names must be quoted strings, written in the marker itself")
        return tuple(found)

    def error(self, line: int, message: str) -> None:
        self.errors.append(ContentError(self.path, line, FIELD, message))


def _is_concept_mark(node: ast.expr) -> bool:
    """True for ``pytest.mark.concept`` / ``mark.concept``, called or not."""
    target = node.func if isinstance(node, ast.Call) else node
    if not isinstance(target, ast.Attribute) or target.attr != MARKER:
        return False
    owner = target.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "mark") or (
        isinstance(owner, ast.Name) and owner.id == "mark"
    )


def _merge(*groups: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """The concepts of ``groups`` in order, each once (its first line kept)."""
    seen: dict[str, int] = {}
    for group in groups:
        for concept, line in group:
            seen.setdefault(concept, line)
    return tuple(seen.items())
