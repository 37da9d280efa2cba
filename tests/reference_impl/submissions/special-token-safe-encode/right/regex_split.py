# drills: special-token-safe-encode
# variant: one alternation of the escaped tokens, longest first, searched and split with re
import re


def alternation(tokens):
    return "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))


def encode_with_specials(text, encode_ordinary, special_tokens, allowed_special=frozenset(), disallowed_special="all"):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    if disallowed_special == "all":
        disallowed = set(special_tokens) - allowed
    else:
        disallowed = set(disallowed_special)
    if disallowed:
        found = re.search(alternation(disallowed), text)
        if found:
            raise ValueError(f"disallowed special token {found.group()!r} in the text")
    if not allowed:
        return encode_ordinary(text) if text else []
    ids = []
    for number, part in enumerate(re.split(f"({alternation(allowed)})", text)):
        if number % 2:
            ids.append(special_tokens[part])
        elif part:
            ids.extend(encode_ordinary(part))
    return ids
