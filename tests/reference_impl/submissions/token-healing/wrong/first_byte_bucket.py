# drills: token-healing
# mistake: buckets tokens by their first byte and allows every token of the bucket
# caught-by: test_allowed_excludes_tokens_that_share_only_a_first_byte
class TokenHealer:
    def __init__(self, vocab):
        self.buckets = {}
        self.token_bytes = {}
        for token, token_id in vocab.items():
            self.buckets.setdefault(token[0], []).append(token_id)
            self.token_bytes[token_id] = token

    def allowed(self, remaining):
        return sorted(self.buckets.get(remaining[0], []))

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
