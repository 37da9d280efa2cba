# drills: cl100k-pretokenize
# mistake: leaves out the rule for whitespace up to a line break
# caught-by: test_whitespace_up_to_a_line_break_is_one_piece
import regex


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?i:[sdmt]|ll|ve|re)",
            r"[^\r\n\p{L}\p{N}]?+\p{L}++",
            r"\p{N}{1,3}+",
            r" ?[^\s\p{L}\p{N}]++[\r\n]*+",
            r"\s++$",
            r"\s+(?!\S)",
            r"\s",
        ]
    )
    return regex.findall(pattern, text)
