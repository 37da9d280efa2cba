# drills: cl100k-pretokenize
# mistake: uses GPT-2's pattern (lowercase contractions, a space as the only word prefix, unbounded digit runs)
# caught-by: test_contractions_split_off_in_any_case, test_digits_come_in_groups_of_three_from_the_left, test_a_word_takes_one_leading_symbol_not_only_a_space
import regex


def cl100k_pretokenize(text):
    return regex.findall(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""", text)
