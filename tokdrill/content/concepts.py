"""The concept-file schema: a top-level ``concepts:`` list -> the concepts it defines, plus errors.

Each entry has ``id`` (``[a-z0-9-]+``, stable: mistakes are kept by it), ``title`` and
``lesson`` (the one sentence to remember), all required. A broken entry drops that entry only.
The shipped vocabulary is ``questions/concepts.yaml``; a user content folder may add concept
files of its own. Hidden tests name concepts with ``@pytest.mark.concept("id")`` and cards with
their ``concepts:`` list; the loader checks both against the vocabulary of every loaded file.
"""

from __future__ import annotations

from pathlib import Path

from tokdrill.content.fields import Fields
from tokdrill.content.model import Concept, ContentError, Origin
from tokdrill.content.parsed import ParsedConcepts
from tokdrill.content.yamlfile import YamlMap

FILE_KEYS = ("concepts",)
CONCEPT_KEYS = ("id", "title", "lesson")


def read_concepts(path: Path, mapping: YamlMap, errors: list[ContentError]) -> ParsedConcepts | None:
    """The file's valid concepts (None if it has none); every problem is appended to ``errors``."""
    f = Fields(path, mapping, "", errors)
    f.check_keys(FILE_KEYS)
    items = f.items("concepts")
    concepts: list[Concept] = []
    id_lines: list[int] = []
    seen: dict[str, int] = {}
    for index, (item, line) in enumerate(zip(items or (), items.item_lines if items else ())):
        field = f"concepts[{index}]"
        entry = f.mapping_at(item, line, field)
        if entry is None:
            continue
        inner = Fields(path, entry, field, errors)
        inner.check_keys(CONCEPT_KEYS)
        concept_id, title, lesson = inner.ident("id"), inner.text("title"), inner.text("lesson")
        if not inner.ok or concept_id is None or title is None or lesson is None:
            continue
        id_line = entry.value_lines["id"]
        if concept_id in seen:
            message = f"duplicate concept id {concept_id!r} (first defined on line {seen[concept_id]})"
            errors.append(ContentError(path, id_line, f"{field}.id", message))
            continue
        seen[concept_id] = id_line
        concepts.append(Concept(concept_id, title, lesson, Origin(path, entry.line)))
        id_lines.append(id_line)
    if not concepts or mapping.broken:
        return None
    return ParsedConcepts(tuple(concepts), tuple(id_lines))
