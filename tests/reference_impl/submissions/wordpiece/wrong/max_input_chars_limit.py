# drills: wordpiece-tokenize-word
# mistake: copies Hugging Face's 100-character limit (longer words -> [UNK]); the drill has none
# caught-by: test_long_word_has_no_length_limit


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        if len(word) > 100:
            return [self.unk]
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                cand = (self.prefix if start else "") + word[start:end]
                if cand in self.vocab:
                    pieces.append(cand)
                    start = end
                    break
            else:
                return [self.unk]
        return pieces
