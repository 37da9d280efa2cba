"""WordPiece: merges chosen by a likelihood score in training, greedy longest match in encoding.

Training starts from single characters, where every character after a word's first one carries
the continuation prefix (``"##"`` by default): ``"hug"`` -> ``("h", "##u", "##g")``. Each step
merges the adjacent pair with the highest score count(ab) / (count(a) * count(b)), counts weighted
by word frequency, ties going to the larger pair. Encoding ignores the merge history: it takes the
longest vocabulary entry at the current position, left to right, and turns the whole word into the
unknown token as soon as some position has no match.
"""

from __future__ import annotations

from collections import Counter


class WordPieceTokenizer:
    """WordPiece vocabulary learner and encoder.

    ``vocab`` maps token -> id and ``inv_vocab`` id -> token; both are plain dicts that callers may
    set directly. ``unk`` is the unknown token, ``prefix`` the continuation marker.
    """

    def __init__(self, unk_token: str = "[UNK]", prefix: str = "##") -> None:
        self.unk = unk_token
        self.prefix = prefix
        self.vocab: dict[str, int] = {}
        self.inv_vocab: dict[int, str] = {}

    def train(self, corpus: str, vocab_size: int) -> None:
        """Learn a vocabulary of ``vocab_size`` tokens from whitespace-split ``corpus``.

        The starting vocabulary is the unknown token followed by the sorted set of initial
        symbols; it is kept whole even if it is larger than ``vocab_size``. Merging stops early
        when no adjacent pair is left. Ids follow insertion order; a merge whose token is already
        in the vocabulary keeps that token's id and adds nothing, so ids stay 0..n-1.
        """
        words: dict[tuple[str, ...], int] = {}
        for word, freq in Counter(corpus.split()).items():
            # "hug" -> ("h", "##u", "##g"): only the first character stands bare
            words[tuple(ch if pos == 0 else self.prefix + ch for pos, ch in enumerate(word))] = freq
        vocab: dict[str, int] = {}
        for token in [self.unk, *sorted({s for symbols in words for s in symbols})]:
            vocab.setdefault(token, len(vocab))
        while len(vocab) < vocab_size:
            symbol_freq: Counter[str] = Counter()
            pair_freq: Counter[tuple[str, str]] = Counter()
            for symbols, freq in words.items():
                for s in symbols:
                    symbol_freq[s] += freq
                for pair in zip(symbols, symbols[1:]):
                    pair_freq[pair] += freq
            if not pair_freq:
                break

            # One division of exact integer counts: equal ratios give equal floats, so ties are real.
            left, right = max(
                pair_freq,
                key=lambda p: (pair_freq[p] / (symbol_freq[p[0]] * symbol_freq[p[1]]), p),
            )
            joined = left + right.removeprefix(self.prefix)  # "##u" + "##g" -> "##ug"
            merged: dict[tuple[str, ...], int] = {}
            for symbols, freq in words.items():
                out: list[str] = []
                i = 0
                while i < len(symbols):  # left to right, occurrences never overlap
                    if i + 1 < len(symbols) and symbols[i] == left and symbols[i + 1] == right:
                        out.append(joined)
                        i += 2
                    else:
                        out.append(symbols[i])
                        i += 1
                merged[tuple(out)] = freq
            words = merged
            vocab.setdefault(joined, len(vocab))
        self.vocab = vocab
        self.inv_vocab = {index: token for token, index in vocab.items()}

    def tokenize_word(self, word: str) -> list[str]:
        """Split one word greedily, longest vocabulary match first, from the left.

        Pieces after the first are looked up with the continuation prefix. If some position has
        no match, the result is ``[unk]`` for the whole word; an empty word gives ``[]``.
        """
        pieces: list[str] = []
        start = 0
        while start < len(word):
            marker = self.prefix if start else ""
            for stop in range(len(word), start, -1):
                candidate = marker + word[start:stop]
                if candidate in self.vocab:
                    pieces.append(candidate)
                    start = stop
                    break
            else:
                return [self.unk]
        return pieces

    def tokenize(self, text: str) -> list[str]:
        """Tokens of every whitespace-separated word of ``text``, in order."""
        return [piece for word in text.split() for piece in self.tokenize_word(word)]

    def encode(self, text: str) -> list[int]:
        """Ids of :meth:`tokenize`'s tokens."""
        return [self.vocab[token] for token in self.tokenize(text)]

    def decode(self, ids: list[int]) -> str:
        """Text from ids: continuations glue onto the previous token, other tokens start a word."""
        text = ""
        for index in ids:
            token = self.inv_vocab[index]
            if token.startswith(self.prefix):
                text += token[len(self.prefix) :]
            else:
                text += (" " if text else "") + token
        return text
