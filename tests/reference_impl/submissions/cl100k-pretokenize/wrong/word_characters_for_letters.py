# drills: cl100k-pretokenize
# mistake: uses [^\W\d_] (word characters) for letters, so digits like ² become letters
# caught-by: test_letters_and_numbers_are_unicode_categories
import regex


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?i:[sdmt]|ll|ve|re)",
            r"[^\r\n\w]?+[^\W\d_]++",
            r"\p{N}{1,3}+",
            r" ?[^\s\w]++[\r\n]*+",
            r"\s++$",
            r"\s*[\r\n]",
            r"\s+(?!\S)",
            r"\s",
        ]
    )
    return regex.findall(pattern, text)
