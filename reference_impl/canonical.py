"""Canonical tokenizations: the one token sequence the encoder itself would produce for a text.

Many token sequences spell the same text: ``"hello"`` is one cl100k_base token, but ``"hel"`` +
``"lo"`` decodes to the same bytes. Only the encoder's own output is *canonical*; a model trained
on canonical sequences assigns the others little probability, yet sampling, constrained decoding
or a prompt cut at the wrong place can produce them. Checking a sequence is simple and exact:
decode its bytes, re-encode the text, compare. The check must pre-tokenize as the encoder does,
since a token that spans two of the encoder's pieces is never canonical.
"""

from __future__ import annotations

from reference_impl.tiktoken_ranks import TiktokenEncoder


class CanonicalChecker(TiktokenEncoder):
    """A tiktoken-style encoder that also tells whether a token sequence is its own output."""

    def canonical_ids(self, ids: list[int]) -> list[int]:
        """The canonical encoding of the text that ``ids`` spell (ValueError if they spell none)."""
        try:
            data = self.decode_bytes(ids)
        except KeyError as missing:
            raise ValueError(f"id {missing.args[0]!r} is not in the vocabulary") from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise ValueError(f"the tokens' bytes are no UTF-8 at byte {bad.start}: no text encodes to them") from None
        return self.encode(text)

    def first_non_canonical(self, ids: list[int]) -> int | None:
        """Index of the first token where ``ids`` leaves its canonical encoding; None if it is canonical."""
        canonical = self.canonical_ids(ids)
        for at, (given, wanted) in enumerate(zip(ids, canonical, strict=False)):
            if given != wanted:
                return at
        return None
