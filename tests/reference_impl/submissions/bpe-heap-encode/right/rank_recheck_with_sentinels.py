# drills: bpe-heap-encode
# variant: position arrays with sentinels; a popped entry is valid if its pair still has that rank and span
import heapq


def heap_encode_piece(piece, ranks):
    n = len(piece)
    if n == 0:
        return []
    nxt = list(range(1, n + 1))  # start of the next part, n at the end
    prv = list(range(-1, n - 1))
    dead = [False] * (n + 1)
    queue = []
    for i in range(n - 1):
        r = ranks.get(piece[i : i + 2])
        if r is not None:
            queue.append((r, i, i + 2))
    heapq.heapify(queue)

    def candidate(i):
        j = nxt[i]
        if j >= n:
            return
        k = nxt[j]
        r = ranks.get(piece[i:k])
        if r is not None:
            heapq.heappush(queue, (r, i, k))

    while queue:
        r, i, k = heapq.heappop(queue)
        if dead[i] or nxt[i] >= n or nxt[nxt[i]] != k:
            continue
        j = nxt[i]
        dead[j] = True
        nxt[i] = k
        if k < n:
            prv[k] = i
        candidate(i)
        if prv[i] >= 0:
            candidate(prv[i])
    out, i = [], 0
    while i < n:
        out.append(ranks[piece[i : nxt[i]]])
        i = nxt[i]
    return out
