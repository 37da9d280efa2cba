# drills: bpe-heap-encode
# mistake: caches failed lookups in the caller's ranks (ranks.setdefault)
# caught-by: test_ranks_are_not_modified
import heapq


def heap_encode_piece(piece, ranks):
    n = len(piece)
    end = list(range(1, n + 1))
    prev = list(range(-1, n - 1))
    alive = [True] * n
    heap = []

    def push(i):
        j = end[i]
        if j < n:
            r = ranks.setdefault(piece[i : end[j]], None)
            if r is not None:
                heapq.heappush(heap, (r, i, end[j]))

    for i in range(n - 1):
        push(i)
    while heap:
        _, i, stop = heapq.heappop(heap)
        if not alive[i] or end[i] >= n or end[end[i]] != stop:
            continue
        alive[end[i]] = False
        end[i] = stop
        if stop < n:
            prev[stop] = i
        push(i)
        if prev[i] >= 0:
            push(prev[i])
    out, i = [], 0
    while i < n:
        out.append(ranks[piece[i : end[i]]])
        i = end[i]
    return out
