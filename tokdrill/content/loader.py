"""Find content files, load them, and collect every error into one :class:`Library`.

Where content comes from, in load order:

1. the shipped folders, :func:`tokdrill.locations.drills_dir` and ``questions_dir``;
2. each extra path (``--content DIR``, then ``TOKDRILL_CONTENT``): a folder's ``*.yaml`` /
   ``*.yml`` files at its top level and in its ``questions/`` and ``drills/`` subfolders, or a
   single file.

What a file holds is decided by its top-level keys, not its folder: ``deck:`` or ``cards:`` makes
a deck, ``id:`` or ``symbols:`` a drill, ``concepts:`` a concept vocabulary. A drill's hidden
tests are looked up in ``hidden/`` next to the drill file, then in ``hidden/`` of its content
folder, then among the shipped hidden tests; the concepts their markers name are read from them
(:mod:`tokdrill.content.hidden_tests`).

Loading runs in three steps:

1. each file on its own (YAML, keys, types, ids), possibly from the cache of earlier loads
   (:mod:`tokdrill.content.cache`, under :func:`tokdrill.locations.cache_dir`);
2. the checks against other files, on every load: hidden tests exist and their concept markers
   are known, symbols exist in ``reference_impl``, card concepts are known;
3. ids across files. An id defined twice keeps one definition: the first from a file without
   errors, else the first. The duplicate is reported on the later of the two files, so a
   partly broken file never hides a valid one, whatever the file names' order.

Nothing here raises for bad content: each problem becomes a :class:`ContentError` and loading
goes on with the next item, so one broken file (or card) never hides the rest.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Generic, NamedTuple, TypeVar

from tokdrill import locations
from tokdrill.content.cache import ContentCache
from tokdrill.content.hidden_tests import HiddenTestFile, find_hidden_test, read_hidden_test_file
from tokdrill.content.model import Card, ContentError, Deck, Drill, Library, Origin
from tokdrill.content.parsed import FileResult, ParsedDrill

YAML_SUFFIXES = (".yaml", ".yml")
CONTENT_SUBFOLDERS = ("questions", "drills")
HIDDEN_FOLDER = "hidden"

PathLike = str | os.PathLike[str]
SymbolCheck = Callable[[str], "str | None"]


def yaml_files(folder: Path) -> list[Path]:
    """The YAML files directly inside ``folder``, sorted by name."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    found: list[Path] = []
    for entry in entries:
        try:
            if entry.name.endswith(YAML_SUFFIXES) and entry.is_file():
                found.append(Path(entry.path))
        except OSError:  # e.g. a name the file system cannot stat
            continue
    return sorted(found, key=lambda p: p.name)


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
    # Loading builds many small objects and (almost) no cycles: the cyclic GC would only rescan them
    # again and again (it costs about 40% of a large load), so it pauses meanwhile. Afterwards the
    # objects it would have to scan once more (about as long as a warm load of a large set takes)
    # are moved to the oldest generation unscanned: freeze + unfreeze only changes when cyclic
    # garbage is found (at the next full collection), never whether. Skipped when something else
    # has frozen objects (unfreezing would undo that).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        loaded = _read_files(files, cache)
        checker = _CrossChecks(cache, check_symbols=check_symbols)
        checker.check(loaded)
        cache.save()
        library = _assemble(loaded, list(errors or ()))
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


def _read_hidden(path: Path) -> HiddenTestFile:
    """Read one hidden test file's concept markers (patched by tests to count reads)."""
    return read_hidden_test_file(path)


class _File:
    """One content file through the steps of a load: its result, errors and surviving items."""

    __slots__ = ("cards", "clean", "drill", "errors", "path", "result", "root", "test_errors")

    def __init__(self, path: Path, root: Path, result: FileResult) -> None:
        self.path = path
        self.root = root
        self.result = result
        self.errors: list[ContentError] = list(result.errors)
        self.test_errors: list[ContentError] = []  # problems in the hidden test files it names
        self.drill: Drill | None = None
        self.cards: list[Card] = list(result.deck.deck.cards) if result.deck is not None else []
        self.clean = False  # no error of its own after step 2 (set then, before ids are compared)


def _read_files(files: Sequence[tuple[Path, Path]], cache: ContentCache) -> list[_File]:
    seen: set[object] = set()
    loaded: list[_File] = []
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
        loaded.append(_File(path, root, cache.result(path, info, root, _parse, FileResult)))
    return loaded


