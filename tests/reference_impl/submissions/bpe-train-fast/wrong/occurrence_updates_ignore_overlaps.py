# drills: bpe-train-fast
# mistake: updates counts occurrence by occurrence but reads the neighbours from the word before any merge, so overlapping pairs go wrong
# caught-by: test_overlapping_pairs_are_counted_after_the_merge
import heapq


def learn_merges_fast(word_freqs, num_merges):
    words = [tuple(w) for w in word_freqs]
    freqs = list(word_freqs.values())
    counts, where = {}, {}
    for i, w in enumerate(words):
        for p in zip(w, w[1:]):
            counts[p] = counts.get(p, 0) + freqs[i]
            where.setdefault(p, set()).add(i)
    key = lambda p: (-counts[p], tuple(-ord(c) for c in p[0]) + (1,), tuple(-ord(c) for c in p[1]) + (1,), p)  # noqa: E731
    heap = [key(p) for p in counts]
    heapq.heapify(heap)
    merges = []
    while heap and len(merges) < num_merges:
        neg, _, _, pair = heapq.heappop(heap)
        if counts.get(pair, 0) != -neg or neg == 0:
            continue
        merges.append(pair)
        a, b = pair
        changed = {pair}
        for i in where.pop(pair, ()):
            w, f = words[i], freqs[i]
            for j in range(len(w) - 1):
                if (w[j], w[j + 1]) != pair:
                    continue
                counts[pair] -= f
                if j > 0:
                    for p, d in (((w[j - 1], a), -f), ((w[j - 1], a + b), f)):
                        counts[p] = counts.get(p, 0) + d
                        where.setdefault(p, set()).add(i)
                        changed.add(p)
                if j + 2 < len(w):
                    for p, d in (((b, w[j + 2]), -f), ((a + b, w[j + 2]), f)):
                        counts[p] = counts.get(p, 0) + d
                        where.setdefault(p, set()).add(i)
                        changed.add(p)
            words[i] = merge_pair(w, pair)
        for p in changed:
            if counts.get(p, 0) > 0:
                heapq.heappush(heap, key(p))
    return merges
