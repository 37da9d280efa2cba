# drills: cl100k-pretokenize
# mistake: digits are taken as one run of any length
# caught-by: test_digits_come_in_groups_of_three_from_the_left
import regex


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?i:[sdmt]|ll|ve|re)",
            r"[^\r\n\p{L}\p{N}]?+\p{L}++",
            r"\p{N}+",
            r" ?[^\s\p{L}\p{N}]++[\r\n]*+",
            r"\s++$",
            r"\s*[\r\n]",
            r"\s+(?!\S)",
            r"\s",
        ]
    )
    return regex.findall(pattern, text)
