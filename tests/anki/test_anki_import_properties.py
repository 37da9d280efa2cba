"""Whatever a text export holds, importing it gives a deck that loads, or a clear error."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokdrill.anki.convert import convert_notes
from tokdrill.anki.deckfile import DeckText, deck_yaml
from tokdrill.anki.notes import AnkiFileError
from tokdrill.anki.textexport import read_text_export
from tokdrill.content import load_library

_PIECES = st.sampled_from(
    [
        "\t",
        ",",
        ";",
        "|",
        "\n",
        "\r\n",
        '"',
        '""',
        "#",
        "#html:true\n",
        "#separator:tab\n",
        "tags:x\n",
        "<b>",
        "</b>",
        "<br>",
        "&amp;",
        "&#0;",
        "{{c1::",
        "}}",
        "::",
        "<img src='a.png'>",
        "[sound:b.mp3]",
        "_",
        "*",
        "`",
        "\\",
        "1. ",
        "- ",
        "> ",
        "est</w>",
        "\u2581",
        "\u00a0",
        "\x0b",
        "\x1f",
        "word",
        "Q?",
        "A.",
        " ",
        "yes",
        "null",
        "- [",
        ": ",
    ]
)
_TEXT = st.lists(_PIECES | st.text(max_size=4), max_size=60).map("".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT)
def test_any_text_export_imports_to_a_loadable_deck_or_a_clear_error(text: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "export.txt"
        source.write_text(text, encoding="utf-8")
        try:
            notes = read_text_export(source)
        except AnkiFileError as exc:
            assert str(exc).startswith(str(source))
            return
        conversion = convert_notes(notes, "fuzz")
        if not conversion.cards:
            return
        deck_file = Path(scratch) / "fuzz.yaml"
        deck_file.write_text(deck_yaml(DeckText("fuzz", "Fuzz", "", "comment", conversion.cards)), encoding="utf-8")
        library = load_library([deck_file], include_shipped=False, use_cache=False)
        assert library.errors == (), "\n".join(map(str, library.errors)) + "\n" + deck_file.read_text(encoding="utf-8")
        assert len(library.deck("fuzz").cards) == len(conversion.cards)
