# drills: o200k-pretokenize
# mistake: the cl100k_base pattern: contractions split off, no case split, marks are no letters
# caught-by: test_words_are_cut_where_lower_case_turns_upper, test_contractions_stay_on_the_word_in_any_case, test_combining_marks_belong_to_the_word
import regex

ALTERNATIVES = [
    r"'(?i:[sdmt]|ll|ve|re)",
    r"[^\r\n\p{L}\p{N}]?+\p{L}++",
    r"\p{N}{1,3}+",
    r" ?[^\s\p{L}\p{N}]++[\r\n]*+",
    r"\s++$",
    r"\s*[\r\n]",
    r"\s+(?!\S)",
    r"\s",
]


def o200k_pretokenize(text):
    return regex.findall("|".join(ALTERNATIVES), text)
