"""Rank-ordered byte-level BPE in O(n log n): a heap of candidate pairs over a linked list of parts.

The plain algorithm (see :mod:`reference_impl.tiktoken_ranks`) rescans every adjacent pair after
each join, which is quadratic in the piece's length: a long run of letters or whitespace makes it
crawl. Here every part is named by the index of its first byte, the parts form a doubly linked
list, and a heap holds ``(rank, start, stop)`` for each adjacent pair that has a rank. A join
changes only two pairs, the one to its left and the one to its right, so only those are pushed;
entries that no longer describe two adjacent parts are skipped when popped ("lazy deletion").
The heap orders by rank, then by start, so the result equals the plain algorithm's exactly:
lowest rank first, leftmost on a tie, one join at a time.
"""

from __future__ import annotations

import heapq


def heap_encode_piece(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """Ids of one pre-tokenized piece, joining the lowest-ranked adjacent pair first (leftmost on a tie)."""
    n = len(piece)
    # The part that starts at byte i covers piece[i:end[i]]; prev[i] is where the part before it
    # starts (-1 for the first part). A part absorbed into its left neighbour is no longer alive.
    end = list(range(1, n + 1))
    prev = list(range(-1, n - 1))
    alive = [True] * n
    heap: list[tuple[int, int, int]] = []

    def push_pair(start: int) -> None:
        """Queue the pair made of the part at ``start`` and the part after it, if it has a rank."""
        middle = end[start]
        if middle < n:
            rank = ranks.get(piece[start : end[middle]])
            if rank is not None:
                heapq.heappush(heap, (rank, start, end[middle]))

    for start in range(n - 1):
        push_pair(start)
    while heap:
        _, start, stop = heapq.heappop(heap)
        middle = end[start] if alive[start] else n
        if middle >= n or end[middle] != stop:
            continue  # stale: one of the two parts has been joined to something else since
        # Join the part at `middle` into the part at `start`, then queue the two changed pairs.
        alive[middle] = False
        end[start] = stop
        if stop < n:
            prev[stop] = start
        push_pair(start)
        if prev[start] >= 0:
            push_pair(prev[start])
    ids: list[int] = []
    start = 0
    while start < n:
        ids.append(ranks[piece[start : end[start]]])
        start = end[start]
    return ids
