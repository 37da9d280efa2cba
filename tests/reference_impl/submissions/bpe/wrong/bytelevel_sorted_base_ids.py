# drills: byte-level-bpe
# mistake: base ids follow the sorted symbols instead of the byte values
# caught-by: test_base_vocabulary_is_exactly_the_256_bytes, test_encode_without_merges_gives_the_utf8_bytes, test_training_on_a_small_corpus
from collections import Counter


class ByteLevelBPE:
    def _symbols(self, chunk):
        return tuple(self.byte_encoder[b] for b in chunk.encode("utf-8"))

    def train(self, corpus, vocab_size):
        freqs = Counter(self._symbols(c) for c in PRETOKENIZE.findall(corpus))  # noqa: F821
        self.merges = learn_merges(dict(freqs), max(0, vocab_size - 256))  # noqa: F821
        self.ranks = {m: i for i, m in enumerate(self.merges)}
        self.vocab = {s: i for i, s in enumerate(sorted(self.byte_encoder.values()))}
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
        return data.decode("utf-8", errors="replace")


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
