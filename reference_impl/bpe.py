"""Word-level byte-pair encoding (Sennrich et al., 2016): training and rank-ordered encoding.

A word is a tuple of symbols. Before any merge each symbol is one character, and the word's
final character carries the end-of-word marker: ``"low"`` -> ``("l", "o", "w</w>")``. Training
repeatedly joins the most frequent adjacent pair (weighted by word frequency); encoding replays
the learned merges, always taking the earliest-learned pair still present.
"""

from __future__ import annotations

from collections import Counter

Pair = tuple[str, str]


def count_pairs(word_freqs: dict[tuple[str, ...], int]) -> Counter[Pair]:
    """Count each adjacent symbol pair, each occurrence weighted by its word's frequency."""
    counts: Counter[Pair] = Counter()
    for word, freq in word_freqs.items():
        for left, right in zip(word, word[1:]):
            counts[left, right] += freq
    return counts


def merge_pair(symbols: tuple[str, ...], pair: Pair) -> tuple[str, ...]:
    """Join each occurrence of ``pair`` into one symbol, scanning left to right.

    Occurrences never overlap (``a a a`` with ``(a, a)`` gives ``aa a``) and only whole,
    adjacent symbols match: ``("ca", "b")`` is left alone by the pair ``("a", "b")``.
    """
    first, second = pair
    merged: list[str] = []
    pos = 0
    last = len(symbols) - 1
    while pos <= last:
        if pos < last and symbols[pos] == first and symbols[pos + 1] == second:
            merged.append(first + second)
            pos += 2
        else:
            merged.append(symbols[pos])
            pos += 1
    return tuple(merged)


def learn_merges(word_freqs: dict[tuple[str, ...], int], num_merges: int) -> list[Pair]:
    """Learn up to ``num_merges`` merges, most frequent pair first.

    Ties go to the larger ``(count, pair)``, i.e. the lexicographically larger pair. Training
    stops early once no word has two symbols left. ``word_freqs`` is not modified.
    """
    words = dict(word_freqs)
    learned: list[Pair] = []
    while len(learned) < num_merges:
        counts = count_pairs(words)
        if not counts:
            break
        _, best = max((count, pair) for pair, count in counts.items())
        learned.append(best)
        rewritten: dict[tuple[str, ...], int] = {}
        for word, freq in words.items():
            new_word = merge_pair(word, best)
            rewritten[new_word] = rewritten.get(new_word, 0) + freq
        words = rewritten
    return learned


def apply_merges(symbols: tuple[str, ...], ranks: dict[Pair, int]) -> tuple[str, ...]:
    """Encode one word: while some adjacent pair has a rank, merge the pair of lowest rank."""
    current = tuple(symbols)
    while len(current) > 1:
        present = [(ranks[a, b], (a, b)) for a, b in zip(current, current[1:]) if (a, b) in ranks]
        if not present:
            break
        current = merge_pair(current, min(present)[1])
    return current


class BPETokenizer:
    """Whitespace-split, word-level BPE with an end-of-word marker on each word's last character.

    After ``train`` the vocabulary holds, in id order: the unknown token, every training character
    bare (sorted), every training character with the marker (sorted), then one symbol per merge in
    the order learned. A merge whose string is already in the vocabulary keeps that string's id and
    adds nothing, so ids stay 0..n-1.
    """

    def __init__(self, end_of_word: str = "</w>", unk_token: str = "<unk>") -> None:
        self.eow = end_of_word
        self.unk = unk_token
        self.merges: list[Pair] = []
        self.ranks: dict[Pair, int] = {}
        self.vocab: dict[str, int] = {}
        self.inv_vocab: dict[int, str] = {}

    def _symbols(self, word: str) -> tuple[str, ...]:
        """``word`` as single characters, the last one carrying the end-of-word marker."""
        return (*word[:-1], word[-1] + self.eow)

    def train(self, corpus: str, vocab_size: int) -> None:
        """Learn ``vocab_size - len(alphabet)`` merges (none if negative) from ``corpus``."""
        word_counts = Counter(corpus.split())
        word_freqs = {self._symbols(word): n for word, n in word_counts.items()}
        chars = sorted({ch for word in word_counts for ch in word})
        alphabet = [self.unk, *chars, *(ch + self.eow for ch in chars)]
        self.merges = learn_merges(word_freqs, max(0, vocab_size - len(alphabet)))
        self.ranks = {pair: rank for rank, pair in enumerate(self.merges)}
        self.vocab = {}
        for token in [*alphabet, *(a + b for a, b in self.merges)]:
            self.vocab.setdefault(token, len(self.vocab))
        self.inv_vocab = {i: token for token, i in self.vocab.items()}

    def tokenize(self, text: str) -> list[str]:
        """Split ``text`` on whitespace and encode each word with the learned merges."""
        pieces: list[str] = []
        for word in text.split():
            pieces.extend(apply_merges(self._symbols(word), self.ranks))
        return pieces

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``; a piece missing from the vocabulary becomes the unknown id."""
        unk_id = self.vocab[self.unk]
        return [self.vocab.get(piece, unk_id) for piece in self.tokenize(text)]

    def decode(self, ids: list[int]) -> str:
        """Join the pieces, turn each end-of-word marker into a space, trim the ends."""
        text = "".join(self.inv_vocab[i] for i in ids)
        return text.replace(self.eow, " ").strip()
