"""Export/import: an exact round trip, merge and replace semantics, bad input refused untouched,
and the attempts CSV."""

from __future__ import annotations

import copy
import csv
import io
import json
from datetime import date, timedelta
from pathlib import Path

import pytest
from factories import T0, make_attempt

from tokdrill.clock import FixedClock
from tokdrill.progress.records import ConceptResult, Draft, MockAnswer, MockRound, Start
from tokdrill.progress.store import Store
from tokdrill.progress.transfer import (
    ImportRejected,
    export_document,
    import_document,
    write_attempts_csv,
)
from tokdrill.scheduling.planner import Planner


def _fill(store: Store, clock: FixedClock) -> None:
    planner = Planner(store, clock)
    for i, (passed, secs) in enumerate([(False, 700.25), (True, 512.0), (True, 333.3333333333333)]):
        clock.advance(days=1)
        planner.record_attempt(
            make_attempt(
                at=clock.now(),
                seconds=secs,
                passed=passed,
                keystrokes=900 + i if i else None,
                retype_accuracy=0.9 if i else None,
            )
        )
    for rating in (1, 3, 4):
        clock.advance(hours=5)
        planner.review_card("bpe-why-rank", rating, 3.5)
    store.save_draft(Draft("wordpiece", "retype", "déjà vu\n\ttabs", 17.125, clock.now()))
    store.set_interview_date(date(2026, 3, 1))
    store.set_setting("ui.theme", ["dark", 1.5])
    store.set_auto_indent(True)
    store.set_mock_minutes(75)
    store.set_timezone("Asia/Kolkata")
    store.add_concept_results(
        [
            ConceptResult("bpe-encode", "check", clock.now(), "merge-order", ("t.py::test_rank",)),
            ConceptResult("bpe-encode", "check", clock.now(), "tie-break"),
        ]
    )
    answer = MockAnswer("bpe-why-rank", None, "rank order, learned earliest", 1, 2)
    store.add_mock_round(
        MockRound(clock.now(), clock.now(), 2700, "bpe-encode", 900, False, 812.5, (answer,), ("merge-order",))
    )
    with store.write() as w:
        w.put_start(Start("bpe-encode", "recall", "/home/me/bpe.py", clock.now(), 2))


def _same(a: dict, b: dict) -> bool:
    return {k: v for k, v in a.items() if k != "exported_at"} == {k: v for k, v in b.items() if k != "exported_at"}


def test_export_import_replace_round_trips_exactly(tmp_path: Path, store: Store, clock: FixedClock) -> None:
    _fill(store, clock)
    first = export_document(store)
    text = json.dumps(first)
    with Store.open(tmp_path / "other.sqlite3", clock=clock) as other:
        other.add_attempt(make_attempt("to-be-replaced"))
        import_document(other, json.loads(text), replace=True)
        second = export_document(other)
        assert other.attempts() == store.attempts()
        assert other.reviews() == store.reviews()
        assert other.item_states("card") == store.item_states("card")
        assert (other.auto_indent(), other.mock_minutes(), other.timezone()) == (True, 75, "Asia/Kolkata")
    assert _same(first, second)
    assert json.dumps(second["attempts"]) == json.dumps(first["attempts"])  # floats digit for digit
    assert len(first["attempts"]) == 3 and len(first["reviews"]) == 3 and len(first["schedule"]) == 2


def test_merge_adds_only_what_is_missing(tmp_path: Path, store: Store, clock: FixedClock) -> None:
    _fill(store, clock)
    doc = export_document(store)
    summary = import_document(store, doc)  # merging into itself changes nothing
    assert set(summary.added.values()) == {0}
    assert summary.skipped["attempts"] == 3 and summary.skipped["reviews"] == 3
    with Store.open(tmp_path / "laptop.sqlite3", clock=clock) as laptop:
        laptop.set_new_cards_per_day(3)
        laptop.add_attempt(make_attempt("unigram", at=T0 - timedelta(days=9)))
        summary = import_document(laptop, doc)
        assert summary.added["attempts"] == 3 and summary.added["reviews"] == 3
        assert laptop.count("attempts") == 4
        assert laptop.new_cards_per_day() == 3  # local settings win when merging
        assert laptop.interview_date() == date(2026, 3, 1)  # unset locally: taken from the file
        assert laptop.item_states("drill") == store.item_states("drill")


