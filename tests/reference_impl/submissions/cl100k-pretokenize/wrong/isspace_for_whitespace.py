# drills: cl100k-pretokenize
# mistake: a hand-written scanner that takes str.isspace() for whitespace (it includes U+001C..U+001F)
# caught-by: test_whitespace_is_the_unicode_white_space_property
import unicodedata


def kind(c):
    if c.isspace():
        return "space"
    cat = unicodedata.category(c)[0]
    return {"L": "letter", "N": "number"}.get(cat, "other")


def piece_end(t, i):
    n, c = len(t), t[i]
    if c == "'" and i + 1 < n:
        two = t[i + 1 : i + 3].casefold()
        if two in ("ll", "ve", "re"):
            return i + 3
        if t[i + 1].casefold() in ("s", "d", "m", "t"):
            return i + 2
    j = i + 1 if kind(c) != "letter" and kind(c) != "number" and c not in "\r\n" else i
    if j < n and kind(t[j]) == "letter":
        while j < n and kind(t[j]) == "letter":
            j += 1
        return j
    if kind(c) == "number":
        j = i
        while j < n and j - i < 3 and kind(t[j]) == "number":
            j += 1
        return j
    j = i + 1 if c == " " else i
    if j < n and kind(t[j]) == "other":
        while j < n and kind(t[j]) == "other":
            j += 1
        while j < n and t[j] in "\r\n":
            j += 1
        return j
    k = i
    while k < n and kind(t[k]) == "space":
        k += 1
    if k == n:
        return n
    breaks = [p for p in range(i, k) if t[p] in "\r\n"]
    if breaks:
        return breaks[-1] + 1
    return k - 1 if k - i >= 2 else i + 1


def cl100k_pretokenize(text):
    out, i = [], 0
    while i < len(text):
        j = piece_end(text, i)
        out.append(text[i:j])
        i = j
    return out
