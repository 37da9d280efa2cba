"""BPE training with incremental pair counts and a lazy heap: the same merges as the plain loop, faster.

The plain loop (:func:`reference_impl.bpe.learn_merges`) recounts every pair of every word for
each merge. But a merge only changes the words that contain the merged pair, so this version
keeps the pair counts and, for each pair, the set of words it occurs in ("where"). After a
merge it takes those words' old pairs off the counts and adds their new pairs. The best pair is
kept in a heap that is never cleaned up: a count change pushes a fresh entry, and an entry
whose count is out of date is skipped when it reaches the top ("lazy deletion").
"""

from __future__ import annotations

import functools
import heapq
from collections import defaultdict

from reference_impl.bpe import Pair, merge_pair


def learn_merges_fast(word_freqs: dict[tuple[str, ...], int], num_merges: int) -> list[Pair]:
    """Exactly what ``learn_merges`` learns (ties to the larger pair), updating counts incrementally."""
    words = list(word_freqs)
    freqs = list(word_freqs.values())
    counts: dict[Pair, int] = defaultdict(int)
    where: dict[Pair, set[int]] = defaultdict(set)  # pair -> indexes of the words it may occur in
    for index, word in enumerate(words):
        for pair in zip(word, word[1:]):
            counts[pair] += freqs[index]
            where[pair].add(index)

    # heapq pops the smallest entry: order by count, largest first, then by pair, largest first.
    def reverse_order(p: Pair, q: Pair) -> int:
        return (p < q) - (p > q)

    larger_first = functools.cmp_to_key(reverse_order)
    heap = [(-count, larger_first(pair), pair) for pair, count in counts.items()]
    heapq.heapify(heap)
    merges: list[Pair] = []
    while heap and len(merges) < num_merges:
        negative_count, _, best = heapq.heappop(heap)
        if counts[best] != -negative_count:
            continue  # stale: the count changed after this entry was pushed (counts pushed are never 0)
        merges.append(best)
        changed: set[Pair] = set()
        for index in where.pop(best):
            word, freq = words[index], freqs[index]
            new_word = merge_pair(word, best)
            if new_word == word:
                continue  # the pair left this word in an earlier merge
            for pair in zip(word, word[1:]):
                counts[pair] -= freq
                changed.add(pair)
            for pair in zip(new_word, new_word[1:]):
                counts[pair] += freq
                where[pair].add(index)
                changed.add(pair)
            words[index] = new_word
        for pair in changed:
            if counts[pair] > 0:
                heapq.heappush(heap, (-counts[pair], larger_first(pair), pair))
    return merges
