# drills: wordpiece-tokenize-word
# mistake: keeps the pieces found so far and appends [UNK] instead of replacing the whole word
# caught-by: test_unknown_character_makes_the_whole_word_unk, test_greedy_match_is_not_undone_when_the_rest_fails


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                cand = (self.prefix if start else "") + word[start:end]
                if cand in self.vocab:
                    pieces.append(cand)
                    start = end
                    break
            else:
                return pieces + [self.unk]
        return pieces
