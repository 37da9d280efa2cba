"""Anki notes -> tokdrill cards: which field is the question, ids that survive re-importing,
Markdown for every text, key points, and a note of everything that did not carry over.

* A note of tokdrill's own type (:mod:`tokdrill.anki.notetype`) maps field by field: follow-ups,
  key points, references and concepts come back, and so does the card id, prefixed with the new
  deck id unless it already starts with it.
* Any other note gives a card per card Anki made from it (a Basic-and-reversed note gives two):
  the fields its template shows on the question side are the question, the first field shown
  only on the answer side is the answer. Further non-empty fields (those the answer side adds,
  then those no side shows) follow the answer under their names, as context: key points are not
  drawn from them. Without templates (a text export of a type it cannot name) the first field is
  the question and the second the answer. A cloze note gives one card per cloze number (the
  deletion blanked in the question, shown in bold in the answer) whose key points are the
  deletion's text; its other fields ("Back Extra") are context. Image-occlusion notes are
  skipped: their content is a picture.
* A card id is ``<deck>-<10 hex digits>`` from the note's GUID (or, in a text export without
  GUIDs, from the question), with ``-card<n>`` for a note's n-th template after the first, so
  importing a newer export of the same notes keeps every id and with it the review history.
* Media (pictures, sounds) stay behind: each reference becomes a visible ``[image: name]``
  placeholder and is listed in :attr:`Conversion.media`; what Markdown cannot say as Anki showed
  it (text colour) is listed in :attr:`Conversion.formatting`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from bs4 import Tag

from tokdrill.anki import notetype as nt
from tokdrill.anki.cloze import cloze_card, cloze_numbers
from tokdrill.anki.keyphrases import MAX_POINTS, MIN_POINTS, deletion_key_points, derive_key_points
from tokdrill.anki.notes import AnkiNote, CardTemplate
from tokdrill.anki.tomarkdown import PLACEHOLDER, html_to_markdown, parse_html, replace_media, visible_text
from tokdrill.content import FollowUp, Reference
from tokdrill.content.schema.fields import ID_PATTERN
from tokdrill.content.yaml_reading import UNSAFE_TEXT

SKIPPED_FIELDS = frozenset({"add reverse"})
"""Fields that switch Anki features on rather than hold text (Basic (optional reversed card))."""
_SNIPPET = 48
_TEMPLATE_FIELD = re.compile(r"\{\{([^{}#^/!][^{}]*)\}\}")


@dataclass(frozen=True)
class ImportedCard:
    """One card as it will be written; ``drawn_key_points`` says the key points were derived."""

    id: str
    question: str
    answer: str
    key_points: tuple[str, ...]
    follow_ups: tuple[FollowUp, ...] = ()
    tags: tuple[str, ...] = ()
    references: tuple[Reference, ...] = ()
    concepts: tuple[str, ...] = ()
    drawn_key_points: bool = False

    def to_mapping(self) -> dict[str, object]:
        """The card as a deck file's mapping (optional keys only when they have values)."""
        mapping: dict[str, object] = {"id": self.id, "question": self.question, "answer": self.answer}
        if self.follow_ups:
            mapping["follow_ups"] = [{"question": f.question, "answer": f.answer} for f in self.follow_ups]
        mapping["key_points"] = list(self.key_points)
        if self.tags:
            mapping["tags"] = list(self.tags)
        if self.references:
            mapping["references"] = [ref.to_json() for ref in self.references]
        if self.concepts:
            mapping["concepts"] = list(self.concepts)
        return mapping


@dataclass
class Conversion:
    """The cards made, and what did not carry over (each entry a line for the user)."""

    cards: list[ImportedCard] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    media: list[tuple[str, str]] = field(default_factory=list)  # (card id, file name)
    changed: list[str] = field(default_factory=list)  # card ids whose formatting may differ from Anki's
    notices: list[str] = field(default_factory=list)
    formatting: list[str] = field(default_factory=list)  # "card id: what Markdown could not say"


