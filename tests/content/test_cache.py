"""The per-file content cache: hits, misses, damage, and the checks it must never skip."""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import msgspec
import ordinary_account
import pytest
from content_helpers import deck_yaml, drill_yaml

import tokdrill
from tokdrill import locations
from tokdrill.content import cache as content_cache
from tokdrill.content import loader
from tokdrill.content.model import Library


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every file the loader actually parses (a cache hit parses nothing)."""
    seen: list[Path] = []
    real = loader._parse

    def counting(path: Path):  # type: ignore[no-untyped-def]
        seen.append(path)
        return real(path)

    monkeypatch.setattr(loader, "_parse", counting)
    return seen


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def write_user_content(folder: Path) -> None:
    (folder / "d.yaml").write_text(drill_yaml("cached-drill"), encoding="utf-8")
    (folder / "k.yaml").write_text(deck_yaml("cached-deck", "cached-card-a", "cached-card-b"), encoding="utf-8")


def load(folder: Path, cache_dir: Path) -> Library:
    return loader.load_library([folder], include_shipped=False, cache_dir=cache_dir)


def cache_files(cache_dir: Path) -> list[Path]:
    return sorted((cache_dir / "content").glob("*.pickle"))


def test_second_load_parses_nothing_and_gives_the_same_library(
    content_dir: Path, cache_dir: Path, parses: list[Path]
) -> None:
    write_user_content(content_dir)
    first = load(content_dir, cache_dir)
    assert len(parses) == 2 and len(cache_files(cache_dir)) == 1
    parses.clear()
    second = load(content_dir, cache_dir)
    assert parses == []
    assert second == first and second.errors == ()
    assert second.card("cached-card-b").deck == "cached-deck"


def test_an_edit_that_changes_the_size_is_a_miss(content_dir: Path, cache_dir: Path, parses: list[Path]) -> None:
    write_user_content(content_dir)
    load(content_dir, cache_dir)
    parses.clear()
    (content_dir / "d.yaml").write_text(drill_yaml("cached-drill").replace("Count pairs.", "Count all pairs."))
    library = load(content_dir, cache_dir)
    assert parses == [content_dir / "d.yaml"]
    assert library.drill("cached-drill").prompt == "Count all pairs."


def test_an_edit_that_keeps_the_size_but_changes_mtime_is_a_miss(
    content_dir: Path, cache_dir: Path, parses: list[Path]
) -> None:
    write_user_content(content_dir)
    load(content_dir, cache_dir)
    path = content_dir / "d.yaml"
    before = path.stat()
    path.write_text(drill_yaml("cached-drill").replace("300", "600"), encoding="utf-8")  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    parses.clear()
    assert load(content_dir, cache_dir).drill("cached-drill").target_seconds == 600
    assert parses == [path]


def test_a_cached_drill_whose_hidden_test_was_deleted_reports_it(
    content_dir: Path, cache_dir: Path, parses: list[Path]
) -> None:
    write_user_content(content_dir)
    load(content_dir, cache_dir)
    (content_dir / "hidden" / "test_user_drill.py").unlink()
    parses.clear()
    library = load(content_dir, cache_dir)
    assert parses == []  # the drill file itself came from the cache...
    assert [(e.path.name, e.field) for e in library.errors] == [("d.yaml", "hidden_tests[0]")]
    assert "test_user_drill.py not found" in library.errors[0].message
    assert "cached-drill" not in library.drills  # ...but its broken reference still counts


def test_a_cached_drill_whose_symbol_stopped_existing_reports_it(
    content_dir: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch, parses: list[Path]
) -> None:
    from tokdrill.content import reference

    write_user_content(content_dir)
    load(content_dir, cache_dir)
    monkeypatch.setattr(reference, "symbol_problem", lambda symbol: f"`{symbol}` is gone")
    parses.clear()
    library = load(content_dir, cache_dir)
    assert parses == []
    assert [(e.field, e.message) for e in library.errors] == [("symbols[0]", "`count_pairs` is gone")]
    assert library.drills == {}


def test_check_symbols_false_skips_only_the_symbol_check(content_dir: Path, cache_dir: Path) -> None:
    (content_dir / "d.yaml").write_text(drill_yaml("no-symbol", symbols="[not_a_function]"), encoding="utf-8")
    (content_dir / "e.yaml").write_text(drill_yaml("no-test", hidden="test_missing.py"), encoding="utf-8")
    checked = load(content_dir, cache_dir)
    assert [e.field for e in checked.errors] == ["symbols[0]", "hidden_tests[0]"]
    unchecked = loader.load_library([content_dir], include_shipped=False, cache_dir=cache_dir, check_symbols=False)
    assert [e.field for e in unchecked.errors] == ["hidden_tests[0]"]
    assert list(unchecked.drills) == ["no-symbol"]


def test_duplicate_ids_are_checked_even_when_every_file_is_cached(
    content_dir: Path, cache_dir: Path, parses: list[Path]
) -> None:
    write_user_content(content_dir)
    (content_dir / "z.yaml").write_text(deck_yaml("other-deck", "cached-card-a"), encoding="utf-8")
    load(content_dir, cache_dir)
    parses.clear()
    library = load(content_dir, cache_dir)
    assert parses == []
    assert [(e.path.name, e.field) for e in library.errors] == [("z.yaml", "cards[0].id")]


def _said_count(data: bytes, change: int) -> bytes:
    """``data`` with the number of entries its header gives changed by ``change``."""
    start = data.index(b"\n", len(content_cache.MAGIC)) + 1  # after the fingerprint line
    (count,) = struct.unpack_from("<Q", data, start)
    return data[:start] + struct.pack("<Q", count + change) + data[start + 8 :]


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",  # empty
        lambda data: data[: len(data) // 2],  # truncated
        lambda data: data[:-10] + bytes(10),  # bytes changed: CRC mismatch
        lambda data: b"not a cache at all\n" + data,  # foreign
        lambda data: data.split(b"\n", 1)[0] + b"\n" + pickle.dumps({"x": 1}),  # right magic, wrong header
        lambda data: _said_count(data, +1),  # cut after a whole entry: one entry fewer than the header says
        lambda data: _said_count(data, -1),  # an entry more than the header says
    ],
    ids=["empty", "truncated", "changed", "foreign", "bad-header", "entry-missing", "entry-extra"],
)
def test_a_damaged_cache_file_is_ignored_and_rebuilt(
    content_dir: Path, cache_dir: Path, parses: list[Path], damage: Callable[[bytes], bytes]
) -> None:
    write_user_content(content_dir)
    expected = load(content_dir, cache_dir)
    (file,) = cache_files(cache_dir)
    file.write_bytes(damage(file.read_bytes()))
    parses.clear()
    assert load(content_dir, cache_dir) == expected  # no error, no traceback, same content
    assert len(parses) == 2
    parses.clear()
    assert load(content_dir, cache_dir) == expected
    assert parses == []  # rebuilt


def test_a_well_formed_cache_holding_junk_entries_is_ignored(
    content_dir: Path, cache_dir: Path, parses: list[Path]
) -> None:
    write_user_content(content_dir)
    expected = load(content_dir, cache_dir)
    (file,) = cache_files(cache_dir)
    entries = {str(content_dir / "d.yaml"): ("junk",), str(content_dir / "k.yaml"): 42}
    assert content_cache.write_cache_file(file, entries)  # type: ignore[arg-type]
    parses.clear()
    assert load(content_dir, cache_dir) == expected
    assert len(parses) == 2


def test_a_cache_file_others_may_write_is_not_trusted(content_dir: Path, cache_dir: Path, parses: list[Path]) -> None:
    write_user_content(content_dir)
    load(content_dir, cache_dir)
    (file,) = cache_files(cache_dir)
    assert file.stat().st_mode & 0o777 == 0o600
    file.chmod(0o666)
    parses.clear()
    load(content_dir, cache_dir)
    assert len(parses) == 2


def test_an_unwritable_cache_dir_only_means_no_caching(content_dir: Path, tmp_path: Path, parses: list[Path]) -> None:
    write_user_content(content_dir)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    first = load(content_dir, blocker / "cache")  # cannot be created: a file is in the way
    second = load(content_dir, blocker / "cache")
    assert first == second and first.errors == ()
    assert len(parses) == 4


def test_use_cache_false_neither_reads_nor_writes(content_dir: Path, cache_dir: Path, parses: list[Path]) -> None:
    write_user_content(content_dir)
    loader.load_library([content_dir], include_shipped=False, cache_dir=cache_dir, use_cache=False)
    assert not cache_dir.exists() and len(parses) == 2


@pytest.mark.parametrize("bump", ["tokdrill_version", "format_version"])
def test_a_version_bump_invalidates_the_cache(
    content_dir: Path, cache_dir: Path, parses: list[Path], monkeypatch: pytest.MonkeyPatch, bump: str
) -> None:
    write_user_content(content_dir)
    load(content_dir, cache_dir)
    if bump == "tokdrill_version":
        monkeypatch.setattr(tokdrill, "__version__", tokdrill.__version__ + ".post1")
    else:
        monkeypatch.setattr(content_cache, "FORMAT_VERSION", content_cache.FORMAT_VERSION + 1)
    content_cache.fingerprint.cache_clear()
    try:
        parses.clear()
        load(content_dir, cache_dir)
        assert len(parses) == 2
    finally:
        content_cache.fingerprint.cache_clear()


def test_errors_name_the_path_as_given_this_time(
    content_dir: Path, cache_dir: Path, parses: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    (content_dir / "bad.yaml").write_text("id: Bad Id\n", encoding="utf-8")
    absolute = load(content_dir, cache_dir)
    assert {e.path for e in absolute.errors} == {content_dir / "bad.yaml"}
    monkeypatch.chdir(content_dir.parent)
    relative = load(Path(content_dir.name), cache_dir)
    assert {e.path for e in relative.errors} == {Path(content_dir.name) / "bad.yaml"}


def test_concurrent_processes_share_one_cache_dir(content_dir: Path, cache_dir: Path) -> None:
    write_user_content(content_dir)
    script = (
        "import sys; from tokdrill.content.loader import load_library; "
        "lib = load_library([sys.argv[1]], include_shipped=False, cache_dir=sys.argv[2]); "
        "sys.exit(0 if not lib.errors and list(lib.drills) == ['cached-drill'] else 1)"
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, str(content_dir), str(cache_dir)]) for _ in range(3)]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    (file,) = cache_files(cache_dir)
    entries = content_cache.read_cache_file(file)
    assert sorted(Path(key).name for key in entries) == ["d.yaml", "k.yaml", "test_user_drill.py"]
    assert not [p for p in (cache_dir / "content").iterdir() if p.name.startswith(".tmp-")]


def test_cache_dir_follows_data_dir_then_tokdrill_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOKDRILL_HOME", str(tmp_path / "home"))
    assert locations.cache_dir() == tmp_path / "home" / "cache"
    assert locations.cache_dir(tmp_path / "data") == tmp_path / "data" / "cache"
    monkeypatch.delenv("TOKDRILL_HOME")
    assert locations.cache_dir().name == "tokdrill"  # the platform's user cache dir


def test_default_cache_dir_is_used_when_none_is_given(content_dir: Path, _isolated_home: Path) -> None:
    write_user_content(content_dir)
    loader.load_library([content_dir], include_shipped=False)
    assert cache_files(_isolated_home / "cache")


def test_loading_leaves_objects_frozen_by_others_frozen(content_dir: Path, cache_dir: Path) -> None:
    import gc

    write_user_content(content_dir)
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen
        load(content_dir, cache_dir)
        assert gc.get_freeze_count() == frozen and gc.isenabled()
    finally:
        gc.unfreeze()


@pytest.mark.ordinary_user
@pytest.mark.usefixtures("ordinary_python")
def test_a_cache_file_someone_else_wrote_is_never_unpickled(tmp_path: Path) -> None:
    """A well-formed cache file whose entry says something the content file does not: used only
    if it is the user's own and nobody else can write it. As root the loader runs as the
    unprivileged user ``nobody`` against a root-owned cache file; otherwise the file is made
    group-writable."""
    import shutil
    import tempfile

    shared = Path(tempfile.mkdtemp(prefix="tokdrill-cache-trust-"))
    try:
        shared.chmod(0o755)
        content, cache = shared / "content", shared / "cache"
        content.mkdir()
        (content / "k.yaml").write_text(deck_yaml("trusted-deck", "trusted-card"), encoding="utf-8")
        (content / "k.yaml").chmod(0o644)
        content.chmod(0o755)
        loader.load_library([content], include_shipped=False, cache_dir=cache)
        (file,) = cache_files(cache)
        entries = content_cache.read_cache_file(file)
        key, entry = next(iter(entries.items()))
        result = entry[5]
        assert result.deck is not None
        poisoned_deck = msgspec.structs.replace(result.deck.deck, title="POISONED")
        poisoned = result._replace(deck=result.deck._replace(deck=poisoned_deck))
        assert content_cache.write_cache_file(file, {key: (*entry[:5], poisoned)})
        # the control: in the user's own private file, the entry is used as it stands
        assert loader.load_library([content], include_shipped=False, cache_dir=cache).deck("trusted-deck").title == (
            "POISONED"
        )
        script = (
            "import sys; from tokdrill.content.loader import load_library; "
            "print(load_library([sys.argv[1]], include_shipped=False, cache_dir=sys.argv[2]).deck('trusted-deck').title)"
        )
        if os.geteuid() == 0:
            for folder in (cache, cache / "content"):
                os.chown(folder, ordinary_account.NOBODY, ordinary_account.NOBODY)
            file.chmod(0o644)  # readable by nobody, owned by root
        else:
            file.chmod(0o664)
        done = ordinary_account.run_python(script, str(content), str(cache))
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "Deck trusted-deck"  # parsed afresh, the poisoned entry ignored
    finally:
        shutil.rmtree(shared)


def test_a_reference_cited_in_two_files_is_one_object_parsed_or_cached(content_dir: Path, cache_dir: Path) -> None:
    cited = "    references:\n      - title: Subword Units\n        venue: ACL 2016\n"
    for deck in ("first", "second"):
        text = deck_yaml(deck, f"{deck}-card") + cited
        (content_dir / f"{deck}.yaml").write_text(text, encoding="utf-8")
    for _ in range(2):  # parsed, then read from the cache
        library = load(content_dir, cache_dir)
        (one,) = library.card("first-card").references
        (other,) = library.card("second-card").references
        assert one is other and one.title == "Subword Units"
