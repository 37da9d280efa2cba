# drills: wordpiece-tokenize-word
# mistake: the inner loop stops before single-character candidates (range end off by one)
# caught-by: test_single_character_word, test_first_piece_is_looked_up_without_the_prefix


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start + 1, -1):
                cand = (self.prefix if start else "") + word[start:end]
                if cand in self.vocab:
                    pieces.append(cand)
                    start = end
                    break
            else:
                return [self.unk]
        return pieces
