# drills: cl100k-pretokenize
# mistake: counts \x0b, \x0c, \x85 and \u2028 as line breaks, like str.splitlines does
# caught-by: test_only_cr_and_lf_are_line_breaks
import regex

BREAKS = r"\r\n\x0b\x0c\x85\u2028"


def cl100k_pretokenize(text):
    pattern = "|".join(
        [
            r"'(?i:[sdmt]|ll|ve|re)",
            rf"[^{BREAKS}\p{{L}}\p{{N}}]?+\p{{L}}++",
            r"\p{N}{1,3}+",
            rf" ?[^\s\p{{L}}\p{{N}}]++[{BREAKS}]*+",
            r"\s++$",
            rf"\s*[{BREAKS}]",
            r"\s+(?!\S)",
            r"\s",
        ]
    )
    return regex.findall(pattern, text)
