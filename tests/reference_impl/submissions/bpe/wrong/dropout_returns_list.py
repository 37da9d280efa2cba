# drills: bpe-dropout
# mistake: returns the pieces as a list, though the prompt asks for a tuple
# caught-by: test_returns_a_tuple
def apply_merges_dropout(symbols, ranks, p, rng):
    current = list(symbols)
    while True:
        cands = [i for i in range(len(current) - 1) if (current[i], current[i + 1]) in ranks]
        kept = [i for i in cands if rng.random() >= p]
        if not kept:
            return current
        best = min(ranks[current[i], current[i + 1]] for i in kept)
        out, i = [], 0
        chosen = {i for i in kept if ranks[current[i], current[i + 1]] == best}
        while i < len(current):
            if i in chosen:
                out.append(current[i] + current[i + 1])
                i += 2
            else:
                out.append(current[i])
                i += 1
        current = out
