"""Property-based fuzzing of content loading (hypothesis): valid content always loads exactly as
written; mutated content, arbitrary bytes and mutated hidden tests never raise, never hang, name
file:line: field for every problem, and never hide a valid file loaded beside them.

Examples per property: ``TOKDRILL_FUZZ_EXAMPLES`` (see tests/conftest.py).
"""

from __future__ import annotations

import json
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import yaml
from content_helpers import deck_yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokdrill.content.hidden_tests import read_hidden_test_file
from tokdrill.content.loader import load_library
from tokdrill.content.model import ContentError, Library

FUZZ = settings(
    deadline=None,  # the machine may be loaded: hangs are caught by HANG_SECONDS instead
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
HANG_SECONDS = 120  # far beyond any load of these small files: only a hang reaches it

T = TypeVar("T")

VOCABULARY = ("merge-order", "tie-break", "byte-table")
SYMBOLS = ("count_pairs", "merge_pair", "learn_merges", "bytes_to_unicode", "BPETokenizer.train")
HIDDEN_TEST = "test_fuzz_drill.py"
COMPANION = deck_yaml("companion-deck", "companion-card-a", "companion-card-b")

# ----------------------------------------------------------------------------- strategies

ids = st.from_regex(r"[a-z0-9][a-z0-9-]{0,15}", fullmatch=True)
# Text a person may write: any printable character (YAML cannot carry raw control characters
# or unpaired surrogates), never only whitespace.
text = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\ufeff"),
    min_size=1,
    max_size=40,
).filter(lambda s: not s.isspace())
# A key point: one phrase, or phrases that mean the same joined by " | ".
phrase = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\ufeff|"),
    min_size=1,
    max_size=20,
).filter(lambda s: not s.isspace())
key_point = st.lists(phrase, min_size=1, max_size=3).map(" | ".join)
urls = st.builds(
    lambda scheme, host, path: f"{scheme}://{host}.org/{path}",
    st.sampled_from(["http", "https"]),
    st.from_regex(r"[a-z]{1,10}", fullmatch=True),
    st.from_regex(r"[a-z0-9/_-]{0,20}", fullmatch=True),
)


@st.composite
def references(draw: st.DrawFn) -> dict[str, object]:
    ref: dict[str, object] = {"title": draw(text)}
    where = draw(st.sampled_from(["venue", "url", "both"]))
    if where in ("venue", "both"):
        ref["venue"] = draw(text)
    if where in ("url", "both"):
        ref["url"] = draw(urls)
    if draw(st.booleans()):
        ref["authors"] = draw(text)
    if draw(st.booleans()):
        ref["year"] = draw(st.integers(1800, 2100))
    return ref


@st.composite
def cards(draw: st.DrawFn, card_id: str) -> dict[str, object]:
    card: dict[str, object] = {
        "id": card_id,
        "question": draw(text),
        "answer": draw(text),
        "key_points": draw(st.lists(key_point, min_size=2, max_size=6)),
    }
    if draw(st.booleans()):
        card["follow_ups"] = draw(st.lists(st.fixed_dictionaries({"question": text, "answer": text}), max_size=2))
    if draw(st.booleans()):
        card["tags"] = draw(st.lists(text, max_size=3))
    if draw(st.booleans()):
        card["concepts"] = draw(st.lists(st.sampled_from(VOCABULARY), unique=True, max_size=3))
    if draw(st.booleans()):
        card["references"] = draw(st.lists(references(), min_size=1, max_size=2))
    return card


@st.composite
def decks(draw: st.DrawFn) -> dict[str, object]:
    card_ids = draw(st.lists(ids, min_size=1, max_size=4, unique=True).filter(lambda xs: "companion" not in str(xs)))
    deck: dict[str, object] = {"deck": draw(ids.filter(lambda s: s != "companion-deck")), "title": draw(text)}
    if draw(st.booleans()):
        deck["description"] = draw(text)
    deck["cards"] = [draw(cards(card_id)) for card_id in card_ids]
    return deck


