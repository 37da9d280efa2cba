# drills: cl100k-pretokenize
# mistake: contractions spelled out in both ASCII cases, so 'ſ (long s), which tiktoken's
# case-insensitive match folds to 's, is not one
# caught-by: test_contractions_fold_case_like_tiktoken_including_the_long_s
import regex


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])",
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
