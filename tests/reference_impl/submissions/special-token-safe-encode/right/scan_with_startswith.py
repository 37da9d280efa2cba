# drills: special-token-safe-encode
# variant: a scan that tries the allowed tokens, longest first, at every position, collecting the
# ordinary characters between them
def encode_with_specials(text, encode_ordinary, special_tokens, allowed_special=frozenset(), disallowed_special="all"):
    allowed = list(special_tokens) if allowed_special == "all" else list(allowed_special)
    banned = [t for t in special_tokens if t not in allowed] if disallowed_special == "all" else list(disallowed_special)
    for i in range(len(text)):
        hits = [t for t in banned if text.startswith(t, i)]
        if hits:
            raise ValueError("special token %r is not allowed" % max(hits, key=len))
    by_length = sorted(allowed, key=len, reverse=True)
    out, plain, i = [], "", 0
    while i < len(text):
        token = next((t for t in by_length if text.startswith(t, i)), None)
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
