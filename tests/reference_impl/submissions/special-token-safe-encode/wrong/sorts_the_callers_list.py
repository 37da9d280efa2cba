# drills: special-token-safe-encode
# mistake: sorts the caller's allowed_special list in place, longest first, to try long tokens first
# caught-by: test_arguments_are_not_modified
def encode_with_specials(text, encode_ordinary, special_tokens, allowed_special=frozenset(), disallowed_special="all"):
    if allowed_special == "all":
        allowed_special = list(special_tokens)
    elif isinstance(allowed_special, list):
        allowed_special.sort(key=len, reverse=True)
    allowed = sorted(allowed_special, key=len, reverse=True)
    banned = [t for t in special_tokens if t not in allowed] if disallowed_special == "all" else list(disallowed_special)
    for i in range(len(text)):
        hits = [t for t in banned if text.startswith(t, i)]
        if hits:
            raise ValueError("special token %r is not allowed" % max(hits, key=len))
    out, plain, i = [], "", 0
    while i < len(text):
        token = next((t for t in allowed if text.startswith(t, i)), None)
        if token is None:
            plain += text[i]
            i += 1
            continue
        if plain:
            out += encode_ordinary(plain)
            plain = ""
        out.append(special_tokens[token])
        i += len(token)
    if plain:
        out += encode_ordinary(plain)
    return out
