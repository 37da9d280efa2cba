# drills: bpe-dropout
# variant: list slicing, survivors collected while scanning
def apply_merges_dropout(symbols, ranks, p, rng):
    symbols = list(symbols)
    while True:
        kept = []
        for i in range(len(symbols) - 1):
            if (symbols[i], symbols[i + 1]) in ranks and rng.random() >= p:
                kept.append(i)
        if not kept:
            return tuple(symbols)
        best = min(ranks[(symbols[i], symbols[i + 1])] for i in kept)
        targets = [i for i in kept if ranks[(symbols[i], symbols[i + 1])] == best]
        out, pos = [], 0
        for i in targets:
            if i < pos:
                continue  # overlaps the occurrence just merged
            out.extend(symbols[pos:i])
            out.append(symbols[i] + symbols[i + 1])
            pos = i + 2
        out.extend(symbols[pos:])
        symbols = out
