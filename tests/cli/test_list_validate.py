"""`tokdrill list` and `tokdrill validate`: output, JSON, exit codes, user content folders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tokdrill import locations
from tokdrill.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "content" / "fixtures"

DRILL = """\
id: {id}
title: User drill {id}
symbols: [count_pairs]
target_seconds: 420
difficulty: hard
tags: [mine]
hidden_tests: [test_fixture_ok.py]
prompt: Count the pairs.
starter: "def count_pairs(word_freqs): ..."
"""
DECK = """\
deck: {id}
title: User deck
cards:
  - id: {id}-card
    question: Q?
    answer: A.
    key_points: [one, two]
"""


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    """A valid user content folder: one drill (with its hidden test) and one deck."""
    folder = tmp_path / "user-content"
    (folder / "hidden").mkdir(parents=True)
    (folder / "hidden" / "test_fixture_ok.py").write_text(
        (FIXTURES / "hidden" / "test_fixture_ok.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (folder / "user-drill.yaml").write_text(DRILL.format(id="user-drill"), encoding="utf-8")
    (folder / "user-deck.yaml").write_text(DECK.format(id="user-deck"), encoding="utf-8")
    return folder


@pytest.fixture
def no_shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend tokdrill ships no content."""
    empty = tmp_path / "no-shipped"
    (empty / "drills").mkdir(parents=True)
    (empty / "questions").mkdir()
    monkeypatch.setattr(locations, "drills_dir", lambda: empty / "drills")
    monkeypatch.setattr(locations, "questions_dir", lambda: empty / "questions")


def test_list_shows_drills_and_decks_from_content_folders(user_dir: Path, no_shipped: None, capsys) -> None:
    assert main(["list", "--content", str(user_dir)]) == 0
    out = capsys.readouterr()
    assert "user-drill" in out.out and "7 min" in out.out and "count_pairs" in out.out
    assert "user-deck" in out.out and "1 cards" in out.out
    assert out.err == ""


def test_list_json(user_dir: Path, no_shipped: None, capsys) -> None:
    assert main(["list", "--json", "--content", str(user_dir)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["drills"] == [
        {
            "id": "user-drill",
            "title": "User drill user-drill",
            "target_seconds": 420,
            "symbols": ["count_pairs"],
            "difficulty": "hard",
            "tags": ["mine"],
        }
    ]
    assert document["decks"] == [{"id": "user-deck", "title": "User deck", "description": "", "cards": 1}]
    assert document["errors"] == []


def test_list_reads_tokdrill_content(user_dir: Path, no_shipped: None, capsys, monkeypatch) -> None:
    monkeypatch.setenv("TOKDRILL_CONTENT", str(user_dir))
    assert main(["list", "--json"]) == 0
    assert [d["id"] for d in json.loads(capsys.readouterr().out)["drills"]] == ["user-drill"]


def test_list_names_invalid_items_on_stderr_and_still_succeeds(user_dir: Path, no_shipped: None, capsys) -> None:
    (user_dir / "broken.yaml").write_text(DRILL.format(id="broken").replace("420", "-1"), encoding="utf-8")
    assert main(["list", "--content", str(user_dir)]) == 0
    out = capsys.readouterr()
    assert "broken" not in out.out
    assert "broken.yaml:4: target_seconds: must be positive, got -1" in out.err


def test_list_fails_when_nothing_loads(no_shipped: None, capsys) -> None:
    assert main(["list", "--content", str(FIXTURES / "empty.yaml")]) == 1
    assert "no drills or decks loaded" in capsys.readouterr().err


def test_validate_shipped_content_passes(capsys) -> None:
    code = main(["validate"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith("ok: ")


def test_validate_a_valid_folder(user_dir: Path, capsys) -> None:
    assert main(["validate", str(user_dir)]) == 0
    assert capsys.readouterr().out == "ok: 2 file(s), 1 drill(s), 1 deck(s), 1 card(s)\n"


def test_validate_broken_files_prints_every_problem_and_exits_1(capsys) -> None:
    paths = [FIXTURES / "multi_error_drill.yaml", FIXTURES / "deck_key_points.yaml"]
    assert main(["validate", *map(str, paths)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 11 + 2 + 1
    assert lines[0].endswith("multi_error_drill.yaml:1: starter: missing required key")
    assert lines[-2].endswith("deck_key_points.yaml:11: cards[1].key_points[1]: must not be empty")
    assert lines[-1] == "13 problem(s) in 2 file(s); 2 file(s) checked"


def test_validate_json(capsys) -> None:
    assert main(["validate", "--json", str(FIXTURES / "dup_cards")]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["valid"] is False
    assert (document["decks"], document["cards"], document["drills"]) == (2, 3, 0)
    assert [(Path(e["path"]).name, e["line"], e["field"]) for e in document["errors"]] == [
        ("a.yaml", 12, "cards[2].id"),
        ("b.yaml", 8, "cards[1].id"),
    ]


def test_validate_reports_only_the_given_paths(user_dir: Path, capsys) -> None:
    broken = FIXTURES / "drill_zero_target.yaml"
    assert main(["validate", "--content", str(FIXTURES / "mixed"), str(broken)]) == 1
    out = capsys.readouterr().out
    assert "drill_zero_target.yaml:4: target_seconds" in out and "mixed" not in out


def test_validate_catches_ids_that_collide_with_shipped_ones(tmp_path: Path, capsys) -> None:
    from tokdrill.content.loader import load_library

    shipped = load_library([])
    assert shipped.drills, "the shipped content has drills"
    taken = next(iter(shipped.drills))
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden" / "test_fixture_ok.py").write_text("def test_x(impl):\n    assert impl\n", "utf-8")
    (tmp_path / "clash.yaml").write_text(DRILL.format(id=taken), encoding="utf-8")
    assert main(["validate", str(tmp_path)]) == 1
    assert f"clash.yaml:1: id: duplicate drill id {taken!r}" in capsys.readouterr().out


def test_validate_missing_path_is_a_usage_error(tmp_path: Path, capsys) -> None:
    assert main(["validate", str(tmp_path / "nope")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_validate_a_folder_without_content_fails(tmp_path: Path, capsys) -> None:
    assert main(["validate", str(tmp_path)]) == 1
    assert "no content files" in capsys.readouterr().out


def test_validate_in_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "TOKDRILL_HOME": str(tmp_path)}
    env.pop("TOKDRILL_CONTENT", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tokdrill",
            "validate",
            str(FIXTURES / "yaml_syntax.yaml"),
            str(FIXTURES / "empty.yaml"),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "yaml_syntax.yaml:4: yaml: did not find expected ',' or ']'" in done.stdout
    assert "empty.yaml:1: file: the file is empty" in done.stdout
