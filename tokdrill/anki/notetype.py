"""The Anki note type tokdrill cards travel in, and the stable ids that let Anki update them.

A note has one field per part of a card (:data:`FIELDS`); the importer recognises the type by
its name and field names and maps every field back. Ids never change between exports: the
note's GUID comes from the card id, the deck's id from the deck id, and the note type's id from
:data:`NOTE_TYPE_NAME`, so importing a newer export into Anki updates the notes it already has
(keeping their review history) instead of adding copies. A change to the fields or templates
that Anki cannot merge needs a new :data:`NOTE_TYPE_NAME` (and so a new id).
"""

from __future__ import annotations

import hashlib
from typing import Final

from tokdrill.anki.render import code_css

NOTE_TYPE_NAME: Final = "tokdrill card v1"
"""Shown in Anki's note type list; its hash is the note type's id."""

QUESTION, ANSWER, FOLLOW_UPS, KEY_POINTS, REFERENCES, CARD_ID = (
    "Question",
    "Answer",
    "Follow-ups",
    "Key points",
    "References",
    "Card ID",
)
FIELDS: Final = (QUESTION, ANSWER, FOLLOW_UPS, KEY_POINTS, REFERENCES, CARD_ID)
"""Field names in order; the first is the one Anki sorts and checks duplicates by."""

DECK_PREFIX: Final = "tokdrill"
"""Exported decks are named ``tokdrill::<deck title>``, so they sit together in Anki."""

CONCEPT_TAG_PREFIX: Final = "concept::"
"""A card's concepts travel as hierarchical Anki tags ``concept::<id>``."""

# Class names inside the generated field HTML, which the importer reads back.
FOLLOW_UP_CLASS, KEY_POINTS_CLASS, REFERENCES_CLASS = "follow-up", "key-points", "references"
REF_TITLE, REF_AUTHORS, REF_YEAR, REF_VENUE = "title", "authors", "year", "venue"
"""Class of the element holding each part of a reference (its link is the title's ``href``)."""

QUESTION_TEMPLATE: Final = f'<div class="question">{{{{{QUESTION}}}}}</div>'
ANSWER_TEMPLATE: Final = (
    "{{FrontSide}}\n\n<hr id=answer>\n\n"
    f'<div class="answer">{{{{{ANSWER}}}}}</div>\n'
    f'{{{{#{KEY_POINTS}}}}}<div class="section"><h4>Key points</h4>{{{{{KEY_POINTS}}}}}</div>{{{{/{KEY_POINTS}}}}}\n'
    f'{{{{#{FOLLOW_UPS}}}}}<div class="section"><h4>Follow-ups</h4>{{{{{FOLLOW_UPS}}}}}</div>{{{{/{FOLLOW_UPS}}}}}\n'
    f'{{{{#{REFERENCES}}}}}<div class="section"><h4>References</h4>{{{{{REFERENCES}}}}}</div>{{{{/{REFERENCES}}}}}\n'
)
"""The answer side: the question, then the answer and the sections a card has. ``<hr id=answer>``
is written as Anki's own templates write it, so Anki's card export can strip the question."""

_BASE_CSS: Final = """\
.card { font-family: system-ui, sans-serif; font-size: 18px; line-height: 1.5; text-align: left;
        color: #1d1d1f; background-color: #fff; max-width: 46em; margin: 0 auto; padding: 0 0.5em; }
.nightMode.card, .nightMode .card { color: #e8e8e8; background-color: #1e1e1e; }
.question { font-weight: 600; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
:not(pre) > code { background: rgba(127, 127, 127, 0.15); padding: 0 0.2em; border-radius: 3px; }
pre { overflow-x: auto; }
pre code { display: block; padding: 0.6em 0.8em; border-radius: 4px; white-space: pre; }
table { border-collapse: collapse; }
th, td { border: 1px solid rgba(127, 127, 127, 0.5); padding: 0.2em 0.5em; }
.section h4 { margin: 1.2em 0 0.3em; font-size: 0.8em; text-transform: uppercase; letter-spacing: 0.05em; opacity: 0.7; }
details.follow-up { margin: 0.5em 0; }
details.follow-up > summary { cursor: pointer; font-weight: 600; }
details.follow-up > summary > p { display: inline; }
"""


def css() -> str:
    """The note type's stylesheet: layout, night mode, and the colours of highlighted code."""
    return _BASE_CSS + code_css()


def stable_id(*parts: str) -> int:
    """A positive id that depends only on ``parts``, in the range genanki recommends for
    note type and deck ids (clear of the small ids Anki gives its own defaults)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return (1 << 30) + int.from_bytes(digest[:8], "big") % (1 << 30)


def note_type_id() -> int:
    """The Anki id of :data:`NOTE_TYPE_NAME`."""
    return stable_id("tokdrill note type", NOTE_TYPE_NAME)


def deck_id(tokdrill_deck_id: str) -> int:
    """The Anki id of the deck exported from tokdrill deck ``tokdrill_deck_id``."""
    return stable_id("tokdrill deck", tokdrill_deck_id)


def deck_name(title: str) -> str:
    """The Anki deck name for a tokdrill deck titled ``title`` (``::`` would nest it deeper)."""
    return f"{DECK_PREFIX}::{title.replace('::', ':')}"


def note_guid(card_id: str) -> str:
    """The Anki note GUID of tokdrill card ``card_id`` (the same on every export)."""
    import genanki

    return str(genanki.guid_for("tokdrill card", card_id))