@st.composite
def drills(draw: st.DrawFn) -> dict[str, object]:
    drill: dict[str, object] = {
        "id": draw(ids),
        "title": draw(text),
        "symbols": draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=3, unique=True)),
        "target_seconds": draw(st.integers(1, 10_000)),
        "difficulty": draw(st.sampled_from(["easy", "medium", "hard"])),
        "hidden_tests": [HIDDEN_TEST],
        "prompt": draw(text),
        "starter": draw(text),
    }
    if draw(st.booleans()):
        drill["tags"] = draw(st.lists(text, max_size=3))
    if draw(st.booleans()):
        drill["references"] = draw(st.lists(references(), min_size=1, max_size=2))
    return drill


@st.composite
def yaml_texts(draw: st.DrawFn, data: st.SearchStrategy[dict[str, object]]) -> str:
    """``data`` written as YAML in a random style, the way people and tools write it."""
    value = draw(data)
    return str(
        yaml.safe_dump(
            value,
            allow_unicode=draw(st.booleans()),
            default_flow_style=draw(st.sampled_from([False, None, True])),
            sort_keys=draw(st.booleans()),
            width=draw(st.sampled_from([20, 80, 10_000])),
            indent=draw(st.sampled_from([2, 4])),
        )
    )


# YAML constructs that break or bend a file, spliced in anywhere.
HOSTILE = [
    "!!timestamp garbage",
    "!!timestamp 2001-12-14",
    "!!bool maybe",
    "!!int x",
    "!!float y",
    "!!binary aGk=",
    "!!python/object/apply:os.system [echo]",
    "!!python/name:os.system",
    "!!set {a: null}",
    "!!omap [{a: 1}]",
    "!local x",
    "!<tag:example.org,2000:x> y",
    "&anchor",
    "*anchor",
    "*undefined",
    "<<: *anchor",
    "<<: [*anchor, *anchor]",
    "<<: 5",
    "? [complex, key]\n: v",
    "---",
    "...",
    "%YAML 1.1\n---",
    "[" * 200 + "]" * 200,
    "{a: " * 80 + "1" + "}" * 80,
    "9" * 6000,
    '"\\e[2J\\x9b\\0"',
    '"\\ud800"',
    "\t",
    "\x00",
    "\ufeff",
    "\u2028",
    "|\n  block\n",
    ">-\n  folded\n",
    "- - - -",
    ": :",
    "id: duplicate\nid: again",
    "cards: &c [*c]",
    "key_points: *anchor",
    "references: [{title: t, url: 'ftp://x'}]",
    "concepts: [Bad Id, nowhere]",
    "source: {seed: a, section: b}",
]


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str]) -> bytes:
    """A valid content file damaged by a few random edits: hostile YAML spliced in, lines
    dropped, repeated or re-indented, bytes flipped, inserted or cut, odd encodings."""
    data = draw(base)
    for _ in range(draw(st.integers(1, 4))):
        lines = data.split("\n")
        at = draw(st.integers(0, len(lines)))
        edit = draw(st.sampled_from(["splice", "value", "drop", "repeat", "indent", "bytes", "cut"]))
        if edit == "splice":
            lines.insert(at, draw(st.sampled_from(HOSTILE)))
        elif edit == "value" and at < len(lines) and ":" in lines[at]:
            head = lines[at].split(":", 1)[0]
            lines[at] = f"{head}: {draw(st.sampled_from(HOSTILE))}"
        elif edit == "drop" and at < len(lines):
            del lines[at]
        elif edit == "repeat" and at < len(lines):
            lines.insert(at, lines[at])
        elif edit == "indent" and at < len(lines):
            lines[at] = " " * draw(st.integers(0, 7)) + lines[at].lstrip()
        data = "\n".join(lines)
        if edit == "cut":
            data = data[: draw(st.integers(0, len(data)))]
    raw = data.encode(draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "utf-16", "latin-1"])), "replace")
    for _ in range(draw(st.integers(0, 3))):
        if not raw:
            break
        at = draw(st.integers(0, len(raw) - 1))
        raw = raw[:at] + draw(st.binary(min_size=0, max_size=4)) + raw[at + 1 :]
    return raw


