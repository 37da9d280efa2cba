# drills: wordpiece-tokenize-word
# mistake: takes the shortest vocabulary match at each position instead of the longest
# caught-by: test_longest_match_wins_over_a_shorter_prefix, test_longest_match_also_applies_to_continuation_pieces


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        pieces, start = [], 0
        while start < len(word):
            for end in range(start + 1, len(word) + 1):
                cand = (self.prefix if start else "") + word[start:end]
                if cand in self.vocab:
                    pieces.append(cand)
                    start = end
                    break
            else:
                return [self.unk]
        return pieces
