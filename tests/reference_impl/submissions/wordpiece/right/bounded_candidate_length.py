# drills: wordpiece-tokenize-word
# variant: while loops, candidates capped at the longest vocabulary entry, unk decided by a flag


class WordPieceTokenizer:
    def tokenize_word(self, word: str) -> list[str]:
        longest = max((len(t) for t in self.vocab), default=0)
        out: list[str] = []
        i = 0
        while i < len(word):
            j = min(len(word), i + longest)
            found = False
            while j > i:
                piece = word[i:j] if i == 0 else f"{self.prefix}{word[i:j]}"
                if piece in self.vocab:
                    found = True
                    break
                j -= 1
            if not found:
                return [self.unk]
            out.append(piece)
            i = j
        return out
