"""Schema v4: concept results back-filled from the attempts a v3 database holds; mock rounds and
starts stored, validated and read back."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import msgspec
import pytest
from factories import T0

from tokdrill.clock import FixedClock
from tokdrill.progress.document import InvalidRecord
from tokdrill.progress.records import MockAnswer, MockRound, Start
from tokdrill.progress.schema import migrate
from tokdrill.progress.store import Store


def test_v3_attempts_become_concept_results(tmp_path: Path) -> None:
    path = tmp_path / "v3.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    migrate(conn, 0, 3)
    tests = [
        {"name": "t.py::test_rank", "outcome": "failed", "message": "", "concepts": ["merge-order"]},
        {"name": "t.py::test_tie", "outcome": "passed", "message": "", "concepts": ["tie-break", "merge-order"]},
        {"name": "t.py::test_plain", "outcome": "passed", "message": ""},
    ]
    conn.execute(
        "INSERT INTO attempts (drill_id, mode, started_at, ended_at, active_seconds, target_seconds, passed, "
        "submissions, tests, origin) VALUES ('bpe-encode', 'recall', '2026-01-04T09:00:00.000000+00:00', "
        "'2026-01-04T09:10:00.000000+00:00', 540.0, 900, 0, 2, ?, 'check')",
        (json.dumps(tests),),
    )
    conn.execute("COMMIT")
    conn.close()
    with Store.open(path, clock=FixedClock()) as store:
        results = {r.concept: r for r in store.concept_results()}
        assert set(results) == {"merge-order", "tie-break"}
        assert results["merge-order"].failed_tests == ("t.py::test_rank",)
        assert results["merge-order"].origin == "check" and not results["tie-break"].failed
        assert results["merge-order"].at.isoformat() == "2026-01-04T09:10:00+00:00"
        assert set(store.last_failures()) == {"merge-order"} and set(store.last_passes()) == {"tie-break"}


def test_mock_rounds_and_starts_round_trip(tmp_path: Path) -> None:
    with Store.open(tmp_path / "p.sqlite3", clock=FixedClock()) as store:
        answers = (MockAnswer("bpe-encode-rank-order", None, "rank order", 1, 3), MockAnswer("c", 0, "text", 0, 0))
        mock = MockRound(T0, T0, 2700, "bpe-encode", 900, True, 612.5, answers, ("tie-break",))
        first = store.add_mock_round(mock)
        assert store.add_mock_round(mock) == first  # the same round twice is stored once
        (back,) = store.mock_rounds()
        assert back == msgspec.structs.replace(mock, id=first)
        with store.write() as w:
            w.put_start(Start("bpe-encode", "recall", "/tmp/x.py", T0, 3))
        assert store.start("bpe-encode") == Start("bpe-encode", "recall", "/tmp/x.py", T0, 3)
        with pytest.raises(InvalidRecord, match="covered"):
            store.add_mock_round(MockRound(T0, T0, 60, "d", 60, False, None, (MockAnswer("c", None, "", 4, 3),), ()))
