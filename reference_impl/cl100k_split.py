"""The cl100k_base pre-tokenizer: the regular expression that cuts text into pieces before BPE.

GPT-4's encoding never merges across these pieces, so they decide, for example, that a word
keeps its leading space, that digits come in groups of at most three, and that a run of spaces
leaves its last space to the word after it. The expression needs the third-party ``regex``
module: the standard ``re`` has no ``\\p{L}`` (Unicode letter) or ``\\p{N}`` (number) classes.
"""

from __future__ import annotations


def cl100k_pretokenize(text: str) -> list[str]:
    """Cut ``text`` into cl100k_base pieces; the pieces concatenate back to ``text``."""
    import regex

    pattern = "|".join(
        [
            r"'(?i:[sdmt]|ll|ve|re)",  # a contraction, any case: 's 'T 'll 'VE
            r"[^\r\n\p{L}\p{N}]?+\p{L}++",  # letters, after at most one character that is no letter, digit or line break
            r"\p{N}{1,3}+",  # digits, three at most, grouped from the left
            r" ?[^\s\p{L}\p{N}]++[\r\n]*+",  # punctuation and symbols, one space before, line breaks after
            r"\s++$",  # whitespace that ends the text
            r"\s*[\r\n]",  # whitespace up to and including a line break
            r"\s+(?!\S)",  # whitespace, leaving the last space to what follows
            r"\s",  # one whitespace character, such as the space before a number
        ]
    )
    pieces: list[str] = regex.findall(pattern, text)
    return pieces
