# drills: byte-fallback
# mistake: adds missing byte pieces to the caller's vocab
# caught-by: test_encode_does_not_modify_its_arguments
import re


def byte_fallback_encode(pieces: list[str], vocab: dict[str, int]) -> list[int]:
    """Ids of ``pieces``; a piece missing from ``vocab`` becomes the ids of its UTF-8 bytes' ``<0xNN>`` pieces."""
    ids: list[int] = []
    for piece in pieces:
        if piece in vocab:
            ids.append(vocab[piece])
        else:
            ids.extend(vocab.setdefault(f"<0x{byte:02X}>", len(vocab)) for byte in piece.encode("utf-8"))
            vocab[piece] = ids[-1]
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
