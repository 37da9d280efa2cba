# drills: special-token-safe-encode
# mistake: never refuses: a special token that is not allowed is silently encoded as plain text
# caught-by: test_by_default_any_special_token_in_the_text_raises, test_the_error_names_the_leftmost_disallowed_token
import re


def encode_with_specials(text, encode_ordinary, special_tokens, allowed_special=frozenset(), disallowed_special="all"):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    if not allowed:
        return encode_ordinary(text) if text else []
    pattern = "|".join(re.escape(t) for t in sorted(allowed, key=len, reverse=True))
    ids = []
    for number, part in enumerate(re.split(f"({pattern})", text)):
        if number % 2:
            ids.append(special_tokens[part])
        elif part:
            ids.extend(encode_ordinary(part))
    return ids
