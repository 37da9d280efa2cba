# drills: bpe-heap-encode
# mistake: pops heap entries without checking they still describe two adjacent parts
# caught-by: test_stale_heap_entry_is_skipped
import heapq


def heap_encode_piece(piece, ranks):
    n = len(piece)
    end = list(range(1, n + 1))
    prev = list(range(-1, n - 1))
    heap = []

    def push(i):
        j = end[i]
        if j < n:
            r = ranks.get(piece[i : end[j]])
            if r is not None:
                heapq.heappush(heap, (r, i))

    for i in range(n - 1):
        push(i)
    alive = [True] * n
    while heap:
        _, i = heapq.heappop(heap)
        if not alive[i] or end[i] >= n:
            continue
        j = end[i]
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
