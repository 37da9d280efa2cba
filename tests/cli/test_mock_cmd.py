"""`tokdrill mock` opens the app on a mock round; `tokdrill stats` lists stored rounds."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from tokdrill import locations
from tokdrill.cli import main
from tokdrill.progress.records import MockAnswer, MockRound
from tokdrill.progress.store import Store
from tokdrill.ui.app import TokdrillApp


def test_mock_opens_the_app_on_the_mock_round(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str | None] = []

    def run(self: TokdrillApp) -> None:
        started.append(self.start_action)
        self.backend.close()

    monkeypatch.setattr(TokdrillApp, "run", run)
    assert main(["mock"]) == 0
    assert started == ["mock"]


def test_stats_lists_mock_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    at = datetime(2026, 1, 5, 9, tzinfo=UTC)
    answers = (MockAnswer("bpe-encode-rank-order", None, "lowest rank", 1, 2), MockAnswer("c", 0, "x", 0, 0))
    with Store.open(locations.database_path()) as store:
        store.set_timezone("UTC")
        store.add_mock_round(MockRound(at, at, 2700, "bpe-encode", 900, True, 610.0, answers, ("merge-order",)))
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "2026-01-05  bpe-encode passed 10:10/15:00 · key points 1/2 · missed: merge-order" in out
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mock_rounds"] == [
        "2026-01-05  bpe-encode passed 10:10/15:00 · key points 1/2 · missed: merge-order"
    ]
