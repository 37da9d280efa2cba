# drills: bpe-train-fast
# mistake: incremental counts that drop pairs at zero, but each merge scans every count twice: max() of the values, then the largest pair with that count
# caught-by: test_big_corpus_trains_incrementally
from collections import defaultdict


def learn_merges_fast(word_freqs, num_merges):
    words = list(word_freqs)
    freqs = list(word_freqs.values())
    counts = defaultdict(int)
    where = defaultdict(set)
    for i, word in enumerate(words):
        for pair in zip(word, word[1:]):
            counts[pair] += freqs[i]
            where[pair].add(i)
    merges = []
    while counts and len(merges) < num_merges:
        top = max(counts.values())
        best = max(pair for pair, count in counts.items() if count == top)
        merges.append(best)
        for i in where.pop(best):
            word = words[i]
            new = merge_pair(word, best)
            if new == word:
                continue
            for pair in zip(word, word[1:]):
                counts[pair] -= freqs[i]
                if counts[pair] == 0:
                    del counts[pair]
            for pair in zip(new, new[1:]):
                counts[pair] += freqs[i]
                where[pair].add(i)
            words[i] = new
    return merges
