"""A text split into tokens by one encoder, and the figures the playground shows for it."""

from __future__ import annotations

from dataclasses import dataclass

# Text larger than this is refused with a message rather than tokenized (it would take seconds).
MAX_TEXT_BYTES = 2_000_000


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its id, its text as shown (invisible characters made visible), whether special."""

    id: int
    text: str
    special: bool = False


@dataclass(frozen=True, slots=True)
class Tokenized:
    """The tokens one encoder gives for a text, with the text's own size."""

    encoding: str
    tokens: tuple[Token, ...]
    characters: int
    utf8_bytes: int


@dataclass(frozen=True, slots=True)
class Figures:
    """What the playground and `tokdrill tokenize` print beside a token list."""

    tokens: int
    characters: int
    utf8_bytes: int
    bytes_per_token: float | None
    cost: float | None  # in the currency of the price set, for this text; None without a price


def figures(tokenized: Tokenized, price_per_million: float | None) -> Figures:
    """Counts, bytes per token and cost: the one place these numbers are computed."""
    count = len(tokenized.tokens)
    return Figures(
        tokens=count,
        characters=tokenized.characters,
        utf8_bytes=tokenized.utf8_bytes,
        bytes_per_token=tokenized.utf8_bytes / count if count else None,
        cost=None if price_per_million is None else count * price_per_million / 1_000_000,
    )


class TextRefused(ValueError):
    """Input the playground will not tokenize, with a message that says why."""


def text_from_bytes(data: bytes, source: str) -> str:
    """Decode pasted or piped input, refusing what is not text or is too large to show."""
    if len(data) > MAX_TEXT_BYTES:
        raise TextRefused(
            f"{source}: {len(data) / 1_000_000:.1f} MB is more than the playground takes "
            f"({MAX_TEXT_BYTES // 1_000_000} MB); tokenize a part of it"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextRefused(
            f"{source}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "the playground tokenizes text, not binary files"
        ) from None
    return check_text(text, source)


def check_text(text: str, source: str) -> str:
    """``text`` itself, unless it is binary (holds NUL characters) or too large."""
    if "\x00" in text:
        raise TextRefused(f"{source}: holds NUL characters, so it is binary data, not text")
    if len(text) > MAX_TEXT_BYTES:
        raise TextRefused(
            f"{source}: {len(text):,} characters is more than the playground takes "
            f"({MAX_TEXT_BYTES:,}); tokenize a part of it"
        )
    return text