BAD_CASES = [
    (lambda d: d["attempts"][1].__setitem__("mode", "typing"), "attempts[1].mode"),
    (lambda d: d["attempts"][0].__setitem__("active_seconds", "fast"), "attempts[0].active_seconds"),
    (lambda d: d["attempts"][2].pop("passed"), "attempts[2].passed: missing"),
    (lambda d: d["reviews"][0].__setitem__("rating", 5), "reviews[0].rating"),
    (lambda d: d["reviews"][1].__setitem__("reviewed_at", "yesterday"), "reviews[1].reviewed_at"),
    (lambda d: d["reviews"][2].__setitem__("id", d["reviews"][0]["id"]), "reviews[2]: duplicate id"),
    (lambda d: d["schedule"][0]["state"].pop("due"), "schedule[0].state"),
    (lambda d: d["drafts"][0].__setitem__("colour", "red"), "drafts[0].colour: unknown field"),
    (lambda d: d["settings"].__setitem__("new_cards_per_day", -4), "settings.new_cards_per_day"),
    (lambda d: d.__setitem__("format", "anki"), "format"),
    (lambda d: d.__setitem__("schema_version", 99), "schema_version"),
]


@pytest.mark.parametrize(("damage", "where"), BAD_CASES)
@pytest.mark.parametrize("replace", [False, True])
def test_bad_input_is_refused_naming_the_record_and_nothing_changes(
    store: Store, clock: FixedClock, damage, where: str, replace: bool
) -> None:
    _fill(store, clock)
    before = export_document(store)
    doc = copy.deepcopy(before)
    doc["attempts"].append({**doc["attempts"][0], "id": 999, "drill_id": "new-one"})  # a valid extra row
    damage(doc)
    with pytest.raises(ImportRejected) as err:
        import_document(store, doc, replace=replace)
    assert where in str(err.value)
    assert "nothing was changed" in str(err.value)
    assert _same(export_document(store), before)


def test_non_object_document_is_refused(store: Store) -> None:
    with pytest.raises(ImportRejected, match="expected a JSON object"):
        import_document(store, [1, 2, 3])


def test_csv_has_one_row_per_attempt(store: Store, clock: FixedClock) -> None:
    _fill(store, clock)
    out = io.StringIO()
    assert write_attempts_csv(store, out) == 3
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [r["passed"] for r in rows] == ["no", "yes", "yes"]
    assert rows[1]["active_seconds"] == "512.0" and rows[1]["keystrokes"] == "901"
    assert rows[0]["tests_passed"] == "1" and rows[0]["tests_total"] == "2"
    assert rows[0]["retype_accuracy"] == ""


def test_a_version_1_export_is_still_read(store: Store, clock: FixedClock, tmp_path: Path) -> None:
    _fill(store, clock)
    doc = export_document(store)
    doc["format_version"], doc["schema_version"] = 1, 2
    for attempt in doc["attempts"]:
        for key in ("wpm", "typing_accuracy", "corrected_errors", "costly_keys", "origin"):
            attempt.pop(key)
        for test in attempt["tests"]:
            test.pop("concepts")
    doc["settings"].pop("timezone")
    doc["settings"]["day_offset_minutes"] = -240
    with Store.open(tmp_path / "old.sqlite3", clock=clock) as other:
        import_document(other, doc, replace=True)
        assert other.timezone() == "Etc/GMT+4"
        assert [a.origin for a in other.attempts()] == ["app"] * 3
