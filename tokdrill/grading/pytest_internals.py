"""Every private name of pytest the grader uses, and only those: the rest of grading goes
through these functions. tests/grading/test_pytest_internals.py checks each name and signature
against the installed pytest, so a release that changes one fails that test by name (grading
itself then falls back to ``pytest.main``, slower but equally correct).

Used: ``_prepareconfig``, ``Session.from_config`` and ``Config._do_configure`` to configure and
collect once in the grading process; the unittest plugin's item class, to know whether a run
needs it; and ``_pytest._code``'s statement lookups, ``findsource``, ``Code.path`` and
``Source``, which the grader replaces with memoised versions for faster failure reports.
"""

from __future__ import annotations

import ast
import io
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pytest

if TYPE_CHECKING:  # pytest's types of a traceback entry's code and of a file's source
    from _pytest._code.code import Code as Code
    from _pytest._code.source import Source as Source

UNITTEST_MODULE = "_pytest.unittest"  # where pytest's TestCase items are defined


def private_api_present() -> bool:
    """Whether this pytest has the names :func:`configured_session` uses."""
    try:
        from _pytest.config import Config, _prepareconfig
        from _pytest.main import Session
    except ImportError:
        return False
    return callable(_prepareconfig) and hasattr(Session, "from_config") and hasattr(Config, "_do_configure")


def prepare_config(args: list[str], plugins: Sequence[object]) -> pytest.Config:
    """pytest's configuration for ``args`` with ``plugins`` registered, not yet configured."""
    from _pytest.config import _prepareconfig

    return _prepareconfig(args, plugins=list(plugins))


def configured_session(config: pytest.Config) -> pytest.Session:
    """A session over ``config``, configured (``pytest_configure`` has run), ready to collect.
    The terminal reporter binds sys.stdout while configuring: it gets a private buffer, so
    neither the grader's stdout nor a submission's output sees its text."""
    from _pytest.main import Session

    session = Session.from_config(config)
    real_stdout, sys.stdout = sys.stdout, io.StringIO()
    try:
        config._do_configure()
    finally:
        sys.stdout = real_stdout
    return session


def is_unittest_item(item: pytest.Item) -> bool:
    """Whether ``item`` is a ``unittest.TestCase`` method (run by pytest's unittest plugin)."""
    return type(item).__module__ == UNITTEST_MODULE


class ReportLookups(NamedTuple):
    """The functions of ``_pytest._code`` a failure report calls over and over (``path`` is the
    getter of the ``Code.path`` property)."""

    getstatementrange_ast: Callable[[int, Source, bool, ast.AST | None], tuple[ast.AST, int, int]]
    get_statement_startend2: Callable[[int, ast.AST], tuple[int, int | None]]
    findsource: Callable[[object], tuple[Source | None, int]]
    path: Callable[[Code], Path | str]


def report_lookups() -> ReportLookups | None:
    """pytest's own report lookups; None if it no longer has them as expected (its own, slower,
    way then stays)."""
    try:
        from _pytest._code import code as code_module
        from _pytest._code import source as source_module

        path = vars(code_module.Code)["path"]
        return ReportLookups(
            source_module.getstatementrange_ast,
            source_module.get_statement_startend2,
            source_module.findsource,
            path.fget,
        )
    except (ImportError, AttributeError, KeyError):
        return None


def replace_report_lookups(lookups: ReportLookups) -> None:
    """Have pytest's failure reports call ``lookups`` instead of its own (where ``code.py``
    imported a name from ``source.py``, its copy is replaced too)."""
    from _pytest._code import code as code_module
    from _pytest._code import source as source_module

    replaced = {
        (code_module.Code, "path"): property(lookups.path),
        (source_module, "findsource"): lookups.findsource,
        (code_module, "findsource"): lookups.findsource,
        (source_module, "get_statement_startend2"): lookups.get_statement_startend2,
        (source_module, "getstatementrange_ast"): lookups.getstatementrange_ast,
        (code_module, "getstatementrange_ast"): lookups.getstatementrange_ast,
    }
    for (owner, name), value in replaced.items():
        setattr(owner, name, value)


def new_source(lines: list[str]) -> Source:
    """A pytest ``Source`` of a file's lines, made as pytest's ``findsource`` makes it."""
    from _pytest._code.source import Source

    source = Source()
    source.lines = [line.rstrip() for line in lines]
    source.raw_lines = lines
    return source
