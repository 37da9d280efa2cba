# drills: bpe-train-fast
# variant: updates counts occurrence by occurrence while merging a word; a wrapper class reverses pair order in the heap
import heapq


class Entry:
    __slots__ = ("count", "pair")

    def __init__(self, count, pair):
        self.count = count
        self.pair = pair

    def __lt__(self, other):
        if self.count != other.count:
            return self.count > other.count
        return self.pair > other.pair


def learn_merges_fast(word_freqs, num_merges):
    words = [list(w) for w in word_freqs]
    freqs = list(word_freqs.values())
    counts = {}
    where = {}
    for i, w in enumerate(words):
        for p in zip(w, w[1:]):
            counts[p] = counts.get(p, 0) + freqs[i]
            where.setdefault(p, set()).add(i)
    heap = [Entry(c, p) for p, c in counts.items()]
    heapq.heapify(heap)
    merges = []

    def add(p, delta, i):
        counts[p] = counts.get(p, 0) + delta
        if delta > 0:
            where.setdefault(p, set()).add(i)

    while heap and len(merges) < num_merges:
        top = heapq.heappop(heap)
        if top.count <= 0 or counts.get(top.pair) != top.count:
            continue
        a, b = top.pair
        merges.append(top.pair)
        changed = set()
        for i in where.pop(top.pair, ()):
            w, f = words[i], freqs[i]
            j = 0
            while j < len(w) - 1:
                if w[j] == a and w[j + 1] == b:
                    if j > 0:
                        add((w[j - 1], a), -f, i)
                        add((w[j - 1], a + b), f, i)
                        changed.update({(w[j - 1], a), (w[j - 1], a + b)})
                    if j + 2 < len(w):
                        add((b, w[j + 2]), -f, i)
                        add((a + b, w[j + 2]), f, i)
                        changed.update({(b, w[j + 2]), (a + b, w[j + 2])})
                    add((a, b), -f, i)
                    w[j : j + 2] = [a + b]
                j += 1
        changed.add(top.pair)
        for p in changed:
            if counts.get(p, 0) > 0:
                heapq.heappush(heap, Entry(counts[p], p))
    return merges
