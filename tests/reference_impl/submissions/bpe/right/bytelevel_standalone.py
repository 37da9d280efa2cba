# drills: byte-level-bpe
# variant: a standalone class with its own constructor, its own heap-free trainer loop and
# a vocabulary list instead of setdefault


class ByteLevelBPE:
    def __init__(self):
        self.byte_encoder = bytes_to_unicode()  # noqa: F821
        self.byte_decoder = {v: k for k, v in self.byte_encoder.items()}
        self.merges, self.ranks, self.vocab, self.inv_vocab = [], {}, {}, {}

    def _words(self, text):
        return [tuple(map(self.byte_encoder.__getitem__, m.group().encode())) for m in PRETOKENIZE.finditer(text)]  # noqa: F821

    def train(self, corpus, vocab_size):
        freqs = {}
        for w in self._words(corpus):
            freqs[w] = freqs.get(w, 0) + 1
        self.merges = []
        while len(self.merges) < vocab_size - 256:
            counts = {}
            for w, f in freqs.items():
                for p in zip(w, w[1:]):
                    counts[p] = counts.get(p, 0) + f
            if not counts:
                break
            best = max((c, p) for p, c in counts.items())[1]
            self.merges.append(best)
            freqs = {merge_pair(w, best): f for w, f in freqs.items()}  # noqa: F821
        self.ranks = {p: r for r, p in enumerate(self.merges)}
        tokens = [self.byte_encoder[b] for b in range(256)]
        for a, b in self.merges:
            if a + b not in tokens:
                tokens.append(a + b)
        self.vocab = {t: i for i, t in enumerate(tokens)}
        self.inv_vocab = dict(enumerate(tokens))

    def encode(self, text):
        out = []
        for w in self._words(text):
            out.extend(self.vocab[t] for t in apply_merges(w, self.ranks))  # noqa: F821
        return out

    def decode(self, ids):
        raw = bytearray()
        for i in ids:
            raw.extend(self.byte_decoder[c] for c in self.inv_vocab[i])
        return raw.decode("utf-8", "replace")
