"""Content: YAML drills and flashcard decks -> validated, frozen model objects (no Textual).

``load_library()`` returns a :class:`Library` of everything valid plus every error found, each
``file:line: field: message``; ``reference_source(symbols)`` gives a drill's retype text from
``reference_impl``. File formats: docs/ARCHITECTURE.md ("Content files"); where files are found
and which keys are optional: :mod:`tokdrill.content.loader`, ``.drills``, ``.decks``.

Names are re-exported lazily, so importing a light submodule (``keypoints``) does not pull in
PyYAML.
"""

from __future__ import annotations

import importlib
from typing import Any

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
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tokdrill.content' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
