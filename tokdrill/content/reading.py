"""Parse one content file on its own: YAML, then the drill or deck schema's file-level checks.

The result depends only on the file's bytes (and this package's code), never on other files,
so :mod:`tokdrill.content.cache` may keep it. What a file holds is decided by its top-level
keys: ``deck:`` or ``cards:`` make a deck, ``id:`` or ``symbols:`` a drill, ``concepts:`` a
concept vocabulary.
"""

from __future__ import annotations

from pathlib import Path

from tokdrill.content.concepts import read_concepts
from tokdrill.content.decks import read_deck
from tokdrill.content.drills import read_drill
from tokdrill.content.fields import kind
from tokdrill.content.model import ContentError
from tokdrill.content.parsed import FileResult
from tokdrill.content.yamlfile import YamlMap, read_yaml


def read_content_file(path: Path) -> FileResult:
    """The file's own errors and its drill or deck (never raises for bad content)."""
    value, errors = read_yaml(path)
    if value is None:
        return FileResult(tuple(errors))
    if not isinstance(value, YamlMap):
        errors.append(ContentError(path, 1, "file", f"expected a deck or a drill (a mapping), got {kind(value)}"))
        return FileResult(tuple(errors))
    if "cards" in value or "deck" in value:
        deck = read_deck(path, value, errors)
        return FileResult(tuple(errors), deck=deck)
    if "symbols" in value or "id" in value:
        drill = read_drill(path, value, errors)
        return FileResult(tuple(errors), drill=drill)
    if "concepts" in value:
        concepts = read_concepts(path, value, errors)
        return FileResult(tuple(errors), concepts=concepts)
    errors.append(
        ContentError(
            path,
            value.line,
            "file",
            "not a deck (needs `deck:` and `cards:`), a drill (needs `id:` and `symbols:`) "
            "or a concept list (needs `concepts:`)",
        )
    )
    return FileResult(tuple(errors))
