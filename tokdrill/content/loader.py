"""Find content files, load them, and collect every error into one :class:`Library`.

Where content comes from, in load order (an id defined twice keeps its first definition):

1. the shipped folders, :func:`tokdrill.locations.drills_dir` and ``questions_dir``;
2. each extra path (``--content DIR``, then ``TOKDRILL_CONTENT``): a folder's ``*.yaml`` /
   ``*.yml`` files at its top level and in its ``questions/`` and ``drills/`` subfolders, or a
   single file.

What a file holds is decided by its top-level keys, not its folder: ``deck:`` or ``cards:`` makes
a deck, ``id:`` or ``symbols:`` a drill. A drill's hidden tests are looked up in ``hidden/`` next
to the drill file, then in ``hidden/`` of its content folder, then among the shipped hidden tests.

Nothing here raises for bad content: each problem becomes a :class:`ContentError` and loading
goes on with the next item, so one broken file (or card) never hides the rest.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from tokdrill import locations
from tokdrill.content import reference
from tokdrill.content.decks import parse_deck
from tokdrill.content.drills import parse_drill
from tokdrill.content.fields import kind
from tokdrill.content.model import Card, ContentError, Deck, Drill, Library, Origin
from tokdrill.content.yamlfile import YamlMap, read_yaml

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


def load_library(extra_dirs: Iterable[PathLike] | None = None, *, include_shipped: bool = True) -> Library:
    """Load the shipped content plus ``extra_dirs`` (folders or single files).

    ``extra_dirs=None`` means the folders in ``TOKDRILL_CONTENT``; a CLI passes
    ``locations.extra_content_dirs(args.content)`` to add its ``--content`` folders. A path that
    does not exist is reported as an error, not raised.
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
    return load_files(files, errors)


def load_files(files: Sequence[tuple[Path, Path]], errors: list[ContentError] | None = None) -> Library:
    """Load ``(file, content folder)`` pairs in order; a file listed twice is read once."""
    loader = _Loader(list(errors or ()))
    seen: set[Path] = set()
    # Loading builds many small objects and (almost) no cycles: the cyclic GC would only rescan them
    # again and again (it costs about 40% of a large load), so it pauses meanwhile.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for path, root in files:
            try:
                key = path.resolve()
            except (OSError, RuntimeError):  # e.g. a symlink loop: read_yaml reports the path
                key = path.absolute()
            if key in seen:
                continue
            seen.add(key)
            loader.load_file(path, root)
    finally:
        if gc_was_enabled:
            gc.enable()
    return Library(loader.drills, loader.decks, tuple(loader.errors), tuple(loader.files))


class _Loader:
    """Accumulates items and errors across files; enforces id uniqueness in load order."""

    def __init__(self, errors: list[ContentError]) -> None:
        self.errors = errors
        self.drills: dict[str, Drill] = {}
        self.decks: dict[str, Deck] = {}
        self.card_origins: dict[str, Origin] = {}
        self.files: list[Path] = []
        self.shipped_hidden = locations.hidden_tests_dir()

    def load_file(self, path: Path, root: Path) -> None:
        start = len(self.errors)
        self._load_file(path, root)
        self.errors[start:] = sorted(self.errors[start:], key=lambda e: e.line)

    def _load_file(self, path: Path, root: Path) -> None:
        self.files.append(path)
        value, errors = read_yaml(path)
        self.errors += errors
        if value is None:
            return
        if not isinstance(value, YamlMap):
            self.errors.append(
                ContentError(path, 1, "file", f"expected a deck or a drill (a mapping), got {kind(value)}")
            )
            return
        if "cards" in value or "deck" in value:
            self._add_deck(path, value)
        elif "symbols" in value or "id" in value:
            self._add_drill(path, root, value)
        else:
            self.errors.append(
                ContentError(
                    path,
                    value.line,
                    "file",
                    "neither a deck (needs `deck:` and `cards:`) nor a drill (needs `id:` and `symbols:`)",
                )
            )

    def _add_drill(self, path: Path, root: Path, mapping: YamlMap) -> None:
        dirs = _unique([path.parent / HIDDEN_FOLDER, root / HIDDEN_FOLDER, self.shipped_hidden])
        drill = parse_drill(
            path, mapping, search_dirs=dirs, symbol_problem=reference.symbol_problem, errors=self.errors
        )
        if drill is None:
            return
        first = self.drills.get(drill.id)
        if first is not None:
            line = mapping.value_lines["id"]
            self.errors.append(
                ContentError(path, line, "id", f"duplicate drill id {drill.id!r} (first defined at {first.origin})")
            )
            return
        self.drills[drill.id] = drill

    def _add_deck(self, path: Path, mapping: YamlMap) -> None:
        deck = parse_deck(path, mapping, self.errors)
        if deck is None:
            return
        first = self.decks.get(deck.id)
        if first is not None:
            line = mapping.value_lines["deck"]
            self.errors.append(
                ContentError(path, line, "deck", f"duplicate deck id {deck.id!r} (first defined at {first.origin})")
            )
            return
        cards = self._unique_cards(deck, mapping)
        if not cards:
            return
        if len(cards) != len(deck.cards):
            deck = Deck(deck.id, deck.title, deck.description, tuple(cards), deck.origin)
        self.decks[deck.id] = deck

    def _unique_cards(self, deck: Deck, mapping: YamlMap) -> list[Card]:
        """The deck's cards whose id is new; a repeated id is reported where it repeats."""
        items = mapping["cards"]
        kept: list[Card] = []
        index = -1
        for card in deck.cards:
            index += 1  # valid cards are a subsequence of the items: walk both in step
            while not (isinstance(items[index], YamlMap) and items[index].get("id") == card.id):
                index += 1
            first = self.card_origins.get(card.id)
            if first is None:
                self.card_origins[card.id] = card.origin
                kept.append(card)
                continue
            self.errors.append(
                ContentError(
                    card.origin.path,
                    items[index].value_lines["id"],
                    f"cards[{index}].id",
                    f"duplicate card id {card.id!r} (first defined at {first})",
                )
            )
        return kept


def _unique(paths: Iterable[Path]) -> list[Path]:
    result: list[Path] = []
    for path in paths:
        if path not in result:
            result.append(path)
    return result
