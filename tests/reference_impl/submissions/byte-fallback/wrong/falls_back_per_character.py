# drills: byte-fallback
# mistake: a missing piece falls back character by character, keeping the characters that are
# pieces of their own, instead of falling back to bytes as a whole
# caught-by: test_a_missing_piece_of_several_characters_falls_back_as_a_whole
import re


def byte_fallback_encode(pieces: list[str], vocab: dict[str, int]) -> list[int]:
    """Ids of ``pieces``; a piece missing from ``vocab`` is looked up character by character."""
    ids: list[int] = []
    for piece in pieces:
        if piece in vocab:
            ids.append(vocab[piece])
            continue
        for char in piece:
            if char in vocab:
                ids.append(vocab[char])
            else:
                ids.extend(vocab[f"<0x{byte:02X}>"] for byte in char.encode("utf-8"))
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
