# drills: special-token-safe-encode
# mistake: splits on the allowed tokens in the order they are listed, so <|tool|> cuts <|tool|>call apart
# caught-by: test_the_longer_of_two_tokens_at_one_place_wins
import re


def encode_with_specials(text, encode_ordinary, special_tokens, allowed_special=frozenset(), disallowed_special="all"):
    allowed = [t for t in special_tokens if allowed_special == "all" or t in allowed_special]
    disallowed = [t for t in special_tokens if t not in allowed] if disallowed_special == "all" else disallowed_special
    found = re.search("|".join(re.escape(t) for t in sorted(disallowed, key=len, reverse=True)), text) if disallowed else None
    if found:
        raise ValueError(f"disallowed special token {found.group()!r}")
    if not allowed:
        return encode_ordinary(text) if text else []
    ids = []
    for number, part in enumerate(re.split("(" + "|".join(re.escape(t) for t in allowed) + ")", text)):
        if number % 2:
            ids.append(special_tokens[part])
        elif part:
            ids.extend(encode_ordinary(part))
    return ids
