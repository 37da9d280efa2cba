"""Property-based fuzzing (hypothesis) of everything a user's files can do to the store:
exports (valid and mutated) and damaged databases (bit flips, truncation, cells replaced by
random values). Properties: no traceback, no hang, a refusal changes nothing, and anything
accepted leaves stats, export and the app's start working.

Examples per property: ``TOKDRILL_FUZZ_EXAMPLES`` (see tests/conftest.py).
"""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from factories import T0, make_attempt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.content import load_library
from tokdrill.content.model import Library
from tokdrill.practice.keeper import ProgressKeeper
from tokdrill.practice.stats import compute_stats
from tokdrill.progress.errors import StoreError
from tokdrill.progress.records import Draft, TestOutcome
from tokdrill.progress.store import Store
from tokdrill.progress.transfer import ImportRejected, export_document, import_document
from tokdrill.scheduling.catalog import catalog_from_library
from tokdrill.scheduling.planner import Planner

BOUND_SECONDS = 30  # one example never takes this long unless something hangs
FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture], deadline=None)


@contextmanager
def bounded(seconds: int = BOUND_SECONDS) -> Iterator[None]:
    """Fail (instead of hanging) when the body runs longer than ``seconds``."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"hung for more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class Shipped:
    """The shipped content (a short repr keeps hypothesis's failure reports readable)."""

    def __init__(self, library: Library) -> None:
        self.library = library

    def __repr__(self) -> str:
        return "<shipped content>"


class Blob(bytes):
    """Database bytes with a short repr."""

    def __repr__(self) -> str:
        return f"<{len(self)} bytes>"


@pytest.fixture(scope="module")
def shipped() -> Iterator[Shipped]:
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-fuzz-cache-"))
    yield Shipped(load_library([], cache_dir=folder, check_symbols=False))
    shutil.rmtree(folder, ignore_errors=True)


def fill(store: Store, clock: FixedClock, library: Library) -> None:
    """Some of everything, on real content ids."""
    planner = Planner(store, clock)
    drills = list(library.drills)[:3]
    cards = [c.id for deck in library.decks.values() for c in deck.cards][:6]
    tests = (TestOutcome("test_x.py::test_a", "failed", "got 3\x1b[31m", ("merge-order",)),)
    for i in range(12):
        clock.advance(hours=9)
        planner.record_attempt(
            make_attempt(
                drills[i % len(drills)],
                at=clock.now(),
                seconds=100.0 + 37 * i,
                passed=i % 3 != 0,
                tests=tests,
                wpm=40.0 + i,
                typing_accuracy=0.9,
                corrected_errors=i,
                costly_keys=(("_", 2),),
                origin="app",
            )
        )
        planner.review_card(cards[i % len(cards)], 1 + i % 4, 2.5)
    store.save_draft(Draft(drills[0], "retype", "déjà vu\n\ttabs", 17.125, clock.now()))
    store.set_interview_date((clock.now() + timedelta(days=9)).date())
    store.set_timezone("Europe/Berlin")
    store.set_setting("ui.theme", ["dark", 1.5])


def app_start_works(path: Path, library: Library) -> None:
    """What the app does on start, without a terminal: open, Today, Stats, the review queue."""
    clock = FixedClock(T0 + timedelta(days=6))
    keeper, _problems = ProgressKeeper.open(path, clock)
    backend = Backend(library, keeper, clock, [])
    try:
        backend.today()
        backend.stats()
        backend.review_queue()
        backend.activity()
    finally:
        backend.close()


def stats_and_export_work(path: Path, library: Library) -> None:
    with Store.open(path, clock=FixedClock(T0)) as store:
        compute_stats(store, catalog_from_library(library))
        json.dumps(export_document(store))


@pytest.fixture(scope="module")
def export_text(shipped: Shipped) -> str:
    library = shipped.library
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-fuzz-"))
    clock = FixedClock(T0)
    with Store.open(folder / "progress.sqlite3", clock=clock) as store:
        fill(store, clock, library)
        text = json.dumps(export_document(store), ensure_ascii=False)
    shutil.rmtree(folder, ignore_errors=True)
    return text


# ---------------------------------------------------------------- exports

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(
        [
            "0000-01-01T00:00:00.000000+00:00",
            "9999-12-31T23:59:59.999999+14:00",
            "2026-02-30T00:00:00.000000+00:00",
            "2026-01-05T09:00:00+00:00",
            "2026-01-05T09:00:00.000000Z",
            "",
            "recall",
            "retype",
            "passed",
            "typing",
        ]
    ),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out += paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            out += paths(value, (*prefix, i))
    return out


def set_at(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


def delete_at(doc: Any, path: tuple[Any, ...]) -> Any:
    if not path:
        return doc
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return doc


@st.composite
def mutated_exports(draw: st.DrawFn, text: str) -> bytes:
    doc = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["replace", "delete", "add", "deep", "bytes", "surrogate", "huge"]))
        where = draw(st.sampled_from(paths(doc)))
        if kind == "replace":
            doc = set_at(doc, where, draw(JSON_VALUES))
        elif kind == "delete":
            doc = delete_at(doc, where)
        elif kind == "add" and isinstance(doc, dict):
            doc[draw(st.text(max_size=8))] = draw(JSON_VALUES)
        elif kind == "deep":
            depth = draw(st.integers(10, 100_000))
            data = json.dumps(doc)
            return data.replace("[]", "[" * depth + "]" * depth, 1).encode() if "[]" in data else ("[" * depth).encode()
        elif kind == "surrogate":
            return json.dumps(set_at(doc, where, "\ud800x") if where else doc).encode("utf-8", "surrogatepass")
        elif kind == "huge":
            doc = set_at(doc, where, draw(st.sampled_from([10**400, -(10**30), 1e308, 2**63, -1])))
        else:
            data = bytearray(json.dumps(doc).encode())
            for _ in range(draw(st.integers(1, 8))):
                at = draw(st.integers(0, len(data) - 1))
                data[at] = draw(st.integers(0, 255))
            return bytes(data)
    try:
        return json.dumps(doc).encode()
    except (ValueError, OverflowError):
        return b"{}"


