# drills: bpe-dropout
# mistake: short-cuts p = 0 and p = 1 without drawing, so the caller's random stream drifts
# caught-by: test_p_zero_still_draws_once_per_candidate, test_p_one_still_draws_once_per_candidate
def apply_merges_dropout(symbols, ranks, p, rng):
    if p <= 0:
        return apply_merges(symbols, ranks)
    if p >= 1:
        return tuple(symbols)
    current = tuple(symbols)
    while True:
        cands = [i for i in range(len(current) - 1) if (current[i], current[i + 1]) in ranks]
        kept = [i for i in cands if rng.random() >= p]
        if not kept:
            return current
        best = min(ranks[current[i], current[i + 1]] for i in kept)
        chosen = {i for i in kept if ranks[current[i], current[i + 1]] == best}
        out, i = [], 0
        while i < len(current):
            if i in chosen:
                out.append(current[i] + current[i + 1])
                i += 2
            else:
                out.append(current[i])
                i += 1
        current = tuple(out)
