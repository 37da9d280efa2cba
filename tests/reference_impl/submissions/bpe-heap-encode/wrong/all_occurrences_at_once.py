# drills: bpe-heap-encode
# mistake: joins every occurrence of the lowest-ranked pair in one pass instead of one join at a time
# caught-by: test_joins_happen_one_at_a_time
def heap_encode_piece(piece, ranks):
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while True:
        ranked = [ranks[a + b] for a, b in zip(parts, parts[1:]) if a + b in ranks]
        if not ranked:
            return [ranks[p] for p in parts]
        best = min(ranked)
        merged, i = [], 0
        while i < len(parts):
            if i + 1 < len(parts) and ranks.get(parts[i] + parts[i + 1]) == best:
                merged.append(parts[i] + parts[i + 1])
                i += 2
            else:
                merged.append(parts[i])
                i += 1
        parts = merged
