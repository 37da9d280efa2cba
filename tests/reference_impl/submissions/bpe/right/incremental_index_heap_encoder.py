# drills: bpe-train, bpe-encode, bpe-full
# variant: plain-dict counts, an incremental pair -> words index for training, and a
# heap + linked-list encoder that merges one occurrence at a time (leftmost first on equal rank)
import heapq


def count_pairs(word_freqs):
    counts = {}
    for word, freq in word_freqs.items():
        for i in range(len(word) - 1):
            key = (word[i], word[i + 1])
            counts[key] = counts.get(key, 0) + freq
    return counts


def merge_pair(symbols, pair):
    result = []
    skip = False
    for i, sym in enumerate(symbols):
        if skip:
            skip = False
            continue
        if i + 1 < len(symbols) and sym == pair[0] and symbols[i + 1] == pair[1]:
            result.append(sym + symbols[i + 1])
            skip = True
        else:
            result.append(sym)
    return tuple(result)


def learn_merges(word_freqs, num_merges):
    words = [list(w) for w in word_freqs]
    freqs = list(word_freqs.values())
    counts = {}
    where = {}  # pair -> set of word indexes that contain it
    for idx, word in enumerate(words):
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freqs[idx]
            where.setdefault(pair, set()).add(idx)
    merges = []
    while len(merges) < num_merges:
        live = [(c, p) for p, c in counts.items() if c > 0]
        if not live:
            break
        best = max(live)[1]
        merges.append(best)
        for idx in list(where.get(best, ())):
            old = words[idx]
            new = list(merge_pair(tuple(old), best))
            if new == old:
                continue
            for pair in zip(old, old[1:]):
                counts[pair] -= freqs[idx]
            for pair in zip(new, new[1:]):
                counts[pair] = counts.get(pair, 0) + freqs[idx]
                where.setdefault(pair, set()).add(idx)
            words[idx] = new
    return merges


def apply_merges(symbols, ranks):
    n = len(symbols)
    if n < 2:
        return tuple(symbols)
    syms = list(symbols)
    nxt = list(range(1, n)) + [-1]
    prv = [-1] + list(range(n - 1))
    alive = [True] * n
    heap = []

    def push(i):
        j = nxt[i]
        if j != -1 and (syms[i], syms[j]) in ranks:
            heapq.heappush(heap, (ranks[(syms[i], syms[j])], i, syms[i], syms[j]))

    for i in range(n - 1):
        push(i)
    while heap:
        _, i, left, right = heapq.heappop(heap)
        j = nxt[i] if alive[i] else -1
        if j == -1 or syms[i] != left or syms[j] != right:
            continue  # stale entry
        syms[i] = left + right
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] != -1:
            prv[nxt[j]] = i
        if prv[i] != -1:
            push(prv[i])
        push(i)
    return tuple(s for s, ok in zip(syms, alive) if ok)


class BPETokenizer:
    def __init__(self, end_of_word="</w>", unk_token="<unk>"):
        self.eow = end_of_word
        self.unk = unk_token
        self.merges = []
        self.ranks = {}
        self.vocab = {}
        self.inv_vocab = {}

    def train(self, corpus, vocab_size):
        counts = {}
        for word in corpus.split():
            counts[word] = counts.get(word, 0) + 1
        chars = sorted(set("".join(counts)))
        alphabet = [self.unk, *chars, *[c + self.eow for c in chars]]
        freqs = {tuple(w[:-1]) + (w[-1] + self.eow,): n for w, n in counts.items()}
        self.merges = learn_merges(freqs, vocab_size - len(alphabet)) if vocab_size > len(alphabet) else []
        self.ranks = dict(zip(self.merges, range(len(self.merges))))
        tokens = alphabet + [a + b for a, b in self.merges]
        self.vocab = {}
        for t in tokens:  # a merge that spells an existing token keeps that token's id
            self.vocab.setdefault(t, len(self.vocab))
        self.inv_vocab = {i: t for t, i in self.vocab.items()}

    def tokenize(self, text):
        pieces = []
        for word in text.split():
            pieces += apply_merges(tuple(word[:-1]) + (word[-1] + self.eow,), self.ranks)
        return pieces

    def encode(self, text):
        fallback = self.vocab[self.unk]
        return [self.vocab[p] if p in self.vocab else fallback for p in self.tokenize(text)]

    def decode(self, ids):
        return " ".join("".join(self.inv_vocab[i] for i in ids).split(self.eow)).strip()
