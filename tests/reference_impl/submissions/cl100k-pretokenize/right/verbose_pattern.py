# drills: cl100k-pretokenize
# variant: the pattern as one verbose regular expression, compiled once, matches collected with finditer
import regex

CL100K = regex.compile(
    r"""
      '(?i:[sdmt]|ll|ve|re)
    | [^\r\n\p{L}\p{N}]?+\p{L}++
    | \p{N}{1,3}+
    | [ ]?[^\s\p{L}\p{N}]++[\r\n]*+
    | \s++$
    | \s*[\r\n]
    | \s+(?!\S)
    | \s
    """,
    regex.VERBOSE,
)


def cl100k_pretokenize(text):
    return [m.group() for m in CL100K.finditer(text)]
