# drills: tiktoken-cl100k
# mistake: encodes the whole text as one piece
# caught-by: test_encode_splits_with_the_pattern_first
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
            i = best[1]
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.ranks[p] for p in parts]

    def encode(self, text):
        ids = []
        for piece in [text] if text else []:
            ids.extend(self.encode_piece(piece.encode("utf-8")))
        return ids
