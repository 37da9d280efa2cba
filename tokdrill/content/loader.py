"""Find content files, load them, and collect every error into one :class:`Library`.

Where content comes from, in load order (an id defined twice keeps its first definition):

1. the shipped folders, :func:`tokdrill.locations.drills_dir` and ``questions_dir``;
2. each extra path (``--content DIR``, then ``TOKDRILL_CONTENT``): a folder's ``*.yaml`` /
   ``*.yml`` files at its top level and in its ``questions/`` and ``drills/`` subfolders, or a
   single file.

What a file holds is decided by its top-level keys, not its folder: ``deck:`` or ``cards:`` makes
a deck, ``id:`` or ``symbols:`` a drill. A drill's hidden tests are looked up in ``hidden/`` next
to the drill file, then in ``hidden/`` of its content folder, then among the shipped hidden tests.

Each file's own checks (YAML, keys, types, ids, targets) may come from the cache of earlier
loads (:mod:`tokdrill.content.cache`, under :func:`tokdrill.locations.cache_dir`); the checks
that involve other files (hidden tests exist, symbols exist in ``reference_impl``, ids are unique)
run on every load.

Nothing here raises for bad content: each problem becomes a :class:`ContentError` and loading
goes on with the next item, so one broken file (or card) never hides the rest.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tokdrill import locations
from tokdrill.content.cache import ContentCache
from tokdrill.content.model import Card, ContentError, Deck, Drill, Library, Origin
from tokdrill.content.parsed import FileResult, ParsedDeck, ParsedDrill

if TYPE_CHECKING:
    from tokdrill.content.crossref import SymbolCheck

YAML_SUFFIXES = (".yaml", ".yml")
CONTENT_SUBFOLDERS = ("questions", "drills")
HIDDEN_FOLDER = "hidden"

PathLike = str | os.PathLike[str]


def yaml_files(folder: Path) -> list[Path]:
    """The YAML files directly inside ``folder``, sorted by name."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    return sorted(
        (Path(e.path) for e in entries if e.name.endswith(YAML_SUFFIXES) and e.is_file()),
        key=lambda p: p.name,
    )


def content_files(folder: Path) -> list[Path]:
    """The content files of a user content folder: its top level, then ``questions/``, ``drills/``."""
    files = yaml_files(folder)
    for sub in CONTENT_SUBFOLDERS:
        files += yaml_files(folder / sub)
    return files


def shipped_files() -> list[tuple[Path, Path]]:
    """``(file, content folder)`` for every shipped content file."""
    return [(p, folder) for folder in (locations.drills_dir(), locations.questions_dir()) for p in yaml_files(folder)]


def load_library(
    extra_dirs: Iterable[PathLike] | None = None,
    *,
    include_shipped: bool = True,
    cache_dir: PathLike | None = None,
    use_cache: bool = True,
    check_symbols: bool = True,
) -> Library:
    """Load the shipped content plus ``extra_dirs`` (folders or single files).

    ``extra_dirs=None`` means the folders in ``TOKDRILL_CONTENT``; a CLI passes
    ``locations.extra_content_dirs(args.content)`` to add its ``--content`` folders. A path that
    does not exist is reported as an error, not raised. Per-file results are cached in
    ``cache_dir`` (default :func:`tokdrill.locations.cache_dir`; a CLI passes
    ``locations.cache_dir(args.data_dir)``); ``use_cache=False`` parses everything afresh.
    ``check_symbols=False`` skips importing ``reference_impl`` to check drill symbols, for callers
    that only need ids, titles and targets (`tokdrill stats`); every other check still runs.
    """
    if extra_dirs is None:
        extra_dirs = locations.extra_content_dirs()
    errors: list[ContentError] = []
    files = shipped_files() if include_shipped else []
    for entry in extra_dirs:
        path = Path(entry)
        if path.is_dir():
            files += [(p, path) for p in content_files(path)]
        elif path.is_file():
            files.append((path, path.parent))
        else:
            errors.append(ContentError(path, 1, "content", "no such file or folder"))
    return load_files(files, errors, cache_dir=cache_dir, use_cache=use_cache, check_symbols=check_symbols)


def load_files(
    files: Sequence[tuple[Path, Path]],
    errors: list[ContentError] | None = None,
    *,
    cache_dir: PathLike | None = None,
    use_cache: bool = True,
    check_symbols: bool = True,
) -> Library:
    """Load ``(file, content folder)`` pairs in order; a file listed twice is read once (the
    keyword arguments are :func:`load_library`'s)."""
    folder = (Path(cache_dir) if cache_dir is not None else locations.cache_dir()) if use_cache else None
    cache = ContentCache(folder)
    loader = _Loader(list(errors or ()), check_symbols=check_symbols)
    seen: set[object] = set()
    # Loading builds many small objects and (almost) no cycles: the cyclic GC would only rescan them
    # again and again (it costs about 40% of a large load), so it pauses meanwhile. Afterwards the
    # objects it would have to scan once more (about as long as a warm load of a large set takes)
    # are moved to the oldest generation unscanned: freeze + unfreeze only changes when cyclic
    # garbage is found (at the next full collection), never whether. Skipped when something else
    # has frozen objects (unfreezing would undo that).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for path, root in files:
            try:
                info: os.stat_result | None = os.stat(path)
            except (OSError, ValueError):  # missing, a symlink loop...: the parser reports the path
                info = None
            # The same file reached twice (a repeated path, a symlink) is one device + inode.
            key = (info.st_dev, info.st_ino) if info is not None else os.path.abspath(path)
            if key in seen:
                continue
            seen.add(key)
            loader.load_file(path, root, cache.result(path, info, root, _parse))
        cache.save()
        library = Library(loader.drills, loader.decks, tuple(loader.errors), tuple(loader.files))
    finally:
        if gc_was_enabled:
            if not gc.get_freeze_count():
                gc.freeze()
                gc.unfreeze()
            gc.enable()
    return library


