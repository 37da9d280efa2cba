# drills: bpe-encode
# mistake: marks the first character instead of the last
# caught-by: test_train_learns_the_sennrich_merges_and_ranks, test_train_vocab_is_unk_then_characters_then_marked_characters_then_merges, test_train_splits_the_corpus_on_any_whitespace
from collections import Counter


def count_pairs(word_freqs):
    counts = Counter()
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] += freq
    return counts


def merge_pair(symbols, pair):
    out, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == pair:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return tuple(out)


def learn_merges(word_freqs, num_merges):
    merges = []
    for _ in range(num_merges):
        counts = count_pairs(word_freqs)
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], p))
        word_freqs = {merge_pair(w, best): f for w, f in word_freqs.items()}
        merges.append(best)
    return merges


def apply_merges(symbols, ranks):
    symbols = tuple(symbols)
    while True:
        present = [(ranks[p], p) for p in zip(symbols, symbols[1:]) if p in ranks]
        if not present:
            return symbols
        symbols = merge_pair(symbols, min(present)[1])


class BPETokenizer:
    def __init__(self, end_of_word="</w>", unk_token="<unk>"):
        self.eow, self.unk = end_of_word, unk_token
        self.merges, self.ranks, self.vocab, self.inv_vocab = [], {}, {}, {}

    def _split(self, word):
        return (word[0] + self.eow,) + tuple(word[1:])

    def train(self, corpus, vocab_size):
        words = Counter(corpus.split())
        chars = sorted({c for w in words for c in w})
        alphabet = [self.unk] + chars + [c + self.eow for c in chars]
        freqs = {self._split(w): n for w, n in words.items()}
        self.merges = learn_merges(freqs, max(0, vocab_size - len(alphabet)))
        self.ranks = {p: i for i, p in enumerate(self.merges)}
        self.vocab = {}
        for t in alphabet + [a + b for a, b in self.merges]:
            self.vocab.setdefault(t, len(self.vocab))
        self.inv_vocab = {i: t for t, i in self.vocab.items()}

    def tokenize(self, text):
        return [p for w in text.split() for p in apply_merges(self._split(w), self.ranks)]

    def encode(self, text):
        unk = self.vocab[self.unk]
        return [self.vocab.get(p, unk) for p in self.tokenize(text)]

    def decode(self, ids):
        return "".join(self.inv_vocab[i] for i in ids).replace(self.eow, " ").strip()
