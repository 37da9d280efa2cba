"""Where content comes from: shipped folders, user folders, their layout, and the environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from content_helpers import FIXTURES, deck_yaml, drill_yaml, load_only

from tokdrill import locations
from tokdrill.content import yamlfile
from tokdrill.content.loader import content_files, load_library


def test_user_folder_holds_content_at_top_level_and_in_subfolders(content_dir: Path) -> None:
    (content_dir / "questions").mkdir()
    (content_dir / "drills").mkdir()
    (content_dir / "top-drill.yaml").write_text(drill_yaml("top-drill"), encoding="utf-8")
    (content_dir / "top-deck.yml").write_text(deck_yaml("top-deck", "top-card"), encoding="utf-8")
    (content_dir / "questions" / "sub-deck.yaml").write_text(deck_yaml("sub-deck", "sub-card"), encoding="utf-8")
    (content_dir / "drills" / "sub-drill.yaml").write_text(drill_yaml("sub-drill"), encoding="utf-8")
    (content_dir / "notes.txt").write_text("not content", encoding="utf-8")
    library = load_only(content_dir)
    assert library.errors == ()
    assert sorted(library.drills) == ["sub-drill", "top-drill"]
    assert sorted(library.decks) == ["sub-deck", "top-deck"]
    hidden = (content_dir / "hidden" / "test_user_drill.py").resolve()
    assert library.drill("sub-drill").hidden_tests == (hidden,)  # found in <content dir>/hidden/


def test_hidden_tests_next_to_the_drill_file_come_first(content_dir: Path) -> None:
    drills = content_dir / "drills"
    (drills / "hidden").mkdir(parents=True)
    (drills / "hidden" / "test_user_drill.py").write_text("def test_x(impl):\n    assert impl\n", encoding="utf-8")
    (drills / "d.yaml").write_text(drill_yaml("d"), encoding="utf-8")
    library = load_only(content_dir)
    assert library.drill("d").hidden_tests == ((drills / "hidden" / "test_user_drill.py").resolve(),)


def test_user_drills_may_name_shipped_hidden_tests(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "shipped" / "drills"
    (shipped / "hidden").mkdir(parents=True)
    (shipped / "hidden" / "test_shipped_one.py").write_text("def test_x(impl):\n    assert impl\n", encoding="utf-8")
    monkeypatch.setattr(locations, "drills_dir", lambda: shipped)
    user = tmp_path / "user"
    user.mkdir()
    (user / "mine.yaml").write_text(drill_yaml("mine", hidden="test_shipped_one.py"), encoding="utf-8")
    library = load_library([user], include_shipped=False)
    assert library.drill("mine").hidden_tests == ((shipped / "hidden" / "test_shipped_one.py").resolve(),)


def test_extra_dirs_default_to_tokdrill_content(content_dir: Path, tmp_path_factory, monkeypatch) -> None:
    (content_dir / "env-drill.yaml").write_text(drill_yaml("env-drill"), encoding="utf-8")
    other = tmp_path_factory.mktemp("other")
    (other / "env-deck.yaml").write_text(deck_yaml("env-deck", "env-card"), encoding="utf-8")
    monkeypatch.setenv("TOKDRILL_CONTENT", f"{content_dir}{os.pathsep}{other}")
    library = load_library(include_shipped=False)
    assert list(library.drills) == ["env-drill"] and list(library.decks) == ["env-deck"]
    assert load_library([], include_shipped=False).drills == {}


def test_shipped_content_loads_before_user_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped_drills, shipped_questions = tmp_path / "drills", tmp_path / "questions"
    (shipped_drills / "hidden").mkdir(parents=True)
    shipped_questions.mkdir()
    (shipped_drills / "hidden" / "test_user_drill.py").write_text("def test_x(impl):\n    assert impl\n", "utf-8")
    (shipped_drills / "same.yaml").write_text(drill_yaml("same"), encoding="utf-8")
    (shipped_questions / "deck.yaml").write_text(deck_yaml("shipped-deck", "shipped-card"), encoding="utf-8")
    monkeypatch.setattr(locations, "drills_dir", lambda: shipped_drills)
    monkeypatch.setattr(locations, "questions_dir", lambda: shipped_questions)
    user = tmp_path / "user"
    user.mkdir()
    (user / "same.yaml").write_text(drill_yaml("same"), encoding="utf-8")
    library = load_library([user])
    assert library.drill("same").origin.path == shipped_drills / "same.yaml"
    assert [(e.path, e.field) for e in library.errors] == [(user / "same.yaml", "id")]
    assert library.card("shipped-card").deck == "shipped-deck"


def test_a_file_given_twice_is_loaded_once() -> None:
    library = load_only(FIXTURES / "valid_drill.yaml", FIXTURES / "valid_drill.yaml")
    assert library.errors == () and len(library.files) == 1


def test_content_files_lists_top_level_then_subfolders(tmp_path: Path) -> None:
    for rel in ["b.yaml", "a.yml", "questions/q.yaml", "drills/d.yaml", "drills/hidden/x.yaml", "other/o.yaml"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x: 1\n", encoding="utf-8")
    names = [p.relative_to(tmp_path).as_posix() for p in content_files(tmp_path)]
    assert names == ["a.yml", "b.yaml", "questions/q.yaml", "drills/d.yaml"]


def test_yaml_reader_uses_the_c_safe_loader_when_available() -> None:
    base = yamlfile._Loader.__mro__[1]
    if yaml.__with_libyaml__:
        assert base is yaml.CSafeLoader
    else:
        assert base is yaml.SafeLoader


def test_garbage_collection_is_restored_after_loading() -> None:
    import gc

    assert gc.isenabled()
    load_only(FIXTURES / "mixed")
    assert gc.isenabled()


def broken_card_deck(deck_id: str) -> str:
    """A deck with one valid card and one whose answer is missing (the file has an error)."""
    return deck_yaml(deck_id, "kept-card") + "  - id: broken-card\n    question: Q?\n    key_points: [one, two]\n"


@pytest.mark.parametrize("broken_first", [True, False], ids=["broken-file-first", "valid-file-first"])
def test_a_duplicate_deck_id_never_lets_a_broken_file_hide_a_valid_one(content_dir: Path, broken_first: bool) -> None:
    broken, valid = ("a.yaml", "b.yaml") if broken_first else ("b.yaml", "a.yaml")
    (content_dir / broken).write_text(broken_card_deck("shared"), encoding="utf-8")
    (content_dir / valid).write_text(deck_yaml("shared", "valid-one", "valid-two"), encoding="utf-8")
    library = load_only(content_dir)
    assert [c.id for c in library.deck("shared").cards] == ["valid-one", "valid-two"]
    assert library.deck("shared").origin.path.name == valid
    shown = [(e.path.name, e.field) for e in library.errors]
    assert (broken, "cards[1].answer") in shown
    [duplicate] = [e for e in library.errors if e.field == "deck"]
    assert duplicate.path.name == "b.yaml"  # reported on the later file either way
    assert f"{content_dir / 'a.yaml'}:1" in duplicate.message
    if broken_first:
        assert "in a file with errors; this definition is used" in duplicate.message


def test_a_duplicate_drill_id_prefers_the_file_without_errors(content_dir: Path) -> None:
    (content_dir / "a.yaml").write_text(drill_yaml("same") + "unknown_key: 1\n", encoding="utf-8")
    (content_dir / "b.yaml").write_text(drill_yaml("same").replace("Drill same", "Valid same"), encoding="utf-8")
    library = load_only(content_dir)
    # a.yaml's drill is broken (dropped) so there is no duplicate at all: b.yaml's drill loads.
    assert library.drill("same").title == "Valid same"
    assert [(e.path.name, e.field) for e in library.errors] == [("a.yaml", "unknown_key")]


def test_a_duplicate_card_id_prefers_the_card_in_the_file_without_errors(content_dir: Path) -> None:
    (content_dir / "a.yaml").write_text(broken_card_deck("first-deck"), encoding="utf-8")
    (content_dir / "b.yaml").write_text(deck_yaml("second-deck", "kept-card", "other-card"), encoding="utf-8")
    library = load_only(content_dir)
    assert library.card("kept-card").deck == "second-deck"
    assert "first-deck" not in library.decks  # its only valid card is defined, valid, elsewhere
    shown = [(e.path.name, e.line, e.field) for e in library.errors]
    assert shown == [("a.yaml", 9, "cards[1].answer"), ("b.yaml", 5, "cards[0].id")]
    assert "in a file with errors; this definition is used" in library.errors[1].message
