# drills: bpe-train-fast
# variant: heap key built from negated code points (larger pair first); per-word Counter diffs of pairs
import heapq
from collections import Counter, defaultdict


def descending(s):
    # Orders strings in reverse: the sentinel 1 makes a proper prefix sort after its extensions.
    return tuple(-ord(c) for c in s) + (1,)


def pair_counter(word):
    return Counter(zip(word, word[1:]))


def learn_merges_fast(word_freqs, num_merges):
    words = {i: w for i, w in enumerate(word_freqs)}
    freq = {i: f for i, f in enumerate(word_freqs.values())}
    counts = Counter()
    index = defaultdict(set)
    for i, w in words.items():
        for p, k in pair_counter(w).items():
            counts[p] += k * freq[i]
            index[p].add(i)
    key = lambda p: (-counts[p], descending(p[0]), descending(p[1]), p)  # noqa: E731
    heap = [key(p) for p in counts]
    heapq.heapify(heap)
    out = []
    while heap and len(out) < num_merges:
        neg, _, _, pair = heapq.heappop(heap)
        if -neg != counts[pair] or counts[pair] <= 0:
            continue
        out.append(pair)
        touched = set()
        for i in list(index[pair]):
            old = words[i]
            new = merge_pair(old, pair)
            if new == old:
                continue
            diff = pair_counter(new)
            diff.subtract(pair_counter(old))
            for p, k in diff.items():
                if k:
                    counts[p] += k * freq[i]
                    touched.add(p)
                    if k > 0:
                        index[p].add(i)
            words[i] = new
        index.pop(pair, None)
        for p in touched:
            if counts[p] > 0:
                heapq.heappush(heap, key(p))
    return out
