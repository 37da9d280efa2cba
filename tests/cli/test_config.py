"""`tokdrill config [KEY [VALUE]]`: list, show, set and reset settings; bad input is refused
with the key and the reason, and changes travel with export and import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tokdrill.cli import main
from tokdrill.progress import settings as keys
from tokdrill.progress.store import Store


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def config(data: Path, *words: str) -> int:
    return main(["--data-dir", str(data), "config", *words])


def test_lists_every_setting_with_its_value_and_meaning(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert config(data) == 0
    out = capsys.readouterr().out
    for key, description in keys.DESCRIPTIONS.items():
        assert key in out and description in out
    assert config(data, "--json") == 0
    assert json.loads(capsys.readouterr().out) == keys.DEFAULTS


@pytest.mark.parametrize(
    ("key", "typed", "stored"),
    [
        ("new_cards_per_day", "20", 20),
        ("new_drills_per_day", "0", 0),
        ("desired_retention", "0.85", 0.85),
        ("auto_indent", "true", True),
        ("interview_date", "2026-03-01", "2026-03-01"),
        ("mock_minutes", "60", 60),
        ("timezone", "Europe/Berlin", "Europe/Berlin"),
    ],
)
def test_sets_a_value_and_shows_it(
    data: Path, capsys: pytest.CaptureFixture[str], key: str, typed: str, stored: object
) -> None:
    assert config(data, key, typed) == 0
    assert capsys.readouterr().out.strip() == keys.setting_text(stored)  # type: ignore[arg-type]
    with Store.open(data / "progress.sqlite3") as store:
        assert store.get_setting(key) == stored
    assert config(data, key, "--json") == 0
    assert json.loads(capsys.readouterr().out) == {"key": key, "value": stored}
    assert config(data, key, "--reset") == 0
    assert capsys.readouterr().out.strip() == keys.setting_text(keys.DEFAULTS[key])


@pytest.mark.parametrize(
    ("key", "typed", "reason"),
    [
        ("new_cards_per_day", "lots", "whole number from 0 to 1000"),
        ("new_cards_per_day", "2.5", "whole number"),
        ("desired_retention", "2", "from 0.7 to 0.99"),
        ("auto_indent", "maybe", "true or false"),
        ("interview_date", "March 1st", "YYYY-MM-DD"),
        ("timezone", "Mars/Olympus", "unknown time zone"),
    ],
)
def test_refuses_a_bad_value_naming_key_and_reason_and_changes_nothing(
    data: Path, capsys: pytest.CaptureFixture[str], key: str, typed: str, reason: str
) -> None:
    assert config(data, key, typed) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"tokdrill config: {key}: ") and reason in err and "Traceback" not in err
    assert config(data, key) == 0
    assert capsys.readouterr().out.strip() == keys.setting_text(keys.DEFAULTS[key])


def test_unknown_key_and_misuse_are_usage_errors(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert config(data, "colour", "blue") == 2
    assert "unknown setting 'colour'" in capsys.readouterr().err
    assert config(data, "--reset") == 2
    assert config(data, "auto_indent", "true", "--reset") == 2


def test_settings_travel_with_export_and_import(data: Path, tmp_path: Path) -> None:
    assert config(data, "new_cards_per_day", "25") == 0
    assert config(data, "interview_date", "2026-02-20") == 0
    exported = tmp_path / "progress.json"
    assert main(["--data-dir", str(data), "export", str(exported)]) == 0
    elsewhere = tmp_path / "elsewhere"
    assert main(["--data-dir", str(elsewhere), "import", str(exported)]) == 0
    with Store.open(elsewhere / "progress.sqlite3") as store:
        assert store.get_setting("new_cards_per_day") == 25
        assert store.get_setting("interview_date") == "2026-02-20"
