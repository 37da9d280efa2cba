# drills: tiktoken-cl100k
# mistake: joins every occurrence of the best pair in one step (merge_pair style)
# caught-by: test_joins_happen_one_at_a_time
import regex


class TiktokenEncoder:
    def encode_piece(self, piece):
        parts = [bytes([b]) for b in piece]
        while True:
            best = None
            for i in range(len(parts) - 1):
                r = self.ranks.get(parts[i] + parts[i + 1])
                if r is not None and (best is None or r < best[0]):
                    best = (r, i)
            if best is None:
                break
            target = (parts[best[1]], parts[best[1] + 1])
            out, j = [], 0
            while j < len(parts):
                if j + 1 < len(parts) and (parts[j], parts[j + 1]) == target:
                    out.append(parts[j] + parts[j + 1])
                    j += 2
                else:
                    out.append(parts[j])
                    j += 1
            parts = out
        return [self.ranks[p] for p in parts]

    def encode(self, text):
        ids = []
        for piece in regex.findall(self.pattern, text):
            ids.extend(self.encode_piece(piece.encode("utf-8")))
        return ids
