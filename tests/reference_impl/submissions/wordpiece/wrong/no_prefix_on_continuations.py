# drills: wordpiece-tokenize-word
# mistake: looks continuation pieces up without the prefix
# caught-by: test_continuation_pieces_must_carry_the_prefix, test_playing_splits_into_stem_and_continuation


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                if word[start:end] in self.vocab:
                    pieces.append(word[start:end])
                    start = end
                    break
            else:
                return [self.unk]
        return pieces
