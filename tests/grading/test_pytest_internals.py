"""The private names of pytest the grader uses are still there, with the signatures it calls
them with. A pytest release that changes one fails here, by name: grading would otherwise fall
back to ``pytest.main`` without a word (correct, but every warm verdict slower)."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest

from tokdrill.grading import pytest_internals
from tokdrill.grading.pytest_session import PublicSession, SubmissionPlugin, open_session, session_args


def _parameters(function: object) -> list[str]:
    return list(inspect.signature(function).parameters)  # type: ignore[arg-type]


def test_configuring_and_collecting_uses_names_this_pytest_has() -> None:
    from _pytest.config import Config, _prepareconfig
    from _pytest.main import Session

    assert pytest_internals.private_api_present(), "pytest lacks _prepareconfig, Session.from_config or _do_configure"
    assert _parameters(_prepareconfig)[:2] == ["args", "plugins"], "_prepareconfig(args, plugins) changed"
    assert _parameters(Session.from_config) == ["config"], "Session.from_config(config) changed"
    assert _parameters(Config._do_configure) == ["self"], "Config._do_configure() changed"


def test_the_report_lookups_the_grader_replaces_are_where_it_expects_them() -> None:
    from _pytest._code import code as code_module
    from _pytest._code import source as source_module

    originals = pytest_internals.report_lookups()
    assert originals is not None, "_pytest._code lacks a lookup the grader replaces, or Code.path is not a property"
    expected = {
        "getstatementrange_ast": ["lineno", "source", "assertion", "astnode"],
        "get_statement_startend2": ["lineno", "node"],
        "findsource": ["obj"],
    }
    for name, parameters in expected.items():
        assert _parameters(getattr(source_module, name)) == parameters, f"_pytest._code.source.{name} changed"
    for name in ("getstatementrange_ast", "findsource"):  # code.py's own copies are replaced too
        assert name in vars(code_module), f"_pytest._code.code no longer imports {name}"
    assert isinstance(vars(code_module.Code)["path"], property), "_pytest._code.code.Code.path is not a property"
    source = pytest_internals.new_source(["x = 1   \n", "y = 2\n"])
    assert isinstance(source, source_module.Source)
    assert source.lines == ["x = 1", "y = 2"] and str(source) == "x = 1\ny = 2"


def test_a_unittest_case_is_told_from_a_test_function(tmp_path: Path) -> None:
    (tmp_path / "test_kinds.py").write_text(
        "import unittest\n\n\ndef test_plain():\n    pass\n\n\n"
        "class Case(unittest.TestCase):\n    def test_method(self):\n        pass\n",
        encoding="utf-8",
    )
    old_cwd = os.getcwd()
    try:
        config = pytest_internals.prepare_config(session_args([str(tmp_path / "test_kinds.py")]), [])
        session = pytest_internals.configured_session(config)
        config.hook.pytest_sessionstart(session=session)
        config.hook.pytest_collection(session=session)
        kinds = {item.name: pytest_internals.is_unittest_item(item) for item in session.items}
        config._ensure_unconfigure()
    finally:
        os.chdir(old_cwd)
    assert kinds == {"test_plain": False, "test_method": True}, f"pytest's unittest items moved: {kinds}"


def test_without_the_private_names_grading_collects_through_pytest_main(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a changed internal leads to: ``open_session`` still collects, through the public API."""
    (tmp_path / "test_fallback_kinds.py").write_text("def test_one(impl):\n    pass\n", encoding="utf-8")
    monkeypatch.setattr(pytest_internals, "private_api_present", lambda: False)
    session = open_session([str(tmp_path / "test_fallback_kinds.py")], SubmissionPlugin())
    assert isinstance(session, PublicSession)
    assert session.collection.names == ("test_fallback_kinds.py::test_one",)
