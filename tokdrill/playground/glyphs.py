"""Invisible characters as visible glyphs, so a token's exact text can be seen and compared."""

from __future__ import annotations

import unicodedata

# Whitespace and markers a tokenizer treats as text of its own, drawn as one visible glyph each.
GLYPHS: dict[str, str] = {
    " ": "·",
    "\n": "↵",
    "\r": "␍",
    "\t": "→",
    "\u00a0": "⍽",  # no-break space
    "\u200b": "⟨ZWSP⟩",
    "\u200c": "⟨ZWNJ⟩",
    "\u200d": "⟨ZWJ⟩",
    "\u2060": "⟨WJ⟩",
    "\ufeff": "⟨BOM⟩",
}


def visible(text: str) -> str:
    """``text`` with spaces, line breaks, tabs, zero-width and other unprintable characters shown.

    Characters of the categories Cc, Cf, Zl and Zp without a glyph of their own are written as
    ``⟨U+XXXX⟩``; SentencePiece's ``▁`` and byte-level BPE's ``Ġ``/``Ċ`` are printable and stay as
    they are (a marker is part of the token, not whitespace).
    """
    out: list[str] = []
    for ch in text:
        glyph = GLYPHS.get(ch)
        if glyph is not None:
            out.append(glyph)
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            out.append(f"⟨U+{ord(ch):04X}⟩")
        else:
            out.append(ch)
    return "".join(out)


def visible_bytes(data: bytes) -> str:
    """A token's bytes as visible text, or as ``‹E2 80›`` hex where they are not whole UTF-8."""
    try:
        return visible(data.decode("utf-8"))
    except UnicodeDecodeError:
        return "‹" + " ".join(f"{b:02X}" for b in data) + "›"
