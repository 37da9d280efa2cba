# drills: wordpiece-tokenize-word
# mistake: backtracks to a shorter piece when the rest of the word fails (WordPiece never does)
# caught-by: test_greedy_match_is_not_undone_when_the_rest_fails


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        def split(start: int) -> list[str] | None:
            if start == len(word):
                return []
            for end in range(len(word), start, -1):
                cand = (self.prefix if start else "") + word[start:end]
                if cand in self.vocab:
                    rest = split(end)
                    if rest is not None:
                        return [cand] + rest
            return None

        found = split(0)
        return [self.unk] if found is None else found
