"""Byte-level BPE in the style of GPT-2: BPE over UTF-8 bytes, so every string can be encoded.

Each byte is shown as one printable character (GPT-2's byte-to-unicode table) so merges stay
readable text. A regex pre-tokenizer cuts the text into chunks first, and no merge ever spans
two chunks.
"""

from __future__ import annotations

import re
from collections import Counter

from reference_impl.bpe import Pair, apply_merges, learn_merges


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's bijection from the 256 byte values to printable characters.

    Bytes in the kept ranges map to the character with the same code point; every other byte,
    taken in increasing order, maps to the next unused code point from 256 upward (so space,
    0x20, becomes 'Ġ' = U+0120 and newline, 0x0A, becomes 'Ċ' = U+010A).
    """
    # printable ASCII '!'..'~' and the printable Latin-1 runs '¡'..'¬' and '®'..'ÿ' (inclusive)
    kept = {b for low, high in ((0x21, 0x7E), (0xA1, 0xAC), (0xAE, 0xFF)) for b in range(low, high + 1)}
    table: dict[int, str] = {}
    shifted = 0
    for byte in range(256):
        if byte in kept:
            table[byte] = chr(byte)
        else:
            table[byte] = chr(256 + shifted)
            shifted += 1
    return table


# GPT-2's split, with ASCII classes in place of \p{L} / \p{N} so the stdlib `re` can run it:
# common English contractions, an optional space then letters, an optional space then digits,
# an optional space then other symbols, whitespace not followed by a non-space, other whitespace.
PRETOKENIZE = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+")


class ByteLevelBPE:
    """Byte-level BPE: ``PRETOKENIZE`` chunks, UTF-8 bytes shown via ``bytes_to_unicode``.

    The base vocabulary is exactly the 256 byte symbols (id = byte value); merged symbols follow
    in the order learned (under the same rule as word-level BPE: a string already in the
    vocabulary keeps its id). Nothing is ever unknown, so there is no unknown token.
    """

    def __init__(self) -> None:
        self.byte_encoder = bytes_to_unicode()
        self.byte_decoder = {ch: byte for byte, ch in self.byte_encoder.items()}
        self.merges: list[Pair] = []
        self.ranks: dict[Pair, int] = {}
        self.vocab: dict[str, int] = {}
        self.inv_vocab: dict[int, str] = {}

    def _chunks(self, text: str) -> list[tuple[str, ...]]:
        """Pre-tokenize ``text`` and spell each chunk as its byte symbols."""
        encoder = self.byte_encoder
        return [tuple(encoder[b] for b in chunk.encode("utf-8")) for chunk in PRETOKENIZE.findall(text)]

    def train(self, corpus: str, vocab_size: int) -> None:
        """Learn ``vocab_size - 256`` merges (none if negative) over the chunks of ``corpus``."""
        chunk_freqs = dict(Counter(self._chunks(corpus)))
        self.merges = learn_merges(chunk_freqs, max(0, vocab_size - 256))
        self.ranks = {pair: rank for rank, pair in enumerate(self.merges)}
        self.vocab = {self.byte_encoder[b]: b for b in range(256)}
        for a, b in self.merges:
            self.vocab.setdefault(a + b, len(self.vocab))
        self.inv_vocab = {i: token for token, i in self.vocab.items()}

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``: each chunk is encoded on its own with the learned merges."""
        ids: list[int] = []
        for chunk in self._chunks(text):
            ids.extend(self.vocab[token] for token in apply_merges(chunk, self.ranks))
        return ids

    def decode(self, ids: list[int]) -> str:
        """Map ids back to bytes and decode them as UTF-8 (invalid sequences become U+FFFD)."""
        symbols = "".join(self.inv_vocab[i] for i in ids)
        return bytes(self.byte_decoder[ch] for ch in symbols).decode("utf-8", errors="replace")
