# drills: token-healing
# variant: no explicit trie: the sorted token list is an implicit one (bisect finds the range that starts with the bytes)
import bisect


class TokenHealer:
    def __init__(self, vocab):
        self.by_bytes = dict(vocab)
        self.sorted_tokens = sorted(vocab)
        self.bytes_of = {i: t for t, i in vocab.items()}

    def allowed(self, remaining):
        found = [self.by_bytes[remaining[:k]] for k in range(1, len(remaining)) if remaining[:k] in self.by_bytes]
        lo = bisect.bisect_left(self.sorted_tokens, remaining)
        hi = lo
        while hi < len(self.sorted_tokens) and self.sorted_tokens[hi].startswith(remaining):
            hi += 1
        found.extend(self.by_bytes[t] for t in self.sorted_tokens[lo:hi])
        return sorted(found)

    def heal(self, ids, choose, back=1):
        keep = ids[: max(0, len(ids) - back)]
        todo = b"".join(self.bytes_of[i] for i in ids[len(keep) :])
        picks = []
        while todo:
            candidates = self.allowed(todo)
            pick = choose(candidates)
            if pick not in candidates:
                raise ValueError(f"{pick} is not allowed here")
            picks.append(pick)
            todo = todo[len(self.bytes_of[pick]) :]
        return keep + picks
