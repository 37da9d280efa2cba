# drills: bpe-heap-encode
# mistake: checks only that both parts are still alive, not that the right part is still the same size
# caught-by: test_stale_heap_entry_is_skipped
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
            r = ranks.get(piece[i : end[j]])
            if r is not None:
                heapq.heappush(heap, (r, i, j))

    for i in range(n - 1):
        push(i)
    while heap:
        _, i, j = heapq.heappop(heap)
        if not (alive[i] and alive[j] and end[i] == j):
            continue
        alive[j] = False
        end[i] = end[j]
        if end[i] < n:
            prev[end[i]] = i
        push(i)
        if prev[i] >= 0:
            push(prev[i])
    out, i = [], 0
    while i < n:
        out.append(ranks[piece[i : end[i]]])
        i = end[i]
    return out
