"""`tokdrill stats`, `export` and `import`: exit codes, JSON output, clear errors."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tokdrill.cli import main, stats_cmd
from tokdrill.progress.records import Attempt
from tokdrill.progress.records import TestOutcome as TestResult
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog

CATALOG = Catalog({"bpe-train": 600}, {"bpe": ("b1", "b2")})
END = datetime(2026, 1, 5, 9, tzinfo=UTC)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    with Store.open(folder / "progress.sqlite3") as store:
        for i, passed in enumerate((False, True)):
            end = END + timedelta(days=i)
            store.add_attempt(
                Attempt(
                    "bpe-train",
                    "recall",
                    end - timedelta(seconds=400),
                    end,
                    400.0 - i,
                    600,
                    passed,
                    2,
                    (TestResult("t.py::test_a", "passed"),),
                )
            )
    return folder


@pytest.fixture
def fake_content(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stats_cmd, "load_catalog", lambda args: CATALOG)


def test_stats_json(data: Path, fake_content: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(data), "stats", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (drill,) = doc["drills"]
    assert (drill["id"], drill["attempts"], drill["passes"], drill["best_seconds"]) == ("bpe-train", 2, 1, 399.0)
    assert doc["decks"][0]["cards_total"] == 2 and doc["totals"] == {"attempts": 2, "reviews": 0}


def test_stats_text(data: Path, fake_content: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "bpe-train" in out and "Readiness: set an interview date" in out
    from tokdrill.scheduling.readiness import READINESS_EXPLANATION

    assert " ".join(out.split()).count(" ".join(READINESS_EXPLANATION.split())) == 1
    assert f"Progress is kept in {data}" in out


def test_stats_json_names_the_data_folder_and_explains_readiness(
    data: Path, fake_content: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--data-dir", str(data), "stats", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["data_dir"] == str(data) and doc["database"] == str(data / "progress.sqlite3")
    assert "interview" in doc["readiness_explanation"]


def test_stats_with_the_shipped_content(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(data), "stats", "--json"]) == 0
    assert "drills" in json.loads(capsys.readouterr().out)


def test_stats_on_a_damaged_database_exits_1_naming_file_and_backup(
    tmp_path: Path, fake_content: None, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "progress.sqlite3"
    db.write_text("not a database at all " * 20)
    assert main(["--data-dir", str(tmp_path), "stats"]) == 1
    err = capsys.readouterr().err
    assert str(db) in err and ".broken-" in err and "Traceback" not in err
    assert db.read_text().startswith("not a database")


def test_export_then_import_replace_round_trips(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "backup.json"
    assert main(["--data-dir", str(data), "export", str(out)]) == 0
    other = tmp_path / "other"
    assert main(["--data-dir", str(other), "import", str(out), "--replace"]) == 0
    again = tmp_path / "again.json"
    assert main(["--data-dir", str(other), "export", str(again)]) == 0
    first, second = json.loads(out.read_text()), json.loads(again.read_text())
    first.pop("exported_at"), second.pop("exported_at")
    assert first == second and len(first["attempts"]) == 2


def test_import_merge_twice_adds_once(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "backup.json"
    assert main(["--data-dir", str(data), "export", str(out)]) == 0
    other = tmp_path / "other"
    assert main(["--data-dir", str(other), "import", str(out)]) == 0
    assert main(["--data-dir", str(other), "import", str(out)]) == 0
    assert "already present" in capsys.readouterr().err
    with Store.open(other / "progress.sqlite3") as store:
        assert store.count("attempts") == 2


def test_import_refuses_bad_input_and_changes_nothing(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "backup.json"
    assert main(["--data-dir", str(data), "export", str(out)]) == 0
    doc = json.loads(out.read_text())
    doc["attempts"][1]["passed"] = "yes"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["--data-dir", str(data), "import", str(bad), "--replace"]) == 1
    err = capsys.readouterr().err
    assert "attempts[1].passed" in err and "nothing was changed" in err and str(bad) in err
    with Store.open(data / "progress.sqlite3") as store:
        assert [a.passed for a in store.attempts()] == [True, False]


def test_import_of_broken_json_names_line_and_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "tokdrill-progress",\n  "attempts": [}\n')
    assert main(["--data-dir", str(tmp_path), "import", str(bad)]) == 1
    assert f"{bad}:2:" in capsys.readouterr().err


def test_import_of_a_missing_file_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path), "import", str(tmp_path / "nope.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_export_csv(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "attempts.csv"
    assert main(["--data-dir", str(data), "export", "--csv", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("id,drill_id,mode") and len(lines) == 3


def test_export_to_an_unwritable_place_exits_1(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(data), "export", str(tmp_path / "no-such-dir" / "x.json")]) == 1
    assert "cannot write" in capsys.readouterr().err
