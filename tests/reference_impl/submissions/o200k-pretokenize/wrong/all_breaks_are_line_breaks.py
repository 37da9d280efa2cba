# drills: o200k-pretokenize
# mistake: counts \x0b, \x0c, \x85 and \u2028 as line breaks too
# caught-by: test_only_cr_and_lf_are_line_breaks
import regex

ALTERNATIVES = [
    r"""[^\r\n\x0b\x0c\x85\u2028\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\x0b\x0c\x85\u2028\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"\p{N}{1,3}",
    r" ?[^\s\p{L}\p{N}]+[\r\n\x0b\x0c\x85\u2028/]*",
    r"\s*[\r\n\x0b\x0c\x85\u2028]+",
    r"\s+(?!\S)",
    r"\s+",
]


def o200k_pretokenize(text):
    return regex.findall("|".join(ALTERNATIVES), text)
