# drills: token-healing
# mistake: right answers, but allowed() scans every token of the vocabulary instead of walking a trie
# caught-by: test_allowed_answers_from_the_trie_not_a_scan
class TokenHealer:
    def __init__(self, vocab):
        self.vocab = dict(vocab)
        self.token_bytes = {i: t for t, i in vocab.items()}

    def allowed(self, remaining):
        return sorted(
            i for t, i in self.vocab.items() if t.startswith(remaining) or (len(t) < len(remaining) and remaining.startswith(t))
        )

    def heal(self, ids, choose, back=1):
        keep = max(len(ids) - back, 0)
        out = list(ids[:keep])
        left = b"".join(self.token_bytes[i] for i in ids[keep:])
        while left:
            options = self.allowed(left)
            pick = choose(options)
            if pick not in options:
                raise ValueError("not allowed")
            out.append(pick)
            left = left[len(self.token_bytes[pick]) :]
        return out
