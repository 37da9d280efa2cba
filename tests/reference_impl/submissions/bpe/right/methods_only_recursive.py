# drills: bpe-encode
# variant: recursive apply_merges; a class holding only train and tokenize
# (constructor and encode/decode come from the reference), learn_merges from the reference


def apply_merges(symbols, ranks):
    pairs = [(ranks[(a, b)], (a, b)) for a, b in zip(symbols, symbols[1:]) if (a, b) in ranks]
    if not pairs:
        return tuple(symbols)
    return apply_merges(merge_pair(tuple(symbols), min(pairs)[1]), ranks)  # noqa: F821


class BPETokenizer:
    def train(self, corpus, vocab_size):
        freq = {}
        for w in corpus.split():
            freq[w] = freq.get(w, 0) + 1
        letters = sorted({ch for w in freq for ch in w})
        alphabet = [self.unk] + letters + [ch + self.eow for ch in letters]
        self.merges = learn_merges(  # noqa: F821
            {(*w[:-1], w[-1] + self.eow): n for w, n in freq.items()}, max(0, vocab_size - len(alphabet))
        )
        self.ranks = {m: r for r, m in enumerate(self.merges)}
        self.vocab = {}
        for tok in alphabet + ["".join(m) for m in self.merges]:
            if tok not in self.vocab:
                self.vocab[tok] = len(self.vocab)
        self.inv_vocab = {v: k for k, v in self.vocab.items()}

    def tokenize(self, text):
        out = []
        for w in text.split():
            out.extend(apply_merges((*w[:-1], w[-1] + self.eow), self.ranks))
        return out
