# drills: cl100k-pretokenize
# mistake: splits numbers into groups of three from the right (the right-aligned grouping some later tokenizers use)
# caught-by: test_digits_come_in_groups_of_three_from_the_left
import regex


def cl100k_pretokenize(text):
    pattern = r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
    pieces = []
    for piece in regex.findall(pattern, text):
        if regex.fullmatch(r"\p{N}+", piece) and len(piece) > 3:
            head = len(piece) % 3
            if head:
                pieces.append(piece[:head])
            pieces.extend(piece[k : k + 3] for k in range(head, len(piece), 3))
        else:
            pieces.append(piece)
    return pieces
