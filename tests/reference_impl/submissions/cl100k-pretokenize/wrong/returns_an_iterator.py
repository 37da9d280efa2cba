# drills: cl100k-pretokenize
# mistake: returns a lazy iterator of pieces where the prompt asks for a list
# caught-by: test_words_keep_their_leading_space, test_random_texts_match_tiktoken
import regex


def cl100k_pretokenize(text):
    pattern = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
    return (m.group() for m in regex.finditer(pattern, text))
