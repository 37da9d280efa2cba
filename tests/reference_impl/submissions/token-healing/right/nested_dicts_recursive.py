# drills: token-healing
# variant: a trie of nested dicts with the id under the key None; the subtree is collected recursively
import sys

sys.setrecursionlimit(10000)


class TokenHealer:
    def __init__(self, vocab):
        self.root = {}
        self.spelling = {}
        for token, token_id in vocab.items():
            node = self.root
            for b in token:
                node = node.setdefault(b, {})
            node[None] = token_id
            self.spelling[token_id] = token

    def _collect(self, node, out):
        for key, child in node.items():
            if key is None:
                out.append(child)
            else:
                self._collect(child, out)

    def allowed(self, remaining):
        out = []
        node = self.root
        for i, b in enumerate(remaining):
            if i and None in node:
                out.append(node[None])
            if b not in node:
                return sorted(out)
            node = node[b]
        self._collect(node, out)
        return sorted(out)

    def heal(self, ids, choose, back=1):
        cut = len(ids) - min(back, len(ids))
        result = ids[:cut]
        left = b"".join(self.spelling[i] for i in ids[cut:])
        while left:
            options = self.allowed(left)
            pick = choose(options)
            if pick not in set(options):
                raise ValueError("the model picked a token that does not fit")
            result.append(pick)
            spelled = self.spelling[pick]
            left = left[len(spelled) :] if len(spelled) < len(left) else b""
        return result
