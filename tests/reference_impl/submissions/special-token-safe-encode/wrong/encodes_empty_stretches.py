# drills: special-token-safe-encode
# mistake: calls encode_ordinary on every stretch, empty ones too
# caught-by: test_no_call_for_an_empty_stretch
import re


def encode_with_specials(text, encode_ordinary, special_tokens, allowed_special=frozenset(), disallowed_special="all"):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    disallowed = set(special_tokens) - allowed if disallowed_special == "all" else set(disallowed_special)
    if disallowed:
        found = re.search("|".join(re.escape(t) for t in sorted(disallowed, key=len, reverse=True)), text)
        if found:
            raise ValueError(f"disallowed special token {found.group()!r}")
    if not allowed:
        return encode_ordinary(text)
    ids = []
    pattern = "|".join(re.escape(t) for t in sorted(allowed, key=len, reverse=True))
    for number, part in enumerate(re.split(f"({pattern})", text)):
        if number % 2:
            ids.append(special_tokens[part])
        else:
            ids.extend(encode_ordinary(part))
    return ids
