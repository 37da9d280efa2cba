# drills: token-healing
# mistake: removes the last ids with ids.pop(), emptying the caller's list
# caught-by: test_arguments_are_not_modified, test_back_zero_returns_a_copy_without_asking_the_model
from collections.abc import Callable


class TokenHealer:
    """A byte trie over a vocabulary (``bytes -> id``, no empty token) that heals prompts."""

    def __init__(self, vocab: dict[bytes, int]) -> None:
        # Node 0 is the root; children[n] maps a byte to the child node, and token[n] is the id
        # of the token spelled by the path from the root to n (None if no token ends there).
        self.children: list[dict[int, int]] = [{}]
        self.token: list[int | None] = [None]
        self.token_bytes = {token_id: token for token, token_id in vocab.items()}
        for token, token_id in vocab.items():
            node = 0
            for byte in token:
                child = self.children[node].get(byte)
                if child is None:
                    child = len(self.children)
                    self.children[node][byte] = child
                    self.children.append({})
                    self.token.append(None)
                node = child
            self.token[node] = token_id

    def allowed(self, remaining: bytes) -> list[int]:
        """Ids, ascending, of the tokens that start with ``remaining`` or are a proper prefix of it."""
        found: list[int] = []
        node = 0
        for depth, byte in enumerate(remaining):
            token_id = self.token[node]
            if depth > 0 and token_id is not None:
                found.append(token_id)  # a token that spells remaining[:depth]
            child = self.children[node].get(byte)
            if child is None:
                return sorted(found)
            node = child
        stack = [node]  # every token below this node starts with `remaining`
        while stack:
            node = stack.pop()
            token_id = self.token[node]
            if token_id is not None:
                found.append(token_id)
            stack.extend(self.children[node].values())
        return sorted(found)

    def heal(self, ids: list[int], choose: Callable[[list[int]], int], back: int = 1) -> list[int]:
        """Remove the last ``back`` ids and let ``choose`` pick tokens that spell their bytes again.

        ``choose(candidates)`` stands for the model: it gets ``allowed(remaining)`` and returns one
        of those ids. Picks continue until the removed bytes are spelled; the last pick may go
        beyond them. Returns a new list: the kept ids, then the picks.
        """
        removed = []
        for _ in range(min(back, len(ids))):
            removed.insert(0, ids.pop())
        healed = ids
        remaining = b"".join(self.token_bytes[i] for i in removed)
        while remaining:
            candidates = self.allowed(remaining)
            pick = choose(candidates)
            if pick not in candidates:
                raise ValueError(f"choose() returned {pick!r}, which is not one of the allowed ids")
            healed.append(pick)
            remaining = remaining[len(self.token_bytes[pick]) :]
        return healed