def convert_notes(notes: Sequence[AnkiNote], deck_id: str, *, known_concepts: Collection[str] = ()) -> Conversion:
    """Turn ``notes`` into cards of deck ``deck_id``. ``known_concepts`` are the concept ids the
    library defines: a ``concept::<id>`` tag on a tokdrill note becomes a concept only then."""
    converter = _Converter(deck_id, frozenset(known_concepts))
    for note in notes:
        converter.add(note)
    return converter.result


_BLOCKS = ("br", "div", "p", "li", "tr", "td", "th", "pre", "h1", "h2", "h3", "h4", "h5", "h6")


def snippet(html: str) -> str:
    """The start of a field's text, to name a note in a message."""
    soup = parse_html(html)
    for tag in soup.find_all(_BLOCKS):
        tag.insert_after(" ")
    text = " ".join(soup.get_text().split())
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 3].rstrip() + "..."


def is_tokdrill_note(note: AnkiNote) -> bool:
    """A note of tokdrill's own type: known by its field names (a renamed type still counts)."""
    return set(nt.FIELDS) <= set(note.field_names)


class _Converter:
    def __init__(self, deck_id: str, known_concepts: frozenset[str]) -> None:
        self.deck_id = deck_id
        self.known_concepts = known_concepts
        self.result = Conversion()
        self.first_seen: dict[str, str] = {}  # card id -> where

    def add(self, note: AnkiNote) -> None:
        label = f"{note.where} ({snippet(note.fields[0]) if note.fields else 'empty'!r})"
        if note.kind == "image-occlusion":
            self.result.skipped.append(f"{label}: image occlusion note (its content is a picture)")
        elif is_tokdrill_note(note):
            self._tokdrill(note, label)
        elif note.kind == "cloze":
            self._cloze(note, label)
        else:
            self._standard(note, label)

    # --- the three shapes of note -------------------------------------------------------
    def _standard(self, note: AnkiNote, label: str) -> None:
        base = self._foreign_id(note, note.fields[0] if note.fields else "")
        templates: Sequence[CardTemplate | None] = note.cards or (None,)
        for template in templates:
            asked, shown = _card_fields(note, template)
            question = "<br>".join(note.fields[i] for i in asked if i < len(note.fields) and note.fields[i].strip())
            answer = note.fields[shown[0]] if shown and shown[0] < len(note.fields) else ""
            rest = shown[1:] + [i for i in range(len(note.fields)) if i not in asked and i not in shown]
            ordinal = template.ordinal if template is not None else 0
            card_id = base if ordinal == 0 else f"{base}-card{ordinal + 1}"
            where = label if len(templates) == 1 else f"{label} card {ordinal + 1}"
            self._finish(note, where, card_id, question, answer, self._extra_fields(note, rest))

    def _cloze(self, note: AnkiNote, label: str) -> None:
        text = note.fields[0] if note.fields else ""
        numbers = cloze_numbers(text)
        if not numbers:
            self.result.skipped.append(f"{label}: cloze note without a deletion")
            return
        base = self._foreign_id(note, text)
        extra = self._extra_fields(note, range(1, len(note.fields)))
        for number in numbers:
            question, answer, hidden = cloze_card(text, number)
            preferred = [" ".join(parse_html(h).get_text(" ").split()) for h in hidden]
            points = deletion_key_points(preferred)
            self._finish(
                note,
                f"{label} cloze {number}",
                f"{base}-c{number}",
                question,
                answer,
                extra,
                preferred,
                key_points=points,
            )

    def _tokdrill(self, note: AnkiNote, label: str) -> None:
        values = dict(zip(note.field_names, note.fields))
        original = " ".join(parse_html(values.get(nt.CARD_ID, "")).get_text().split())
        if ID_PATTERN.fullmatch(original):
            card_id = original if original.startswith(f"{self.deck_id}-") else f"{self.deck_id}-{original}"
        else:
            card_id = self._foreign_id(note, values.get(nt.QUESTION, ""))
        key_points = self._key_points_field(values.get(nt.KEY_POINTS, ""))
        follow_ups, leftover = self._follow_ups_field(card_id, values.get(nt.FOLLOW_UPS, ""))
        references = self._references_field(label, values.get(nt.REFERENCES, ""))
        concepts: list[str] = []
        tags: list[str] = []
        for tag in note.tags:
            concept = tag[len(nt.CONCEPT_TAG_PREFIX) :] if tag.startswith(nt.CONCEPT_TAG_PREFIX) else None
            if concept is not None and concept in self.known_concepts:
                concepts.append(concept)
            else:
                tags.append(tag)
        self._finish(
            note,
            label,
            card_id,
            values.get(nt.QUESTION, ""),
            values.get(nt.ANSWER, ""),
            leftover,
            key_points=key_points,
            drawn=key_points is None,
            follow_ups=follow_ups,
            references=references,
            concepts=tuple(concepts),
            tags=tuple(tags),
        )

    # --- shared steps ----------------------------------------------------------------------
    def _finish(
        self,
        note: AnkiNote,
        label: str,
        card_id: str,
        question_html: str,
        answer_html: str,
        extra: Sequence[tuple[str, str]],
        preferred: Sequence[str] = (),
        *,
        key_points: tuple[str, ...] | None = None,
        drawn: bool = True,
        follow_ups: tuple[FollowUp, ...] = (),
        references: tuple[Reference, ...] = (),
        concepts: tuple[str, ...] = (),
        tags: tuple[str, ...] | None = None,
    ) -> None:
        first = self.first_seen.get(card_id)
        if first is not None:
            self.result.skipped.append(f"{label}: the same note as {first} (card {card_id}); imported once")
            return
        question = html_to_markdown(question_html)
        answer = html_to_markdown(answer_html)
        if not _has_text(question.markdown):
            self.result.skipped.append(f"{label}: no question text" + _only_media(question.media))
            return
        answer_md = answer.markdown
        exact = question.exact and answer.exact
        media = list(question.media + answer.media)
        formatting = [f"{card_id}: question: {change}" for change in question.changes]
        formatting += [f"{card_id}: answer: {change}" for change in answer.changes]
        for name, html in extra:
            converted = html_to_markdown(html)
            exact = exact and converted.exact
            media += converted.media
            formatting += [f"{card_id}: {name}: {change}" for change in converted.changes]
            answer_md = f"{answer_md}\n\n**{name}**\n\n{converted.markdown}".strip()
        if not _has_text(answer_md):
            self.result.skipped.append(f"{label}: no answer text" + _only_media(tuple(media)))
            return
        if key_points is None:  # drawn from the answer itself; the fields after it are context
            key_points = derive_key_points(answer.markdown if _has_text(answer.markdown) else answer_md, preferred)
        key_points = tuple(UNSAFE_TEXT.sub("", point) for point in key_points)  # content text holds no controls
        self.first_seen[card_id] = note.where
        self.result.media += [(card_id, name) for name in media]
        self.result.formatting += formatting
        if not exact:
            self.result.changed.append(card_id)
        self.result.cards.append(
            ImportedCard(
                id=card_id,
                question=question.markdown,
                answer=answer_md,
                key_points=key_points,
                follow_ups=follow_ups,
                tags=note.tags if tags is None else tags,
                references=references,
                concepts=concepts,
                drawn_key_points=drawn,
            )
        )

    def _foreign_id(self, note: AnkiNote, question_html: str) -> str:
        key = f"guid:{note.guid}" if note.guid else f"question:{visible_text(question_html)}"
        return f"{self.deck_id}-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:10]}"

    def _extra_fields(self, note: AnkiNote, indices: Iterable[int]) -> list[tuple[str, str]]:
        extra = []
        for index in indices:
            name = note.field_names[index] if index < len(note.field_names) else f"Field {index + 1}"
            html = note.fields[index]
            if name.casefold() in SKIPPED_FIELDS or not (visible_text(html) or replace_media(parse_html(html))):
                continue  # a switch, or empty (a field holding only a picture is kept: its placeholder)
            extra.append((name, html))
        return extra

    def _key_points_field(self, html: str) -> tuple[str, ...] | None:
        """The exported key points, or None (derive them) when the field no longer holds 2-6."""
        soup = parse_html(html)
        items = soup.find_all("li")
        if items:
            points = [" ".join(li.get_text().split()) for li in items]
        else:
            for br in soup.find_all(["br", "div", "p"]):
                br.insert_before("\n")
            points = [" ".join(line.split()) for line in soup.get_text().split("\n")]
        points = [p for p in points if p]
        return tuple(points) if MIN_POINTS <= len(points) <= MAX_POINTS else None

    def _follow_ups_field(self, card_id: str, html: str) -> tuple[tuple[FollowUp, ...], list[tuple[str, str]]]:
        """Follow-ups from their ``<details>`` blocks; anything else in the field is returned to be
        added to the answer, so an edit made in Anki is never lost."""
        soup = parse_html(html)
        result = []
        for details in soup.find_all("details"):
            summary = details.find("summary")
            question_html = summary.decode_contents() if isinstance(summary, Tag) else ""
            if isinstance(summary, Tag):
                summary.extract()
            question = html_to_markdown(question_html)
            answer = html_to_markdown(details.decode_contents())
            details.extract()
            if not (question.exact and answer.exact):
                self.result.changed.append(card_id)
            if _has_text(question.markdown) and _has_text(answer.markdown):
                result.append(FollowUp(question.markdown, answer.markdown))
        rest = str(soup)
        return tuple(result), ([("Follow-ups", rest)] if visible_text(rest) else [])

    def _references_field(self, label: str, html: str) -> tuple[Reference, ...]:
        result = []
        for item in parse_html(html).find_all("li"):

            def part(name: str, item: Tag = item) -> str | None:
                node = item.find(class_=name)
                text = " ".join(node.get_text().split()) if isinstance(node, Tag) else ""
                return text or None

            title = part(nt.REF_TITLE) or " ".join(item.get_text().split())
            link = item.find("a", href=True)
            url = str(link["href"]) if isinstance(link, Tag) else None
            year_text = part(nt.REF_YEAR)
            year = int(year_text) if year_text and year_text.isdigit() else None
            venue = part(nt.REF_VENUE)
            if not title or not (venue or (url and url.startswith(("http://", "https://")))):
                self.result.notices.append(f"{label}: reference {title!r} has no venue or web address; left out")
                continue
            if url and not url.startswith(("http://", "https://")):
                url = None
            result.append(Reference(title, part(nt.REF_AUTHORS), year, venue, url))
        return tuple(result)


def _card_fields(note: AnkiNote, template: CardTemplate | None) -> tuple[list[int], list[int]]:
    """The indices of the fields ``template`` shows on the question side, and of those only its
    answer side adds, in template order; the first two fields when there is no template or its
    question side shows no field of the note."""
    asked = _template_fields(template.question, note.field_names) if template is not None else []
    if not asked:
        return [0], [1]
    shown = [i for i in _template_fields(template.answer, note.field_names) if i not in asked] if template else []
    return asked, shown


def _template_fields(text: str, names: Sequence[str]) -> list[int]:
    """Indices (into ``names``) of the fields a card template shows: ``{{Front}}``, also with
    filters (``{{text:Front}}``, ``{{type:Back}}``); conditionals and special fields aside."""
    found: list[int] = []
    for match in _TEMPLATE_FIELD.finditer(text):
        name = match.group(1).split(":")[-1].strip()
        if name in names and names.index(name) not in found:
            found.append(names.index(name))
    return found


def _has_text(markdown: str) -> bool:
    return bool(PLACEHOLDER.sub("", markdown).strip())


def _only_media(media: Sequence[str]) -> str:
    return f" (only media: {', '.join(media)})" if media else ""