@FUZZ
@given(data=st.data(), replace=st.booleans())
def test_any_mutated_export_is_refused_untouched_or_leaves_everything_working(
    tmp_path_factory: pytest.TempPathFactory, shipped: Shipped, export_text: str, data: st.DataObject, replace: bool
) -> None:
    library = shipped.library
    blob = data.draw(mutated_exports(export_text))
    folder = tmp_path_factory.mktemp("import")
    path = folder / "progress.sqlite3"
    clock = FixedClock(T0)
    with bounded():
        with Store.open(path, clock=clock) as store:
            store.add_attempt(make_attempt(next(iter(library.drills)), at=T0 - timedelta(days=3)))
            before = export_document(store)
            try:
                import_document(store, blob, replace=replace)
                accepted = True
            except ImportRejected as exc:
                assert exc.problems
                after = export_document(store)
                assert {k: v for k, v in after.items() if k != "exported_at"} == {
                    k: v for k, v in before.items() if k != "exported_at"
                }
                accepted = False
        if accepted:
            stats_and_export_work(path, library)
            app_start_works(path, library)
    shutil.rmtree(folder, ignore_errors=True)


@FUZZ
@given(
    attempts=st.lists(
        st.tuples(
            st.floats(0, 1e6, allow_nan=False),
            st.booleans(),
            st.sampled_from(["retype", "recall"]),
            st.none() | st.floats(0, 1),
            st.none() | st.lists(st.tuples(st.text(min_size=1, max_size=5), st.integers(1, 99)), max_size=10),
        ),
        max_size=6,
    ),
    ratings=st.lists(st.integers(1, 4), max_size=8),
    draft=st.text(max_size=200),
)
def test_a_valid_export_round_trips_exactly(
    tmp_path_factory: pytest.TempPathFactory,
    shipped: Shipped,
    attempts: list[Any],
    ratings: list[int],
    draft: str,
) -> None:
    folder = tmp_path_factory.mktemp("roundtrip")
    clock = FixedClock(T0)
    drill = next(iter(shipped.library.drills))
    with bounded(), Store.open(folder / "a.sqlite3", clock=clock) as store:
        planner = Planner(store, clock)
        for seconds, passed, mode, accuracy, keys in attempts:
            clock.advance(hours=5)
            planner.record_attempt(
                make_attempt(
                    drill,
                    at=clock.now(),
                    seconds=seconds,
                    passed=passed,
                    mode=mode,
                    typing_accuracy=accuracy,
                    costly_keys=None if keys is None else tuple(keys),
                )
            )
        for i, rating in enumerate(ratings):
            clock.advance(hours=1)
            planner.review_card(f"card-{i % 3}", rating, 1.5)
        store.save_draft(Draft(drill, "retype", draft, 1.0, clock.now()))
        first = export_document(store)
        with Store.open(folder / "b.sqlite3", clock=clock) as other:
            import_document(other, json.dumps(first), replace=True)
            second = export_document(other)
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------- damaged databases


