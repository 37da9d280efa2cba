# drills: wordpiece-tokenize-word
# mistake: an unmatched character becomes one [UNK] piece and the rest of the word goes on
# caught-by: test_unknown_character_makes_the_whole_word_unk, test_unknown_first_character_makes_the_whole_word_unk


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
                pieces.append(self.unk)
                start += 1
        return pieces
