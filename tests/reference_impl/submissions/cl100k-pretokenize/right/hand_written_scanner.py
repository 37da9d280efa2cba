# drills: cl100k-pretokenize
# variant: no regular expression: a scanner that tries the eight rules in order with unicodedata
import unicodedata

WHITE_SPACE = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {chr(c) for c in range(0x2000, 0x200B)}


def is_letter(c):
    return unicodedata.category(c)[0] == "L"


def is_number(c):
    return unicodedata.category(c)[0] == "N"


def is_space(c):
    return c in WHITE_SPACE


def folds_to(c, letters):
    folded = c.casefold()
    return len(folded) == 1 and folded in letters


def piece_end(t, i):
    n, c = len(t), t[i]
    # 1. contractions, any case
    if c == "'" and i + 1 < n:
        if i + 2 < n and folds_to(t[i + 1], "lvr") and folds_to(t[i + 2], "lee"):
            pair = t[i + 1].casefold() + t[i + 2].casefold()
            if pair in ("ll", "ve", "re"):
                return i + 3
        if folds_to(t[i + 1], "sdmt"):
            return i + 2
    # 2. letters, with at most one leading character that is no letter, digit, \r or \n
    j = i
    if not is_letter(c) and not is_number(c) and c not in "\r\n":
        j = i + 1
    if j < n and is_letter(t[j]):
        while j < n and is_letter(t[j]):
            j += 1
        return j
    # 3. one to three digits
    if is_number(c):
        j = i
        while j < n and j - i < 3 and is_number(t[j]):
            j += 1
        return j
    # 4. punctuation run, one optional space before, line breaks after
    j = i + 1 if c == " " else i
    if j < n and not (is_space(t[j]) or is_letter(t[j]) or is_number(t[j])):
        while j < n and not (is_space(t[j]) or is_letter(t[j]) or is_number(t[j])):
            j += 1
        while j < n and t[j] in "\r\n":
            j += 1
        return j
    # 5-8. whitespace
    k = i
    while k < n and is_space(t[k]):
        k += 1
    if k == n:
        return n  # 5. runs to the end
    last_break = max((p for p in range(i, k) if t[p] in "\r\n"), default=-1)
    if last_break >= 0:
        return last_break + 1  # 6. up to the last line break
    if k - i >= 2:
        return k - 1  # 7. leave the last space to what follows
    return i + 1  # 8. one whitespace character


def cl100k_pretokenize(text):
    pieces, i = [], 0
    while i < len(text):
        j = piece_end(text, i)
        pieces.append(text[i:j])
        i = j
    return pieces