class _CrossChecks:
    """Step 2: the checks of each file against other files (never cached)."""

    def __init__(self, cache: ContentCache, *, check_symbols: bool) -> None:
        self.cache = cache
        self.shipped_hidden = locations.hidden_tests_dir()
        self.check_symbols = check_symbols
        self._symbol_problem: SymbolCheck | None = None
        self._dirs: dict[tuple[str, Path], list[Path]] = {}
        self._found: dict[tuple[str, Path, str], Path | None] = {}
        self._tests: dict[Path, HiddenTestFile] = {}
        self._reported: set[tuple[Path, int, str]] = set()
        self.known: frozenset[str] = frozenset()

    def check(self, loaded: list[_File]) -> None:
        self.known = frozenset(
            concept.id
            for file in loaded
            if file.result.concepts is not None
            for concept in file.result.concepts.concepts
        )
        for file in loaded:
            if file.result.drill is not None:
                file.drill = self.drill(file, file.result.drill)
            elif file.result.deck is not None:
                self.card_concepts(file)
        for file in loaded:
            file.clean = not file.errors and not file.test_errors

    def symbol_problem(self, symbol: str) -> str | None:
        if not self.check_symbols:
            return None
        if self._symbol_problem is None:
            from tokdrill.content.reference import symbol_problem

            self._symbol_problem = symbol_problem
        return self._symbol_problem(symbol)

    def search_dirs(self, path: Path, root: Path) -> list[Path]:
        """Where a drill file's hidden tests are looked up (see the module docstring)."""
        parent = os.path.dirname(path)
        key = (parent, root)
        dirs = self._dirs.get(key)
        if dirs is None:
            candidates = [Path(parent) / HIDDEN_FOLDER, root / HIDDEN_FOLDER, self.shipped_hidden]
            dirs = self._dirs[key] = list(dict.fromkeys(candidates))
        return dirs

    def find_hidden(self, path: Path, root: Path, name: str) -> Path | None:
        parent = os.path.dirname(path)
        key = (parent, root, name)
        if key not in self._found:  # once per folder list and name in this load
            self._found[key] = find_hidden_test(self.search_dirs(path, root), name)
        return self._found[key]

    def hidden_file(self, test: Path, root: Path) -> HiddenTestFile:
        """The (cached) reading of hidden test file ``test``."""
        found = self._tests.get(test)
        if found is None:
            try:
                info: os.stat_result | None = os.stat(test)
            except OSError:
                info = None
            found = self._tests[test] = self.cache.result(test, info, root, _read_hidden, HiddenTestFile)
        return found

    def report_once(self, file: _File, error: ContentError) -> None:
        """A hidden test file's problem, reported with the first drill that names the file."""
        key = (error.path, error.line, error.message)
        if key not in self._reported:
            self._reported.add(key)
            file.test_errors.append(error)

    def drill(self, file: _File, parsed: ParsedDrill) -> Drill | None:
        """The checks against other files (symbols, hidden tests, their concepts), then the
        drill; None if these or the file's own checks found anything wrong."""
        path = file.path
        errors = file.errors
        start = len(errors) + len(file.test_errors)
        for index, symbol, line in parsed.symbols:
            problem = self.symbol_problem(symbol)
            if problem is not None:
                errors.append(ContentError(path, line, f"symbols[{index}]", problem))
        found: list[Path] = []
        test_concepts: dict[str, tuple[str, ...]] = {}
        for index, name, line in parsed.hidden_tests:
            match = self.find_hidden(path, file.root, name)
            if match is None:
                looked = ", ".join(str(d) for d in self.search_dirs(path, file.root))
                message = f"hidden test file {name} not found (looked in {looked})"
                errors.append(ContentError(path, line, f"hidden_tests[{index}]", message))
                continue
            found.append(match)
            scan = self.hidden_file(match, file.root)
            test_problems = list(scan.errors)
            for test in scan.tests:
                test_problems += [
                    ContentError(match, at, "concepts", _unknown(concept))
                    for concept, at in test.concepts
                    if concept not in self.known
                ]
                test_concepts[test.name] = tuple(c for c, _ in test.concepts)
            if test_problems:
                for test_problem in test_problems:
                    self.report_once(file, test_problem)
                message = f"{name} has problems (listed at its own lines), so this drill is left out"
                errors.append(ContentError(path, line, f"hidden_tests[{index}]", message))
        if not parsed.valid or len(errors) + len(file.test_errors) != start:
            return None
        assert parsed.id and parsed.title and parsed.symbols and parsed.target_seconds and parsed.difficulty
        assert parsed.prompt and parsed.starter and found
        return Drill(
            id=parsed.id,
            title=parsed.title,
            symbols=tuple(symbol for _, symbol, _ in parsed.symbols),
            target_seconds=parsed.target_seconds,
            difficulty=parsed.difficulty,
            tags=parsed.tags,
            hidden_tests=tuple(found),
            prompt=parsed.prompt,
            starter=parsed.starter,
            references=parsed.references,
            origin=parsed.origin,
            test_concepts=test_concepts,
        )

    def card_concepts(self, file: _File) -> None:
        """Leave out the cards that name a concept no concept file defines (each one reported)."""
        deck = file.result.deck
        assert deck is not None
        known = self.known
        if all(c in known for card in deck.deck.cards for c in card.concepts):
            return
        kept: list[Card] = []
        for card, (index, _), lines in zip(deck.deck.cards, deck.card_ids, deck.concept_lines):
            unknown = [(i, c, line) for i, (c, line) in enumerate(zip(card.concepts, lines)) if c not in known]
            for i, concept, line in unknown:
                file.errors.append(ContentError(file.path, line, f"cards[{index}].concepts[{i}]", _unknown(concept)))
            if not unknown:
                kept.append(card)
        file.cards = kept


