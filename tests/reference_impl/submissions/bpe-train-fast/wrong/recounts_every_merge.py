# drills: bpe-train-fast
# mistake: right merges, but recounts every pair of every word for each merge (the plain loop)
# caught-by: test_big_corpus_trains_incrementally
from collections import Counter


def learn_merges_fast(word_freqs, num_merges):
    words = dict(word_freqs)
    merges = []
    for _ in range(num_merges):
        counts = Counter()
        for word, freq in words.items():
            for pair in zip(word, word[1:]):
                counts[pair] += freq
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], p))
        merges.append(best)
        words = {merge_pair(w, best): f for w, f in words.items()}
    return merges
