# drills: wordpiece-train
# mistake: counts each distinct word's pairs once, ignoring word frequency
# caught-by: test_pair_counts_are_weighted_by_word_frequency

from collections import Counter


class WordPieceTokenizer:
    def train(self, corpus: str, vocab_size: int) -> None:
        words = {}
        for word, freq in Counter(corpus.split()).items():
            words[tuple([word[0]] + [self.prefix + c for c in word[1:]])] = freq
        vocab = [self.unk] + sorted({s for w in words for s in w})
        while len(vocab) < vocab_size:
            sym, pairs = Counter(), Counter()
            for w, f in words.items():
                for s in w:
                    sym[s] += f
                for p in zip(w, w[1:]):
                    pairs[p] += 1
            if not pairs:
                break
            best = max(pairs, key=lambda p: (pairs[p] / (sym[p[0]] * sym[p[1]]), p))
            new = best[0] + best[1][len(self.prefix):]
            merged = {}
            for w, f in words.items():
                out, i = [], 0
                while i < len(w):
                    if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                        out.append(new)
                        i += 2
                    else:
                        out.append(w[i])
                        i += 1
                merged[tuple(out)] = f
            words = merged
            if new not in vocab:
                vocab.append(new)
        self.vocab = {t: i for i, t in enumerate(vocab)}
        self.inv_vocab = {i: t for t, i in self.vocab.items()}

    def encode(self, text: str) -> list[int]:
        return [self.vocab[t] for t in self.tokenize(text)]

    def decode(self, ids: list[int]) -> str:
        words: list[str] = []
        for i in ids:
            tok = self.inv_vocab[i]
            if tok.startswith(self.prefix) and words:
                words[-1] += tok[len(self.prefix):]
            else:
                words.append(tok.removeprefix(self.prefix))
        return " ".join(words)
