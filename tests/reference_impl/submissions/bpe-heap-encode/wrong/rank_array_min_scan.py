# drills: bpe-heap-encode
# mistake: keeps a rank per position and updates only the neighbours, but still finds the minimum by a linear scan
# caught-by: test_long_piece_takes_n_log_n_time
INF = float("inf")


def heap_encode_piece(piece, ranks):
    n = len(piece)
    if n == 0:
        return []
    starts = list(range(n + 1))
    pair_rank = [ranks.get(piece[i : i + 2], INF) for i in range(n - 1)] + [INF, INF]
    while len(starts) > 2:
        best, at = INF, -1
        for i in range(len(starts) - 2):
            if pair_rank[i] < best:
                best, at = pair_rank[i], i
        if at < 0:
            break
        del starts[at + 1]
        del pair_rank[at + 1]
        if at + 2 < len(starts):
            pair_rank[at] = ranks.get(piece[starts[at] : starts[at + 2]], INF)
        else:
            pair_rank[at] = INF
        if at > 0:
            pair_rank[at - 1] = ranks.get(piece[starts[at - 1] : starts[at + 1]], INF)
    return [ranks[piece[a:b]] for a, b in zip(starts, starts[1:])]
