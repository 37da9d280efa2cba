"""The end of a prompt before and after one more character: where token healing starts.

A tokenizer picks a prompt's last token without knowing what comes next, so the text
``"http:"`` ends in a token the model rarely saw before ``//``. Comparing the tokens of the text
with and without its last character shows which trailing tokens change.
"""

from __future__ import annotations

from dataclasses import dataclass

from tokdrill.playground.encoders import Encoder
from tokdrill.playground.tokens import Token


@dataclass(frozen=True, slots=True)
class Boundary:
    """The tokens after the part both texts share: ``before`` without the last character,
    ``after`` with it; ``shared`` tokens at the start are the same in both."""

    added: str
    shared: int
    before: tuple[Token, ...]
    after: tuple[Token, ...]

    @property
    def retokenized(self) -> bool:
        """True when adding the character changed a token already there (not only appended one)."""
        return bool(self.before)


def boundary(encoder: Encoder, text: str) -> Boundary | None:
    """How the tokens at the end of ``text`` change when its last character is added (None for
    an empty text)."""
    if not text:
        return None
    without = encoder.tokenize(text[:-1]).tokens
    with_last = encoder.tokenize(text).tokens
    shared = 0
    for a, b in zip(without, with_last):
        if a.id != b.id:
            break
        shared += 1
    return Boundary(text[-1], shared, without[shared:], with_last[shared:])
