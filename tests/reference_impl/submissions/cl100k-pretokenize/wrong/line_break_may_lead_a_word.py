# drills: cl100k-pretokenize
# mistake: the character before a word may be a line break
# caught-by: test_a_line_break_never_leads_a_word
import regex


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?i:[sdmt]|ll|ve|re)",
            r"[^\p{L}\p{N}]?+\p{L}++",
            r"\p{N}{1,3}+",
            r" ?[^\s\p{L}\p{N}]++[\r\n]*+",
            r"\s++$",
            r"\s*[\r\n]",
            r"\s+(?!\S)",
            r"\s",
        ]
    )
    return regex.findall(pattern, text)