VOCABULARY_TEXT = "concepts:\n" + "".join(
    f"  - id: {c}\n    title: {c.replace('-', ' ').title()}\n    lesson: Remember {c}.\n" for c in VOCABULARY
)
HIDDEN_TEXT = (
    "import pytest\n\n"
    'pytestmark = pytest.mark.concept("byte-table")\n\n\n'
    '@pytest.mark.concept("merge-order")\n'
    "def test_one(impl):\n    assert impl\n\n\n"
    'class TestGroup:\n    @pytest.mark.concept("tie-break", "merge-order")\n'
    "    def test_two(self, impl):\n        assert impl\n"
)

# ----------------------------------------------------------------------------- helpers


def within_bound(call: Callable[[], T]) -> T:
    """``call()`` in a worker thread; fails the test (rather than hanging it) if it never returns."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(("ok", call()))
        except BaseException as exc:  # noqa: BLE001 - any exception is reported by the test
            outcome.append(("raised", exc))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(HANG_SECONDS)
    assert outcome, f"did not finish within {HANG_SECONDS} s (a hang)"
    kind, value = outcome[0]
    if kind == "raised":
        raise AssertionError(f"raised {type(value).__name__}: {value}") from value
    return value  # type: ignore[no-any-return]


def content_folder(base: Path) -> Path:
    folder = base / "content"
    (folder / "hidden").mkdir(parents=True)
    (folder / "hidden" / HIDDEN_TEST).write_text(HIDDEN_TEXT, encoding="utf-8")
    (folder / "concepts.yaml").write_text(VOCABULARY_TEXT, encoding="utf-8")
    return folder


def load(paths: list[Path], cache: Path | None = None) -> Library:
    return within_bound(
        lambda: load_library(paths, include_shipped=False, cache_dir=cache, use_cache=cache is not None)
    )


def as_yaml_reads(written: str) -> Any:
    """What PyYAML's own safe loader reads from ``written``: the meaning to compare with. (It is
    not always the dumped value: PyYAML's emitter can fold a long double-quoted string with a
    backslash so that it reads back differently; libyaml and PyYAML agree on the reading.)"""
    return yaml.load(written, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def assert_well_formed(library: Library, allowed: set[Path]) -> None:
    """Every error names a known file, a line in it, a field and a printable message."""
    for error in library.errors:
        assert isinstance(error, ContentError)
        assert error.path in allowed, error
        assert error.line >= 1 and error.field and error.message, error
        lines = error.path.read_bytes().count(b"\n") + 1 if error.path.is_file() else 1
        assert error.line <= lines + 1, (error, lines)  # a line of the file, or its end (YAML's "end of stream")
        shown = str(error)
        assert shown.isprintable(), shown
        shown.encode("utf-8")
        json.dumps(error.to_json())


# ----------------------------------------------------------------------------- properties


@FUZZ
@given(deck=decks(), style=st.data())
def test_any_valid_deck_loads_exactly_as_written(deck: dict[str, Any], style: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = content_folder(Path(tmp))
        written = style.draw(yaml_texts(st.just(deck)))
        (folder / "deck.yaml").write_text(written, encoding="utf-8")
        deck = as_yaml_reads(written)
        library = load([folder])
        assert library.errors == (), [str(e) for e in library.errors]
        loaded = library.deck(deck["deck"])
        assert loaded.title == deck["title"] and loaded.description == deck.get("description", "")
        for card, spec in zip(loaded.cards, deck["cards"], strict=True):
            assert (card.id, card.question, card.answer) == (spec["id"], spec["question"], spec["answer"])
            assert card.key_points == tuple(spec["key_points"])
            assert card.concepts == tuple(spec.get("concepts", ()))
            assert [r.to_json() for r in card.references] == spec.get("references", [])
            assert [(f.question, f.answer) for f in card.follow_ups] == [
                (f["question"], f["answer"]) for f in spec.get("follow_ups", [])
            ]


@FUZZ
@given(drill=drills(), style=st.data())
def test_any_valid_drill_loads_with_its_tests_concepts(drill: dict[str, Any], style: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = content_folder(Path(tmp))
        written = style.draw(yaml_texts(st.just(drill)))
        (folder / "drill.yaml").write_text(written, encoding="utf-8")
        drill = as_yaml_reads(written)
        library = load([folder])
        assert library.errors == (), [str(e) for e in library.errors]
        loaded = library.drill(drill["id"])
        assert (loaded.title, loaded.prompt, loaded.starter) == (drill["title"], drill["prompt"], drill["starter"])
        assert loaded.symbols == tuple(drill["symbols"]) and loaded.target_seconds == drill["target_seconds"]
        assert [r.to_json() for r in loaded.references] == drill.get("references", [])
        assert dict(loaded.test_concepts) == {
            f"{HIDDEN_TEST}::test_one": ("byte-table", "merge-order"),
            f"{HIDDEN_TEST}::TestGroup::test_two": ("byte-table", "tie-break", "merge-order"),
        }


@FUZZ
@given(
    raw=mutated(st.one_of(yaml_texts(decks()), yaml_texts(drills()), st.just(VOCABULARY_TEXT))),
    companion_first=st.booleans(),
    same_deck_id=st.booleans(),
)
def test_mutated_content_never_raises_and_never_hides_a_valid_file(
    raw: bytes, companion_first: bool, same_deck_id: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = content_folder(Path(tmp))
        broken = folder / "mutated.yaml"
        broken.write_bytes(raw.replace(b"deck: ", b"deck: companion-deck\nx-was: ", 1) if same_deck_id else raw)
        companion = folder / ("a-companion.yaml" if companion_first else "z-companion.yaml")
        companion.write_text(COMPANION, encoding="utf-8")
        cache = Path(tmp) / "cache"
        cold = load([folder], cache)
        allowed = {broken, companion, folder / "concepts.yaml", (folder / "hidden" / HIDDEN_TEST).resolve()}
        assert_well_formed(cold, allowed)
        deck = cold.decks.get("companion-deck")
        assert deck is not None
        if deck.origin.path == companion:
            assert [c.id for c in deck.cards] == ["companion-card-a", "companion-card-b"]
        else:  # the mutated file's deck of the same id is used only if it is valid and loads first
            assert not any(e.path == broken for e in cold.errors) and not companion_first
        assert load([folder], cache) == cold  # what the cache gives back is what parsing gave
        assert broken in cold.files
        if not any(e.path == broken for e in cold.errors):  # nothing is dropped without a word
            used = {d.origin.path for d in cold.drills.values()} | {k.origin.path for k in cold.decks.values()}
            used |= {c.origin.path for c in cold.concepts.values()}
            assert broken in used


@FUZZ
@given(raw=st.binary(max_size=2000))
def test_arbitrary_bytes_are_never_a_traceback(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bytes.yaml"
        path.write_bytes(raw)
        library = load([path])
        assert_well_formed(library, {path})


@FUZZ
@given(
    source=mutated(st.just(HIDDEN_TEXT)),
    extra=st.sampled_from(
        [
            "",
            "@pytest.mark.concept(x)\ndef test_x(impl): pass\n",
            "@pytest.mark.concept\nclass TestX:\n    def test_y(self): pass\n",
            "@mark.concept('a', k=1)\ndef test_z(): pass\n",
            "pytestmark: list = [pytest.mark.concept('tie-break'), 3]\n",
            "x = (" * 300 + ")" * 300 + "\n",
            "def test_deep():\n" + "".join("    " * (i + 1) + "if x:\n" for i in range(120)) + "    " * 121 + "pass\n",
        ]
    ),
)
def test_mutated_hidden_tests_are_read_without_raising(source: bytes, extra: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "test_mutated.py"
        path.write_bytes(source + extra.encode("utf-8"))
        scan = within_bound(lambda: read_hidden_test_file(path))
        for error in scan.errors:
            assert error.path == path and error.line >= 1 and error.field in ("concepts", "python", "file")
        for test in scan.tests:
            assert test.name.startswith("test_mutated.py::") and test.line >= 1
            assert all(isinstance(c, str) and line >= 1 for c, line in test.concepts)