@pytest.fixture(scope="module")
def healthy_db(shipped: Shipped) -> bytes:
    library = shipped.library
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-fuzz-db-"))
    path = folder / "progress.sqlite3"
    clock = FixedClock(T0)
    with Store.open(path, clock=clock) as store:
        fill(store, clock, library)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file to damage
    conn.close()
    data = Blob(path.read_bytes())
    shutil.rmtree(folder, ignore_errors=True)
    return data


CELL_VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=40),
    st.binary(max_size=40),
    st.sampled_from(['{"state": 2}', "[]", '[{"name": 1}]', "2026-13-01T00:00:00.000000+00:00", "1e999"]),
)
TABLES = {
    "attempts": [
        "drill_id",
        "mode",
        "started_at",
        "ended_at",
        "active_seconds",
        "target_seconds",
        "passed",
        "submissions",
        "tests",
        "wpm",
        "typing_accuracy",
        "corrected_errors",
        "costly_keys",
        "origin",
    ],
    "reviews": ["card_id", "rating", "answer_seconds", "reviewed_at", "state_before", "state_after"],
    "schedule": ["kind", "item_id", "state", "due", "last_review", "first_seen", "reps"],
    "drafts": ["drill_id", "mode", "text", "elapsed_seconds", "saved_at"],
    "settings": ["key", "value"],
    "drill_totals": ["attempts", "passes"],
    "card_totals": ["reviews", "good"],
}


def replace_cell(path: Path, table: str, column: str, value: object) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for name, _sql in triggers:
            conn.execute(f'DROP TRIGGER "{name}"')
        key = {"drill_totals": "drill_id", "card_totals": "card_id"}.get(table, "rowid")
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE {key} = (SELECT min({key}) FROM {table})", (value,))
        for _name, sql in triggers:
            conn.execute(sql)
    except sqlite3.IntegrityError:
        pass  # e.g. NOT NULL or a duplicate key: SQLite refused this damage
    finally:
        conn.close()


@st.composite
def damaged_files(draw: st.DrawFn, data: bytes) -> tuple[str, bytes | tuple[str, str, object]]:
    kind = draw(st.sampled_from(["flip", "flip", "truncate", "cell", "cell"]))
    if kind == "cell":
        table = draw(st.sampled_from(sorted(TABLES)))
        return kind, (table, draw(st.sampled_from(TABLES[table])), draw(CELL_VALUES))
    blob = bytearray(data)
    if kind == "truncate":
        return kind, Blob(blob[: draw(st.integers(0, len(blob) - 1))])
    for _ in range(draw(st.integers(1, 16))):
        at = draw(st.integers(0, len(blob) - 1))
        blob[at] ^= 1 << draw(st.integers(0, 7))
    return kind, Blob(blob)


@FUZZ
@given(data=st.data())
def test_a_damaged_database_never_tracebacks_and_is_repairable(
    tmp_path_factory: pytest.TempPathFactory, shipped: Shipped, healthy_db: bytes, data: st.DataObject
) -> None:
    library = shipped.library
    kind, damage = data.draw(damaged_files(healthy_db))
    folder = tmp_path_factory.mktemp("damaged")
    path = folder / "progress.sqlite3"
    if kind == "cell":
        path.write_bytes(healthy_db)
        replace_cell(path, *damage)  # type: ignore[misc]
    else:
        path.write_bytes(damage)  # type: ignore[arg-type]
    with bounded():
        try:
            stats_and_export_work(path, library)
        except StoreError as exc:
            assert str(path) in str(exc) and exc.advice
        app_start_works(path, library)  # never raises, whatever the file holds
        clock = FixedClock(T0)
        keeper, _problems = ProgressKeeper.open(path, clock)
        try:
            if keeper.damaged is not None:
                keeper.repair()
        finally:
            keeper.close()
        try:
            stats_and_export_work(path, library)
        except StoreError as exc:  # still unusable: it must say so, never crash
            assert exc.problem in ("damaged", "foreign", "newer", "unavailable", "busy")
    shutil.rmtree(folder, ignore_errors=True)