def _parse(path: Path) -> FileResult:
    """Parse one file (imports PyYAML and the schemas only when a file is not cached)."""
    from tokdrill.content.reading import read_content_file

    return read_content_file(path)


class _Loader:
    """Accumulates items and errors across files: the checks that involve more than one file."""

    def __init__(self, errors: list[ContentError], *, check_symbols: bool = True) -> None:
        self.errors = errors
        self.drills: dict[str, Drill] = {}
        self.decks: dict[str, Deck] = {}
        self.card_origins: dict[str, Origin] = {}
        self.files: list[Path] = []
        self.shipped_hidden = locations.hidden_tests_dir()
        self._dirs: dict[str, list[Path]] = {}
        self._hidden_found: dict[tuple[str, str], Path | None] = {}
        self._symbol_problem: SymbolCheck | None = None if check_symbols else _no_symbol_check

    def load_file(self, path: Path, root: Path, result: FileResult) -> None:
        self.files.append(path)
        start = len(self.errors)
        self.errors += result.errors
        if result.drill is not None:
            self._add_drill(path, root, result.drill)
        elif result.deck is not None:
            self._add_deck(result.deck)
        if len(self.errors) - start > 1:
            self.errors[start:] = sorted(self.errors[start:], key=lambda e: e.line)

    def _search_dirs(self, path: Path, root: Path) -> tuple[str, list[Path]]:
        """Where a drill file's hidden tests are looked up (see the module docstring), and a key
        naming that folder list."""
        parent = os.path.dirname(path)
        key = f"{parent}\0{root}"
        dirs = self._dirs.get(key)
        if dirs is None:
            dirs = self._dirs[key] = _unique([Path(parent) / HIDDEN_FOLDER, root / HIDDEN_FOLDER, self.shipped_hidden])
        return key, dirs

    def _add_drill(self, path: Path, root: Path, parsed: ParsedDrill) -> None:
        from tokdrill.content.crossref import find_hidden_test, finish_drill

        if self._symbol_problem is None:
            from tokdrill.content.reference import symbol_problem

            self._symbol_problem = symbol_problem
        dirs_key, dirs = self._search_dirs(path, root)
        found = self._hidden_found

        def find(search_dirs: Sequence[Path], name: str) -> Path | None:
            # once per folder list and name in this load (never across loads)
            key = (dirs_key, name)
            if key not in found:
                found[key] = find_hidden_test(search_dirs, name)
            return found[key]

        drill = finish_drill(
            parsed, search_dirs=dirs, symbol_problem=self._symbol_problem, errors=self.errors, find_hidden=find
        )
        if drill is None:
            return
        first = self.drills.get(drill.id)
        if first is not None:
            self.errors.append(
                ContentError(
                    path, parsed.id_line, "id", f"duplicate drill id {drill.id!r} (first defined at {first.origin})"
                )
            )
            return
        self.drills[drill.id] = drill

    def _add_deck(self, parsed: ParsedDeck) -> None:
        deck = parsed.deck
        first = self.decks.get(deck.id)
        if first is not None:
            self.errors.append(
                ContentError(
                    deck.origin.path,
                    parsed.id_line,
                    "deck",
                    f"duplicate deck id {deck.id!r} (first defined at {first.origin})",
                )
            )
            return
        cards = self._unique_cards(parsed)
        if not cards:
            return
        if len(cards) != len(deck.cards):
            deck = Deck(deck.id, deck.title, deck.description, tuple(cards), deck.origin)
        self.decks[deck.id] = deck

    def _unique_cards(self, parsed: ParsedDeck) -> list[Card]:
        """The deck's cards whose id is new; a repeated id is reported where it repeats."""
        kept: list[Card] = []
        origins = self.card_origins
        for card, (index, line) in zip(parsed.deck.cards, parsed.card_ids):
            first = origins.get(card.id)
            if first is None:
                origins[card.id] = card.origin
                kept.append(card)
                continue
            self.errors.append(
                ContentError(
                    card.origin.path,
                    line,
                    f"cards[{index}].id",
                    f"duplicate card id {card.id!r} (first defined at {first})",
                )
            )
        return kept


def _no_symbol_check(symbol: str) -> None:
    return None


def _unique(paths: Iterable[Path]) -> list[Path]:
    result: list[Path] = []
    for path in paths:
        if path not in result:
            result.append(path)
    return result
