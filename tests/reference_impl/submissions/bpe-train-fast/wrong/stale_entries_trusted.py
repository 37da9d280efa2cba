# drills: bpe-train-fast
# mistake: trusts every popped heap entry without checking its count is current
# caught-by: test_a_pair_whose_count_fell_to_zero_is_never_merged
import functools
import heapq
from collections import defaultdict



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
    larger_first = functools.cmp_to_key(lambda p, q: (p < q) - (p > q))
    heap = [(-count, larger_first(pair), pair) for pair, count in counts.items()]
    heapq.heapify(heap)
    merges: list[Pair] = []
    while heap and len(merges) < num_merges:
        negative_count, _, best = heapq.heappop(heap)
        if best not in where:
            continue
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
