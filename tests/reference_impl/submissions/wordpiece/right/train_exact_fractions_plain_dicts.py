# drills: wordpiece-train
# variant: plain dicts, fractions.Fraction scores, words kept as lists, a set of known tokens, decode by string building
from fractions import Fraction


class WordPieceTokenizer:
    def train(self, corpus: str, vocab_size: int) -> None:
        freq: dict[str, int] = {}
        for w in corpus.split():
            freq[w] = freq.get(w, 0) + 1
        segs = [([w[0]] + [self.prefix + ch for ch in w[1:]], n) for w, n in freq.items()]
        tokens = [self.unk] + sorted({s for seg, _ in segs for s in seg})
        known = set(tokens)
        while len(tokens) < vocab_size:
            single: dict[str, int] = {}
            double: dict[tuple[str, str], int] = {}
            for seg, n in segs:
                for k, s in enumerate(seg):
                    single[s] = single.get(s, 0) + n
                    if k + 1 < len(seg):
                        double[(s, seg[k + 1])] = double.get((s, seg[k + 1]), 0) + n
            if not double:
                break
            best_key, best = None, None
            for pair, c in double.items():
                key = (Fraction(c, single[pair[0]] * single[pair[1]]), pair)
                if best_key is None or key > best_key:
                    best_key, best = key, pair
            a, b = best
            new = a + b[len(self.prefix):]
            for seg, _ in segs:
                k = 0
                while k < len(seg) - 1:
                    if seg[k] == a and seg[k + 1] == b:
                        seg[k:k + 2] = [new]
                    k += 1
            if new not in known:
                known.add(new)
                tokens.append(new)
        self.vocab = dict(zip(tokens, range(len(tokens))))
        self.inv_vocab = dict(enumerate(tokens))

    def encode(self, text: str) -> list[int]:
        ids = []
        for word in text.split():
            ids.extend(self.vocab[p] for p in self.tokenize_word(word))
        return ids

    def decode(self, ids: list[int]) -> str:
        text = ""
        for i in ids:
            tok = self.inv_vocab[i]
            if tok.startswith(self.prefix):
                text += tok[len(self.prefix):]
            elif text:
                text += " " + tok
            else:
                text = tok
        return text
