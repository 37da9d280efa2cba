# drills: wordpiece-tokenize-word
# mistake: writes "##" and "[UNK]" literally instead of using self.prefix and self.unk
# caught-by: test_custom_prefix_and_unk_token, test_default_prefix_is_ignored_when_a_custom_one_is_set


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        pieces, start = [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                cand = ("##" if start else "") + word[start:end]
                if cand in self.vocab:
                    pieces.append(cand)
                    start = end
                    break
            else:
                return ["[UNK]"]
        return pieces
