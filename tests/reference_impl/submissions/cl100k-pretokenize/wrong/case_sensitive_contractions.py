# drills: cl100k-pretokenize
# mistake: contractions match in lowercase only
# caught-by: test_contractions_split_off_in_any_case
import regex


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?:[sdmt]|ll|ve|re)",
            r"[^\r\n\p{L}\p{N}]?+\p{L}++",
            r"\p{N}{1,3}+",
            r" ?[^\s\p{L}\p{N}]++[\r\n]*+",
            r"\s++$",
            r"\s*[\r\n]",
            r"\s+(?!\S)",
            r"\s",
        ]
    )
    return regex.findall(pattern, text)
