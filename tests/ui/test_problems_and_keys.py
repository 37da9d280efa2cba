"""Broken content or a broken database: a readable notice, and the app opens with what is valid.
Also: the app's keys never take a key the code editor needs."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
from textual.binding import Binding, BindingType
from textual.widgets import Static
from ui_helpers import SIZE

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.ui import keymap
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.dialogs import Problems
from tokdrill.ui.screens.home import HomeScreen
from tokdrill.ui.today_text import queue_lines
from tokdrill.ui.widgets.code_editor import CodeEditor


def _keys(bindings: Iterable[BindingType]) -> set[str]:
    return {key for binding in Binding.make_bindings(bindings) for key in binding.key.split(",")}


def test_drill_screen_and_app_keys_leave_the_editor_keys_alone() -> None:
    editor_keys: set[str] = set()
    for cls in CodeEditor.__mro__:  # every binding the editor has, inherited ones included
        editor_keys |= _keys(cls.__dict__.get("BINDINGS", []))
    editor_keys |= {f"ctrl+{c}" for c in "aekuwdzyxcv"}
    clashes = (_keys(keymap.APP) | _keys(keymap.DRILL)) & editor_keys
    assert clashes == set()
    assert all(b.priority for b in keymap.bindings(keymap.DRILL))  # they work while the editor has focus


def test_every_binding_has_a_unique_id() -> None:
    ids = [b.id for group in keymap.GROUPS.values() for b in keymap.bindings(group)]
    assert all(ids) and len(ids) == len(set(ids))


async def test_broken_content_file_is_a_notice_not_a_crash(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FixedClock
) -> None:
    extra = tmp_path / "mine"
    extra.mkdir()
    (extra / "broken.yaml").write_text("deck: mine\ntitle: [unclosed\n")
    monkeypatch.setenv("TOKDRILL_CONTENT", str(extra))
    backend = Backend.open(clock=clock)
    assert any("broken.yaml" in p for p in backend.problems)
    assert "bytes-to-unicode" in backend.library.drills  # the shipped content still loads
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        line = str(app.screen.query_one("#problems-line", Static).render())
        assert "press e" in line
        await pilot.press("e")
        assert isinstance(app.screen, Problems)
        assert any("broken.yaml" in p for p in app.screen.problems)


async def test_damaged_database_is_a_notice_and_the_app_still_opens(home: Path, clock: FixedClock) -> None:
    home.mkdir(parents=True)
    (home / "progress.sqlite3").write_bytes(b"this is not a database" * 100)
    backend = Backend.open(clock=clock)
    assert any("progress database" in p for p in backend.problems)
    assert any("Repair progress" in p for p in backend.problems)
    assert (home / "progress.sqlite3").read_bytes().startswith(b"this is not")  # left untouched
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("e")
        assert isinstance(app.screen, Problems)


BROKEN_DRILL = """\
id: my-broken-drill
title: A drill naming code that does not exist
symbols: [no_such_function]
target_seconds: 60
difficulty: easy
tags: [mine]
hidden_tests: [test_mine.py]
prompt: Write it.
starter: |
  def no_such_function():
      ...
"""


async def test_drill_with_unknown_symbol_is_reported_after_start_and_refuses_to_open(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clock: FixedClock
) -> None:
    extra = tmp_path / "mine"
    (extra / "hidden").mkdir(parents=True)
    (extra / "hidden" / "test_mine.py").write_text("def test_nothing(impl):\n    assert impl\n")
    (extra / "my-broken-drill.yaml").write_text(BROKEN_DRILL)
    monkeypatch.setenv("TOKDRILL_CONTENT", str(extra))
    backend = Backend.open(clock=clock)
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        app.start_drill("my-broken-drill", "recall")  # before the background check: checked now
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        reported = [p for p in backend.problems if "my-broken-drill.yaml" in p and "no_such_function" in p]
        assert len(reported) == 1
        assert "my-broken-drill" in backend.broken_drills
        assert all(item.item_id != "my-broken-drill" for item in queue_lines(backend.today(), backend.clock.now()))
        await pilot.pause(0.8)  # the background check has run by now and reports nothing twice
        await app.workers.wait_for_complete()
        assert len([p for p in backend.problems if "no_such_function" in p]) == 1
