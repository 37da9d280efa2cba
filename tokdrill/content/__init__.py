"""Content: YAML drills, flashcard decks and concepts -> validated, frozen model objects (no Textual).

Where to look:

- :mod:`.model`: the objects (Drill, Card, Deck, Concept, Reference, Library, ContentError);
- :mod:`.loader`: which files are read, in what order, and the checks across files;
- :mod:`.schema`: each file format and its field checks; :mod:`.yaml_reading`: YAML with lines;
- :mod:`.hidden_tests`: the concepts hidden tests declare (read with ``ast``, never imported);
- :mod:`.cache`: per-file results kept between runs; :mod:`.reference`: a drill's retype text;
- :mod:`.keypoints`: which key points a typed answer covers.

``load_library()`` returns a :class:`Library` of everything valid plus every error found, each
``file:line: field: message``. Names are re-exported lazily, so importing a light submodule
(``keypoints``) does not pull in PyYAML.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names as type checkers see them; at run time __getattr__ imports them
    from tokdrill.content.loader import load_library
    from tokdrill.content.model import Card, Concept, ContentError, Deck, Drill, FollowUp, Library, Origin, Reference
    from tokdrill.content.reference import SymbolError, reference_source

_EXPORTS = {
    "load_library": "tokdrill.content.loader",
    "Card": "tokdrill.content.model",
    "Concept": "tokdrill.content.model",
    "ContentError": "tokdrill.content.model",
    "Deck": "tokdrill.content.model",
    "Drill": "tokdrill.content.model",
    "FollowUp": "tokdrill.content.model",
    "Library": "tokdrill.content.model",
    "Origin": "tokdrill.content.model",
    "Reference": "tokdrill.content.model",
    "SymbolError": "tokdrill.content.reference",
    "reference_source": "tokdrill.content.reference",
}
__all__ = [
    "Card",
    "Concept",
    "ContentError",
    "Deck",
    "Drill",
    "FollowUp",
    "Library",
    "Origin",
    "Reference",
    "SymbolError",
    "load_library",
    "reference_source",
]


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tokdrill.content' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
