"""Hostile outside text shared by the tests that check it is shown as text (imported by name):
a content folder whose every text field carries Textual markup and a click action, a file whose
name carries an escape sequence, and an Anki export with both."""

from __future__ import annotations

from pathlib import Path

ACTION = "[@click=app.quit]"
MARKUP = f"{ACTION} [/tmp] [b]x[/b]"  # a click action, a closing tag with no opening one, bold
TITLE = f"{MARKUP} Byte table"
ESCAPE = "\x1b[31m"  # where a format can carry one: output, messages, file names
DRILL = "hostile-drill"
CARD = "hostile-card"
CONCEPT = "hostile-concept"
SUBMISSION = (
    f"print({MARKUP + ESCAPE + ' printed'!r})\n"
    "def bytes_to_unicode():\n"
    f"    raise ValueError({MARKUP + ESCAPE + ' raised'!r})\n"
)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_hostile_content(folder: Path) -> None:
    """A drill, a deck and a concept with markup in every text field, and a broken file named so."""
    q = _quoted
    folder.mkdir(parents=True)
    (folder / "hostile-drill.yaml").write_text(
        f"id: {DRILL}\ntitle: {q(TITLE)}\nsymbols: [bytes_to_unicode]\ntarget_seconds: 480\ndifficulty: easy\n"
        f"tags: [{q(MARKUP)}]\nhidden_tests: [test_bytes_to_unicode.py]\n"
        f"references:\n  - title: {q(TITLE)}\n    venue: {q(MARKUP)}\n    authors: {q(MARKUP)}\n"
        f"    url: {q('https://example.org/' + ACTION)}\n"
        f"prompt: {q(MARKUP + ' prompt [link](javascript:alert) [file](file:///etc/passwd)')}\n"
        "starter: |\n  def bytes_to_unicode() -> dict[int, str]:\n      ...\n"
    )
    (folder / "hostile-concepts.yaml").write_text(
        f"concepts:\n  - id: {CONCEPT}\n    title: {q(MARKUP + ' concept')}\n    lesson: {q(MARKUP + ' lesson')}\n"
    )
    (folder / "hostile-deck.yaml").write_text(
        f"deck: hostile-deck\ntitle: {q(TITLE)}\ndescription: {q(MARKUP)}\ncards:\n"
        f"  - id: {CARD}\n    question: {q(MARKUP + ' question?')}\n    answer: {q(MARKUP + ' answer')}\n"
        f"    follow_ups:\n      - question: {q(MARKUP + ' follow-up?')}\n        answer: {q(MARKUP + ' again')}\n"
        f"    key_points: [{q(MARKUP)}, {q('second ' + ACTION + ' point')}]\n    tags: [{q(MARKUP)}]\n"
        f"    concepts: [{CONCEPT}]\n    references:\n      - {{title: {q(TITLE)}, url: 'https://example.org/x'}}\n"
        f"    see_it: {{text: {q(MARKUP + ' tokens')}, note: {q(MARKUP + ' note')}, encodings: [cl100k_base]}}\n"
    )
    (folder / f"{ACTION} {ESCAPE}.yaml").write_text("id: [unclosed\n")


def write_anki_export(path: Path) -> None:
    """A plain-text Anki export whose fields hold markup and escape sequences."""
    path.write_text(f"#separator:tab\n#html:false\n{MARKUP} {ESCAPE} anki front\t{MARKUP} {ESCAPE} anki back\n")
