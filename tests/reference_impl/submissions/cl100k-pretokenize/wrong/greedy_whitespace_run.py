# drills: cl100k-pretokenize
# mistake: a whitespace run keeps its last space instead of leaving it to the next word
# caught-by: test_last_space_of_a_run_goes_to_the_next_word
import regex


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?i:[sdmt]|ll|ve|re)",
            r"[^\r\n\p{L}\p{N}]?+\p{L}++",
            r"\p{N}{1,3}+",
            r" ?[^\s\p{L}\p{N}]++[\r\n]*+",
            r"\s++$",
            r"\s*[\r\n]",
            r"\s+",
            r"\s",
        ]
    )
    return regex.findall(pattern, text)
