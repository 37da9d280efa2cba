# drills: wordpiece-tokenize-word
# mistake: matches the longest suffix first, working from the right end of the word
# caught-by: test_matching_starts_at_the_left_end_of_the_word


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        pieces, end = [], len(word)
        while end > 0:
            for start in range(0, end):
                cand = (self.prefix if start else "") + word[start:end]
                if cand in self.vocab:
                    pieces.insert(0, cand)
                    end = start
                    break
            else:
                return [self.unk]
        return pieces
