"""Special tokens in untrusted text: tiktoken's ``allowed_special`` / ``disallowed_special`` rules.

A special token such as ``<|endoftext|>`` is a control signal: if the text a user typed could
turn into its id, the user could end a document or fake a chat turn (token injection). tiktoken
therefore refuses, by default, any text that contains the spelling of a special token: every
special token is *disallowed* unless the caller *allows* it. An allowed one in the text becomes
its id; one that is neither allowed nor disallowed is ordinary text, cut into ordinary tokens.
The text between kept specials is encoded piece by piece, so no ordinary token crosses one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Literal


def encode_with_specials(
    text: str,
    encode_ordinary: Callable[[str], list[int]],
    special_tokens: dict[str, int],
    allowed_special: Collection[str] | Literal["all"] = frozenset(),
    disallowed_special: Collection[str] | Literal["all"] = "all",
) -> list[int]:
    """Ids of ``text``: allowed specials become their ids, disallowed ones raise ValueError, and
    the text between kept specials goes through ``encode_ordinary``."""

    def leftmost(tokens: Collection[str], start: int) -> tuple[int, str] | None:
        """Where the first of ``tokens`` occurs at or after ``start``, and which; the longest of a tie."""
        best: tuple[int, str] | None = None
        for token in tokens:
            at = text.find(token, start)
            if at >= 0 and (best is None or at < best[0] or (at == best[0] and len(token) > len(best[1]))):
                best = (at, token)
        return best

    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    disallowed = set(special_tokens) - allowed if disallowed_special == "all" else set(disallowed_special)
    found = leftmost(disallowed, 0)
    if found is not None:
        at, token = found
        raise ValueError(f"disallowed special token {token!r} in the text at character {at}")
    ids: list[int] = []
    start = 0
    while (hit := leftmost(allowed, start)) is not None:
        at, token = hit
        if at > start:
            ids.extend(encode_ordinary(text[start:at]))
        ids.append(special_tokens[token])
        start = at + len(token)
    if start < len(text):
        ids.extend(encode_ordinary(text[start:]))
    return ids
