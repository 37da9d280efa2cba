# drills: wordpiece-train
# variant: scores compared by integer cross-multiplication; merge via the reference merge_pair
from collections import Counter


class WordPieceTokenizer:
    def train(self, corpus: str, vocab_size: int) -> None:
        words = Counter(tuple(w[:1]) + tuple(self.prefix + c for c in w[1:]) for w in corpus.split())
        vocab = [self.unk, *sorted(set().union(*words))] if words else [self.unk]
        while len(vocab) < vocab_size:
            pc, sc = Counter(), Counter()
            for syms, n in words.items():
                sc.update({s: 0 for s in syms})
                for s in syms:
                    sc[s] += n
                for p in zip(syms, syms[1:]):
                    pc[p] += n
            if not pc:
                break
            best = None
            for p, c in pc.items():
                if best is None:
                    best = p
                    continue
                lhs = c * sc[best[0]] * sc[best[1]]
                rhs = pc[best] * sc[p[0]] * sc[p[1]]
                if lhs > rhs or (lhs == rhs and p > best):
                    best = p
            joined = best[0] + best[1][len(self.prefix):]
            words = Counter({
                tuple(joined if s == best[0] + best[1] else s for s in merge_pair(syms, best)): n
                for syms, n in words.items()
            })
            if joined not in vocab:  # a merge that spells an existing token keeps its id
                vocab.append(joined)
        self.vocab = {t: i for i, t in enumerate(vocab)}
        self.inv_vocab = {i: t for i, t in enumerate(vocab)}

    def encode(self, text: str) -> list[int]:
        return list(map(self.vocab.__getitem__, self.tokenize(text)))

    def decode(self, ids: list[int]) -> str:
        toks = [self.inv_vocab[i] for i in ids]
        return "".join(t[len(self.prefix):] if t.startswith(self.prefix) else " " + t for t in toks).lstrip(" ")
