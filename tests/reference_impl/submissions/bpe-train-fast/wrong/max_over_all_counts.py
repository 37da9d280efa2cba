# drills: bpe-train-fast
# mistake: right merges and incremental counts, but finds each best pair with max() over all counts
# caught-by: test_big_corpus_trains_incrementally
from collections import defaultdict
def learn_merges_fast(word_freqs, num_merges):
    words = list(word_freqs); freqs = list(word_freqs.values())
    counts = defaultdict(int); where = defaultdict(set)
    for i, w in enumerate(words):
        for p in zip(w, w[1:]): counts[p] += freqs[i]; where[p].add(i)
    merges = []
    while len(merges) < num_merges:
        live = [(c, p) for p, c in counts.items() if c > 0]
        if not live: break
        _, best = max(live)
        merges.append(best)
        for i in where.pop(best):
            w = words[i]; nw = merge_pair(w, best)
            if nw == w: continue
            for p in zip(w, w[1:]): counts[p] -= freqs[i]
            for p in zip(nw, nw[1:]): counts[p] += freqs[i]; where[p].add(i)
            words[i] = nw
    return merges
