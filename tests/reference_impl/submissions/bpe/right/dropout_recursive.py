# drills: bpe-dropout
# variant: recursion, one step per call, with the candidates' draws taken in a comprehension


def apply_merges_dropout(symbols, ranks, p, rng):
    symbols = tuple(symbols)
    positions = [i for i, pair in enumerate(zip(symbols, symbols[1:])) if pair in ranks]
    survivors = [i for i in positions if not rng.random() < p]
    if not survivors:
        return symbols
    rank = min(ranks[symbols[i], symbols[i + 1]] for i in survivors)
    chosen = set(i for i in survivors if ranks[symbols[i], symbols[i + 1]] == rank)
    out = []
    i = 0
    while i < len(symbols):
        if i in chosen:
            out.append(symbols[i] + symbols[i + 1])
            i += 2
        else:
            out.append(symbols[i])
            i += 1
    return apply_merges_dropout(tuple(out), ranks, p, rng)
