# drills: tiktoken-cl100k
# variant: heap of (rank, start) over a linked list of byte spans; a compiled pattern
import heapq

import regex


class TiktokenEncoder:
    def encode_piece(self, piece):
        n = len(piece)
        if n == 0:
            return []
        ranks = self.ranks
        end = list(range(1, n + 1))  # span i covers piece[i:end[i]]
        nxt = list(range(1, n)) + [-1]
        prv = [-1] + list(range(n - 1))
        alive = [True] * n
        heap = []

        def push(i):
            j = nxt[i]
            if j != -1:
                r = ranks.get(piece[i:end[j]])
                if r is not None:
                    heapq.heappush(heap, (r, i, end[j]))

        for i in range(n - 1):
            push(i)
        while heap:
            _, i, stop = heapq.heappop(heap)
            j = nxt[i] if alive[i] else -1
            if j == -1 or end[j] != stop:
                continue  # stale
            end[i] = end[j]
            alive[j] = False
            nxt[i] = nxt[j]
            if nxt[j] != -1:
                prv[nxt[j]] = i
            if prv[i] != -1:
                push(prv[i])
            push(i)
        return [ranks[piece[i:end[i]]] for i in range(n) if alive[i]]

    def encode(self, text):
        pattern = regex.compile(self.pattern)
        return [t for m in pattern.finditer(text) for t in self.encode_piece(m.group().encode())]
