# drills: canonical-tokenization
# variant: its own id -> bytes table and its own rank BPE over the regex pieces, no reference helpers
import regex


class CanonicalChecker:
    def _bytes(self, ids):
        if "_by_id" not in self.__dict__:
            self._by_id = {rank: token for token, rank in self.ranks.items()}
        table = self._by_id
        if any(i not in table for i in ids):
            raise ValueError("an id is not in the vocabulary")
        return b"".join(table[i] for i in ids)

    def _piece(self, piece):
        parts = [bytes([b]) for b in piece]
        while True:
            ranked = [(self.ranks.get(parts[i] + parts[i + 1]), i) for i in range(len(parts) - 1)]
            ranked = [(r, i) for r, i in ranked if r is not None]
            if not ranked:
                return [self.ranks[p] for p in parts]
            _, i = min(ranked)
            parts[i : i + 2] = [parts[i] + parts[i + 1]]

    def canonical_ids(self, ids):
        text = self._bytes(ids).decode("utf-8")  # UnicodeDecodeError is a ValueError
        return [i for piece in regex.findall(self.pattern, text) for i in self._piece(piece.encode("utf-8"))]

    def first_non_canonical(self, ids):
        canonical = self.canonical_ids(ids)
        for i, token in enumerate(ids):
            if token != canonical[i]:
                return i
        return None
