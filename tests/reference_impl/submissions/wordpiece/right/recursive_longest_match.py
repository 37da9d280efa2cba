# drills: wordpiece-tokenize-word
# variant: recursion over the rest of the word, longest candidate found with next() over lengths


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        def pieces_from(start: int) -> list[str] | None:
            if start == len(word):
                return []
            mark = self.prefix if start > 0 else ""
            end = next((e for e in range(len(word), start, -1) if mark + word[start:e] in self.vocab), None)
            if end is None:
                return None
            rest = pieces_from(end)
            return None if rest is None else [mark + word[start:end]] + rest

        found = pieces_from(0)
        return [self.unk] if found is None else found
