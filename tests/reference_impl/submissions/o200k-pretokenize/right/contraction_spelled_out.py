# drills: o200k-pretokenize
# variant: the contraction written as an apostrophe and explicit letter classes with both cases
# (the long s included) instead of a case-insensitive group
import regex

UPPER = r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"
LOWER = r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"
CONTRACTION = r"(?:'(?:[sSſtTmMdD]|[rR][eE]|[vV][eE]|[lL][lL]))?"
PREFIX = r"[^\r\n\p{L}\p{N}]?"


def o200k_pretokenize(text):
    alternatives = [
        f"{PREFIX}{UPPER}*{LOWER}+{CONTRACTION}",
        f"{PREFIX}{UPPER}+{LOWER}*{CONTRACTION}",
        r"\p{N}{1,3}",
        r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
        r"\s*[\r\n]+",
        r"\s+(?!\S)",
        r"\s+",
    ]
    return regex.findall("|".join(alternatives), text)
