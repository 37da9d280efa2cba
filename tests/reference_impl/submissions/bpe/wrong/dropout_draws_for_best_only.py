# drills: bpe-dropout
# mistake: draws only for the lowest-ranked candidate and falls back to the next rank when it is dropped
# caught-by: test_one_draw_per_candidate_per_step_in_left_to_right_order, test_p_zero_still_draws_once_per_candidate
def apply_merges_dropout(symbols, ranks, p, rng):
    symbols = list(symbols)
    while True:
        cands = sorted((ranks[(symbols[i], symbols[i + 1])], i) for i in range(len(symbols) - 1) if (symbols[i], symbols[i + 1]) in ranks)
        kept = []
        for _, i in cands:
            if rng.random() >= p:
                kept = [i]
                break
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
