"""The o200k_base pre-tokenizer (GPT-4o, o1, o3, GPT-4.1): cl100k_base's idea with new word rules.

Three changes matter. A word is cut where lower case turns to upper case (``"helloWorld"`` gives
``"hello"``, ``"World"``), and combining marks (``\\p{M}``) count as part of a word. A contraction
is no longer a piece of its own: ``'s 't 're 've 'm 'll 'd`` (any case) stay on the end of the
word before them. And the line breaks after a run of punctuation may include ``/``. Unlike
cl100k's, the quantifiers are not possessive: the regex may give back a character it took.
"""

from __future__ import annotations


def o200k_pretokenize(text: str) -> list[str]:
    """Cut ``text`` into o200k_base pieces; the pieces concatenate back to ``text``."""
    import regex

    upper = r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"  # capitals, titlecase, modifiers, other letters, marks
    lower = r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"  # lower case, modifiers, other letters, marks
    prefix = r"[^\r\n\p{L}\p{N}]?"  # at most one character that is no letter, digit or line break
    contraction = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?"  # kept on the end of the word, any case
    pattern = "|".join(
        [
            prefix + upper + "*" + lower + "+" + contraction,  # "Hello", " world", "don't"
            prefix + upper + "+" + lower + "*" + contraction,  # "HTML", " NASA's"
            r"\p{N}{1,3}",  # digits, three at most, grouped from the left
            r" ?[^\s\p{L}\p{N}]+[\r\n/]*",  # punctuation and symbols, one space before, breaks or / after
            r"\s*[\r\n]+",  # whitespace up to and including the last line break of a run
            r"\s+(?!\S)",  # whitespace, leaving the last space to what follows
            r"\s+",  # whitespace before a digit or symbol, or at the end of the text
        ]
    )
    pieces: list[str] = regex.findall(pattern, text)
    return pieces
