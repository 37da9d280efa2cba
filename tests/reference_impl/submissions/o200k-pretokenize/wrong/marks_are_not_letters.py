# drills: o200k-pretokenize
# mistake: combining marks left out of both letter classes
# caught-by: test_combining_marks_belong_to_the_word
import regex

ALTERNATIVES = [
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}]*[\p{Ll}\p{Lm}\p{Lo}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}]+[\p{Ll}\p{Lm}\p{Lo}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"\p{N}{1,3}",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"\s*[\r\n]+",
    r"\s+(?!\S)",
    r"\s+",
]


def o200k_pretokenize(text):
    return regex.findall("|".join(ALTERNATIVES), text)
