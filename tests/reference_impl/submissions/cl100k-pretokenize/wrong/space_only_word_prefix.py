# drills: cl100k-pretokenize
# mistake: only a space may lead a word, as in GPT-2
# caught-by: test_a_word_takes_one_leading_symbol_not_only_a_space
import regex


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?i:[sdmt]|ll|ve|re)",
            r" ?\p{L}+",
            r"\p{N}{1,3}+",
            r" ?[^\s\p{L}\p{N}]++[\r\n]*+",
            r"\s++$",
            r"\s*[\r\n]",
            r"\s+(?!\S)",
            r"\s",
        ]
    )
    return regex.findall(pattern, text)