def _unknown(concept: str) -> str:
    return f"unknown concept {concept!r} (define it in a concept file such as questions/concepts.yaml)"


T = TypeVar("T")


class _Candidate(NamedTuple, Generic[T]):
    item: T
    file: _File
    id_line: int
    field: str
    origin: Origin


def _resolve(kind: str, candidates: Iterable[tuple[str, _Candidate[T]]]) -> dict[str, _Candidate[T]]:
    """One definition per id, preferring the first from a file without errors (step 3); the
    other definitions are reported on the later file of each pair."""
    by_id: dict[str, list[_Candidate[T]]] = {}
    for item_id, candidate in candidates:
        by_id.setdefault(item_id, []).append(candidate)
    chosen: dict[str, _Candidate[T]] = {}
    for item_id, group in by_id.items():
        if len(group) == 1:
            chosen[item_id] = group[0]
            continue
        winner_at = next((i for i, c in enumerate(group) if c.file.clean), 0)
        winner = group[winner_at]
        chosen[item_id] = winner
        for at, other in enumerate(group):
            if at < winner_at:  # an earlier definition in a file with errors: the later one is used
                message = (
                    f"duplicate {kind} id {item_id!r} (also defined at {other.origin}, in a file with errors; "
                    "this definition is used)"
                )
                winner.file.errors.append(ContentError(winner.file.path, winner.id_line, winner.field, message))
            elif at > winner_at:
                message = f"duplicate {kind} id {item_id!r} (first defined at {winner.origin})"
                other.file.errors.append(ContentError(other.file.path, other.id_line, other.field, message))
    return chosen


def _assemble(loaded: list[_File], errors: list[ContentError]) -> Library:
    """Step 3: resolve ids across files, then the library with every error in file order."""
    concept_candidates = (
        (concept.id, _Candidate(concept, file, line, f"concepts[{index}].id", concept.origin))
        for file in loaded
        if file.result.concepts is not None
        for index, (concept, line) in enumerate(zip(file.result.concepts.concepts, file.result.concepts.id_lines))
    )
    concepts = {key: c.item for key, c in _resolve("concept", concept_candidates).items()}
    drill_candidates = (
        (file.drill.id, _Candidate(file.drill, file, file.result.drill.id_line, "id", file.drill.origin))
        for file in loaded
        if file.drill is not None and file.result.drill is not None
    )
    drills = {key: c.item for key, c in _resolve("drill", drill_candidates).items()}
    deck_candidates = (
        (parsed.deck.id, _Candidate(parsed.deck, file, parsed.id_line, "deck", parsed.deck.origin))
        for file in loaded
        if (parsed := file.result.deck) is not None and file.cards
    )
    decks = _resolve("deck", deck_candidates)
    positions = {
        id(card): index
        for file in loaded
        if file.result.deck is not None
        for card, index in zip(file.result.deck.deck.cards, file.result.deck.card_ids)
    }
    card_candidates = (
        (card.id, _Candidate(card, c.file, positions[id(card)][1], f"cards[{positions[id(card)][0]}].id", card.origin))
        for c in decks.values()
        for card in c.file.cards
    )
    cards = _resolve("card", card_candidates)
    final_decks: dict[str, Deck] = {}
    for deck_id, chosen in decks.items():
        deck = chosen.item
        deck_cards = tuple(card for card in chosen.file.cards if cards[card.id].item is card)
        if not deck_cards:
            continue
        if len(deck_cards) != len(deck.cards):
            deck = Deck(deck.id, deck.title, deck.description, deck_cards, deck.origin)
        final_decks[deck_id] = deck
    for file in loaded:
        file.errors.sort(key=lambda e: e.line)
        errors += file.errors
        errors += file.test_errors
    return Library(drills, final_decks, tuple(errors), tuple(file.path for file in loaded), concepts)
