# drills: o200k-pretokenize
# variant: one compiled pattern written out in verbose mode, matches read with finditer
import regex

PATTERN = regex.compile(
    r"""
      [^\r\n\p{L}\p{N}]? [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]* [\p{Ll}\p{Lm}\p{Lo}\p{M}]+ (?i:'s|'t|'re|'ve|'m|'ll|'d)?
    | [^\r\n\p{L}\p{N}]? [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+ [\p{Ll}\p{Lm}\p{Lo}\p{M}]* (?i:'s|'t|'re|'ve|'m|'ll|'d)?
    | \p{N}{1,3}
    | \x20? [^\s\p{L}\p{N}]+ [\r\n/]*
    | \s*[\r\n]+
    | \s+(?!\S)
    | \s+
    """,
    regex.VERBOSE,
)


def o200k_pretokenize(text):
    return [match.group() for match in PATTERN.finditer(text)]
