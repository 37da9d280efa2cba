# drills: bpe-heap-encode
# mistake: correct ids, but finds each join by rescanning every pair (quadratic on a long piece)
# caught-by: test_long_piece_takes_n_log_n_time
def heap_encode_piece(piece, ranks):
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while len(parts) > 1:
        best = None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            break
        i = best[1]
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return [ranks[p] for p in parts]
