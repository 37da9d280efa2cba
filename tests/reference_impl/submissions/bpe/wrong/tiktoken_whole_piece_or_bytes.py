# drills: tiktoken-cl100k
# mistake: looks the whole piece up and otherwise falls back to single bytes
# caught-by: test_lowest_rank_joins_first_not_leftmost, test_lowest_rank_joins_first_not_highest, test_joins_build_on_earlier_joins
import regex


class TiktokenEncoder:
    def encode_piece(self, piece):
        if piece in self.ranks:
            return [self.ranks[piece]]
        parts = [bytes([b]) for b in piece]
        while False:
            best = None
            for i in range(len(parts) - 1):
                r = self.ranks.get(parts[i] + parts[i + 1])
                if r is not None and (best is None or r < best[0]):
                    best = (r, i)
            if best is None:
                break
            i = best[1]
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.ranks[p] for p in parts]

    def encode(self, text):
        ids = []
        for piece in regex.findall(self.pattern, text):
            ids.extend(self.encode_piece(piece.encode("utf-8")))
        return ids
