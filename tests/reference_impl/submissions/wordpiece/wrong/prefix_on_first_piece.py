# drills: wordpiece-tokenize-word
# mistake: looks every piece up with the continuation prefix, the first one included
# caught-by: test_first_piece_is_looked_up_without_the_prefix, test_playing_splits_into_stem_and_continuation


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                cand = self.prefix + word[start:end]
                if cand in self.vocab:
                    pieces.append(cand)
                    start = end
                    break
            else:
                return [self.unk]
        return pieces
