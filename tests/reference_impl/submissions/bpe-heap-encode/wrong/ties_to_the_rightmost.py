# drills: bpe-heap-encode
# mistake: orders the heap by (rank, -position), so a tie joins the rightmost pair
# caught-by: test_tie_goes_to_the_leftmost_pair
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
                heapq.heappush(heap, (r, -i, end[j]))

    for i in range(n - 1):
        push(i)
    while heap:
        _, neg, stop = heapq.heappop(heap)
        i = -neg
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
