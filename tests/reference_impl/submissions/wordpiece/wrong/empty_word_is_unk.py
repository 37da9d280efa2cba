# drills: wordpiece-tokenize-word
# mistake: the empty word becomes [UNK] instead of no pieces
# caught-by: test_empty_word_gives_no_pieces


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        if not word:
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
