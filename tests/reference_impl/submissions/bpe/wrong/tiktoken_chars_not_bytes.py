# drills: tiktoken-cl100k
# mistake: starts from characters' UTF-8 bytes grouped per character, never splitting a multi-byte character
# caught-by: test_cl100k_round_trip, test_decode_replaces_a_split_character
import regex


class TiktokenEncoder:
    def encode_piece(self, piece):
        parts = [ch.encode('utf-8') for ch in piece.decode('utf-8', 'surrogateescape')]
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
        for piece in regex.findall(self.pattern, text):
            ids.extend(self.encode_piece(piece.encode("utf-8")))
        return ids
