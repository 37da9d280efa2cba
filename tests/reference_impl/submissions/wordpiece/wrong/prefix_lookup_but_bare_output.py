# drills: wordpiece-tokenize-word
# mistake: looks continuations up with the prefix but returns them without it
# caught-by: test_playing_splits_into_stem_and_continuation


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                cand = (self.prefix if start else "") + word[start:end]
                if cand in self.vocab:
                    pieces.append(word[start:end])
                    start = end
                    break
            else:
                return [self.unk]
        return pieces
