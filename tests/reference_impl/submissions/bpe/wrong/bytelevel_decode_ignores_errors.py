# drills: byte-level-bpe
# mistake: decode drops invalid UTF-8 instead of replacing it
# caught-by: test_decode_replaces_invalid_utf8
from collections import Counter


class ByteLevelBPE:
    def _symbols(self, chunk):
        return tuple(self.byte_encoder[b] for b in chunk.encode("utf-8"))

    def train(self, corpus, vocab_size):
        freqs = Counter(self._symbols(c) for c in PRETOKENIZE.findall(corpus))  # noqa: F821
        self.merges = learn_merges(dict(freqs), max(0, vocab_size - 256))  # noqa: F821
        self.ranks = {m: i for i, m in enumerate(self.merges)}
        self.vocab = {self.byte_encoder[b]: b for b in range(256)}
        for a, b in self.merges:
            self.vocab.setdefault(a + b, len(self.vocab))
        self.inv_vocab = {i: t for t, i in self.vocab.items()}

    def encode(self, text):
        ids = []
        for chunk in PRETOKENIZE.findall(text):  # noqa: F821
            ids += [self.vocab[t] for t in apply_merges(self._symbols(chunk), self.ranks)]  # noqa: F821
        return ids

    def decode(self, ids):
        data = bytes(self.byte_decoder[c] for c in "".join(self.inv_vocab[i] for i in ids))
        return data.decode("utf-8", errors="ignore")


def _learn(freqs, n):
    merges = []
    for _ in range(n):
        counts = count_pairs(freqs)  # noqa: F821
        if not counts:
            break
        best = min(counts, key=lambda p: (-counts[p], p))
        merges.append(best)
        freqs = {merge_pair(w, best): f for w, f in freqs.items()}  # noqa: F821
    return merges
