"""Retype text: cut from the reference package's files by symbol name."""

from __future__ import annotations

import ast
import textwrap
import uuid
from pathlib import Path

import pytest

from tokdrill.content import reference
from tokdrill.content.reference import SymbolError, reference_source, symbol_problem

ALGOS = '''\
"""Module docstring that must never appear in a snippet."""

import functools

LIMIT = 3  # a constant


def helper(x):
    return x


@functools.lru_cache(maxsize=None)
def cached(n: int) -> int:
    """Decorated."""
    return n + helper(n)


def plain(a, b):
    """Two lines
    of docstring."""
    return a + b


class Base:
    def shared(self):
        return "base"


class Tool(Base):
    """A tool.

    Second paragraph.
    """

    size = 2

    def __init__(self):
        self.items = []

    def first(self):
        return 1

    @property
    def second(self):
        return 2


class Bare:
    def only(self):
        return 0
'''


@pytest.fixture
def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A small reference package: ``__init__`` re-exports from ``algos`` (unique name per test)."""
    name = f"fakeref_{uuid.uuid4().hex[:8]}"
    package = tmp_path / name
    package.mkdir()
    (package / "algos.py").write_text(ALGOS, encoding="utf-8")
    (package / "__init__.py").write_text(
        "from .algos import LIMIT, Bare, Tool, cached, helper, plain\n"
        "__all__ = ['LIMIT', 'Bare', 'Tool', 'cached', 'plain']\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    reference.clear_caches()


def test_a_function_is_its_full_source_with_decorators_and_the_imports_it_uses(fake_package: str) -> None:
    assert reference_source(["cached"], fake_package) == textwrap.dedent('''\
        import functools


        @functools.lru_cache(maxsize=None)
        def cached(n: int) -> int:
            """Decorated."""
            return n + helper(n)
        ''')


def test_functions_are_separated_by_two_blank_lines_in_symbol_order(fake_package: str) -> None:
    text = reference_source(["plain", "LIMIT"], fake_package)
    assert (
        text
        == 'def plain(a, b):\n    """Two lines\n    of docstring."""\n    return a + b\n\n\nLIMIT = 3  # a constant\n'
    )


def test_methods_become_one_class_block_with_the_docstring_in_symbol_order(fake_package: str) -> None:
    text = reference_source(["Tool.second", "plain", "Tool.first"], fake_package)
    assert text == textwrap.dedent('''\
        class Tool:
            """A tool.

            Second paragraph.
            """

            @property
            def second(self):
                return 2

            def first(self):
                return 1


        def plain(a, b):
            """Two lines
            of docstring."""
            return a + b
        ''')


def test_a_class_without_docstring_and_an_inherited_method(fake_package: str) -> None:
    text = reference_source(["Bare.only", "Tool.shared"], fake_package)
    assert text == (
        "class Bare:\n    def only(self):\n        return 0\n\n\n"
        'class Tool:\n    """A tool.\n\n    Second paragraph.\n    """\n\n'
        '    def shared(self):\n        return "base"\n'
    )


def test_a_whole_class_symbol_is_the_whole_class(fake_package: str) -> None:
    text = reference_source(["Bare"], fake_package)
    assert text == "class Bare:\n    def only(self):\n        return 0\n"


@pytest.mark.parametrize(
    ("symbol", "phrase"),
    [
        ("helper", "is not in"),  # importable but not public
        ("missing", "is not in"),
        ("plain.x", "is not a class"),
        ("Tool.nothing", "has no method `nothing`"),
        ("Tool.__repr__", "has no method"),  # only object has it: no source to show
        ("Tool.first.deeper", "not a symbol name"),
        ("", "not a symbol name"),
    ],
)
def test_symbols_the_package_does_not_provide(fake_package: str, symbol: str, phrase: str) -> None:
    problem = symbol_problem(symbol, fake_package)
    assert problem is not None and phrase in problem
    with pytest.raises(SymbolError, match=r"."):
        reference_source([symbol], fake_package)


def test_a_package_that_fails_to_import_is_a_problem_not_a_crash(tmp_path: Path, monkeypatch) -> None:
    name = f"brokenref_{uuid.uuid4().hex[:8]}"
    (tmp_path / name).mkdir()
    (tmp_path / name / "__init__.py").write_text("raise RuntimeError('half written')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        problem = symbol_problem("anything", name)
        assert problem is not None and "cannot import" in problem and "half written" in problem
    finally:
        reference.clear_caches()


def test_real_reference_function_and_method_blocks() -> None:
    text = reference_source(["count_pairs"])
    assert text.startswith("from collections import Counter\n\n\ndef count_pairs(")
    tree = ast.parse(text)
    assert [type(n).__name__ for n in tree.body] == ["ImportFrom", "FunctionDef"]
    text = reference_source(["apply_merges", "BPETokenizer.train", "BPETokenizer.tokenize"])
    tree = ast.parse(text)
    assert [getattr(n, "name", None) for n in tree.body[1:]] == ["apply_merges", "BPETokenizer"]
    methods = [n.name for n in tree.body[2].body if isinstance(n, ast.FunctionDef)]
    assert methods == ["train", "tokenize"]


def test_real_reference_symbol_checks() -> None:
    assert symbol_problem("learn_merges") is None
    assert symbol_problem("WordPieceTokenizer.tokenize_word") is None
    assert "not in reference_impl.__all__" in (symbol_problem("no_such_function") or "")
    assert "has no method" in (symbol_problem("BPETokenizer.no_such_method") or "")


def test_no_syntax_tree_is_kept_once_the_text_is_cut(fake_package: str) -> None:
    first = reference_source(["plain", "Tool.first"], fake_package)
    assert reference._parse.cache_info().currsize == 0
    reference.clear_caches()
    assert reference_source(["plain", "Tool.first"], fake_package) == first  # parsed anew
    assert reference._parse.cache_info().currsize == 0
