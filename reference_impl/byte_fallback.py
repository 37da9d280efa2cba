"""SentencePiece-style byte fallback: pieces outside the vocabulary become ``<0xNN>`` byte pieces.

A SentencePiece model trained with ``byte_fallback`` has 256 extra pieces, ``<0x00>`` to
``<0xFF>``. A piece that is not in the vocabulary (in practice a rare character) is written as
its UTF-8 bytes instead of ``<unk>``, so nothing is lost. Decoding gathers each run of byte pieces
back into bytes and decodes them as UTF-8; SentencePiece replaces every byte that is not part of
a well-formed character with U+FFFD, one per byte. The meta symbol ``▁`` (U+2581) stands for a
space, and the space SentencePiece adds in front of the text (``add_dummy_prefix``) is dropped.
"""

from __future__ import annotations

import re


def byte_fallback_encode(pieces: list[str], vocab: dict[str, int]) -> list[int]:
    """Ids of ``pieces``; a piece missing from ``vocab`` becomes the ids of its UTF-8 bytes' ``<0xNN>`` pieces."""
    ids: list[int] = []
    for piece in pieces:
        if piece in vocab:
            ids.append(vocab[piece])
        else:
            ids.extend(vocab[f"<0x{byte:02X}>"] for byte in piece.encode("utf-8"))
    return ids


def byte_fallback_decode(ids: list[int], pieces: list[str]) -> str:
    """Text of ``ids`` (``pieces[i]`` is the piece with id i): byte runs decoded together, ``▁`` as a space."""

    def decode_run(data: bytes) -> str:
        # surrogateescape turns each byte that is not part of a well-formed character into its
        # own lone surrogate (U+DC80..U+DCFF); each of those becomes one U+FFFD, as in SentencePiece.
        text = data.decode("utf-8", errors="surrogateescape")
        return "".join("\ufffd" if "\udc80" <= ch <= "\udcff" else ch for ch in text)

    parts: list[str] = []
    run = bytearray()  # the bytes of consecutive byte pieces, decoded together when the run ends
    for position, token_id in enumerate(ids):
        piece = pieces[token_id]
        byte = re.fullmatch(r"<0x([0-9A-F]{2})>", piece)
        if byte:
            run.append(int(byte.group(1), 16))
            continue
        if run:
            parts.append(decode_run(bytes(run)))
            run.clear()
        text = piece.replace("\u2581", " ")  # ▁ is SentencePiece's visible space
        if position == 0 and text.startswith(" "):
            text = text[1:]  # the space SentencePiece put in front of the text
        parts.append(text)
    if run:
        parts.append(decode_run(bytes(run)))
    return "".join(parts)
