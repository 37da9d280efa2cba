"""Schema v3: typing measurements, origin and per-test concepts on attempts; the auto_indent,
mock_minutes and timezone settings; every value checked on the way in and out."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from factories import make_attempt

from tokdrill.clock import FixedClock
from tokdrill.progress.records import TestOutcome
from tokdrill.progress.store import Store
from tokdrill.progress.transfer import export_document, import_document

TYPED: dict[str, object] = {
    "wpm": 61.5,
    "typing_accuracy": 0.93,
    "corrected_errors": 7,
    "costly_keys": (("_", 4), ("self", 2)),
    "origin": "check",
    "tests": (
        TestOutcome("test_bpe.py::test_merges", "passed", "", ("merge-order",)),
        TestOutcome("test_bpe.py::test_ties", "failed", "got 3", ("tie-break", "merge-order")),
    ),
}


def test_attempt_keeps_typing_measurements_origin_and_concepts(store: Store, tmp_path: Path) -> None:
    store.add_attempt(make_attempt(**TYPED))
    (stored,) = store.attempts()
    for key, value in TYPED.items():
        assert getattr(stored, key) == value
    with Store.open(tmp_path / "copy.sqlite3", clock=store.clock) as other:
        import_document(other, export_document(store), replace=True)
        assert other.attempts() == store.attempts()
    doc = export_document(store)
    assert doc["attempts"][0]["tests"][1]["concepts"] == ["tie-break", "merge-order"]
    assert doc["attempts"][0]["costly_keys"] == [["_", 4], ["self", 2]]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("wpm", -1.0),
        ("typing_accuracy", 1.5),
        ("corrected_errors", -2),
        ("origin", "phone"),
        ("costly_keys", tuple((str(i), 1) for i in range(11))),
        ("costly_keys", (("x", 0),)),
        ("tests", (TestOutcome("t", "passed", "", ("Not A Concept",)),)),
        ("tests", (TestOutcome("t", "skipped"),)),
        ("retype_accuracy", float("nan")),
    ],
)
def test_an_attempt_out_of_range_is_refused_before_anything_is_written(store: Store, field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field):
        store.add_attempt(make_attempt(**{field: value}))
    assert store.count("attempts") == 0


def test_new_settings_have_defaults_and_are_validated(store: Store) -> None:
    assert (store.auto_indent(), store.mock_minutes(), store.timezone()) == (False, 45, None)
    store.set_auto_indent(True)
    store.set_mock_minutes(90)
    store.set_timezone("America/New_York")
    assert (store.auto_indent(), store.mock_minutes(), store.timezone()) == (True, 90, "America/New_York")
    for key, bad in [
        ("auto_indent", "yes"),
        ("auto_indent", 1),
        ("mock_minutes", 9),
        ("mock_minutes", 181),
        ("mock_minutes", 45.5),
        ("timezone", "Mars/Olympus_Mons"),
        ("timezone", "../../etc/passwd"),
        ("timezone", 5),
    ]:
        with pytest.raises(ValueError):
            store.set_setting(key, bad)
    store.set_timezone(None)
    assert store.timezone() is None


def test_a_damaged_stored_setting_is_reported_not_used(store: Store, db_path: Path) -> None:
    store.set_mock_minutes(60)
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("UPDATE settings SET value = '500' WHERE key = 'mock_minutes'")
    conn.close()
    from tokdrill.progress.errors import StoreError

    with pytest.raises(StoreError, match="mock_minutes") as err:
        store.mock_minutes()
    assert err.value.problem == "damaged"


def test_fixed_clock_round_trip_of_typed_attempt_ids(store: Store, clock: FixedClock) -> None:
    first = store.add_attempt(make_attempt(**TYPED))
    clock.advance(hours=1)
    second = store.add_attempt(make_attempt(at=clock.now()))
    assert [a.id for a in store.attempts()] == [second, first]
