# drills: bpe-dropout
# mistake: draws from the global random module instead of the rng it is given
# caught-by: test_dropped_candidate_lets_the_next_rank_merge, test_stops_when_every_candidate_is_dropped, test_one_draw_per_candidate_per_step_in_left_to_right_order
def apply_merges_dropout(symbols, ranks, p, rng):
    symbols = list(symbols)
    while True:
        kept = []
        for i in range(len(symbols) - 1):
            if (symbols[i], symbols[i + 1]) in ranks and __import__('random').random() >= p:
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
