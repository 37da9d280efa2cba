# drills: special-token-safe-encode
# mistake: the error names the first disallowed token of the table that occurs, not the leftmost in the text
# caught-by: test_the_error_names_the_leftmost_disallowed_token
import re


def encode_with_specials(text, encode_ordinary, special_tokens, allowed_special=frozenset(), disallowed_special="all"):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    disallowed = set(special_tokens) - allowed if disallowed_special == "all" else set(disallowed_special)
    for token in special_tokens:
        if token in disallowed and token in text:
            raise ValueError(f"disallowed special token {token!r}")
    pattern = "|".join(re.escape(t) for t in sorted(allowed, key=len, reverse=True))
    ids = []
    for number, part in enumerate(re.split(f"({pattern})", text) if allowed else [text]):
        if number % 2:
            ids.append(special_tokens[part])
        elif part:
            ids.extend(encode_ordinary(part))
    return ids
