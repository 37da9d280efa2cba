# drills: special-token-safe-encode
# mistake: encodes the text with the allowed tokens cut out in one call, then puts the ids back,
# so ordinary tokens merge across the place of a special token
# caught-by: test_allowed_tokens_become_their_ids, test_cl100k_matches_tiktoken
import re


def encode_with_specials(text, encode_ordinary, special_tokens, allowed_special=frozenset(), disallowed_special="all"):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    disallowed = set(special_tokens) - allowed if disallowed_special == "all" else set(disallowed_special)
    if disallowed:
        found = re.search("|".join(re.escape(t) for t in sorted(disallowed, key=len, reverse=True)), text)
        if found:
            raise ValueError(f"disallowed special token {found.group()!r}")
    if not allowed:
        return encode_ordinary(text) if text else []
    pattern = "|".join(re.escape(t) for t in sorted(allowed, key=len, reverse=True))
    parts = re.split(f"({pattern})", text)
    plain = "".join(parts[0::2])
    specials = [special_tokens[t] for t in parts[1::2]]
    return (encode_ordinary(plain) if plain else []) + specials
