# drills: o200k-pretokenize
# mistake: cl100k's possessive quantifiers kept: upper* never gives a mark back to lower+
# caught-by: test_combining_marks_belong_to_the_word
import regex

ALTERNATIVES = [
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*+[\p{Ll}\p{Lm}\p{Lo}\p{M}]++(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"\p{N}{1,3}",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"\s*[\r\n]+",
    r"\s+(?!\S)",
    r"\s+",
]


def o200k_pretokenize(text):
    return regex.findall("|".join(ALTERNATIVES), text)
