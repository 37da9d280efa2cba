"""Hidden tests for the `bpe-dropout` drill: apply_merges_dropout(symbols, ranks, p, rng).

Contract: each step lists the candidates (positions whose adjacent pair has a rank, left to
right, overlaps included), draws ``rng.random()`` once per candidate in that order and drops those
with a draw ``< p``; if none survive, stop; otherwise merge the lowest-ranked surviving pair at its
surviving positions, left to right, without overlap.
"""

from __future__ import annotations

import random

SENNRICH_MERGES = [
    ("s", "t</w>"),
    ("e", "st</w>"),
    ("l", "o"),
    ("w", "est</w>"),
    ("n", "e"),
    ("ne", "west</w>"),
    ("lo", "w</w>"),
    ("w", "i"),
    ("wi", "d"),
    ("wid", "est</w>"),
    ("w", "e"),
    ("we", "r</w>"),
    ("lo", "wer</w>"),
]
SENNRICH_RANKS = {pair: rank for rank, pair in enumerate(SENNRICH_MERGES)}


class ScriptedRng:
    """Stands in for random.Random: hands out fixed draws and records how many were taken."""

    def __init__(self, draws: list[float]) -> None:
        self.draws = list(draws)
        self.taken = 0

    def random(self) -> float:
        if self.taken >= len(self.draws):
            raise AssertionError(f"rng.random() called more than the {len(self.draws)} times expected")
        self.taken += 1
        return self.draws[self.taken - 1]


def marked(word: str) -> tuple[str, ...]:
    return (*word[:-1], word[-1] + "</w>")


def dropout(impl, symbols, ranks, p, rng) -> tuple[str, ...]:
    return tuple(impl.apply_merges_dropout(tuple(symbols), ranks, p, rng))


def random_table(rng: random.Random, ref) -> tuple[dict, str]:
    alphabet = rng.choice(["ab", "abc", "abcd"])
    word_freqs = {}
    for _ in range(rng.randint(1, 8)):
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
        word_freqs[marked(word)] = rng.randint(1, 6)
    return {pair: r for r, pair in enumerate(ref.learn_merges(word_freqs, rng.randint(1, 20)))}, alphabet


def test_dropped_candidate_lets_the_next_rank_merge(impl):
    rng = ScriptedRng([0.05, 0.9])  # step 1: (a, b) dropped (0.05 < 0.1), (b, c) kept; step 2: no candidates
    got = dropout(impl, ("a", "b", "c"), {("a", "b"): 0, ("b", "c"): 1}, 0.1, rng)
    assert got == ("a", "bc"), f"expected ('a', 'bc'), got {got}"
    assert rng.taken == 2, f"expected 2 draws (one per candidate), got {rng.taken}"


def test_draw_equal_to_p_keeps_the_candidate(impl):
    rng = ScriptedRng([0.5])
    got = dropout(impl, ("a", "b"), {("a", "b"): 0}, 0.5, rng)
    assert got == ("ab",), f"a draw of exactly p keeps the merge: expected ('ab',), got {got}"


def test_stops_when_every_candidate_is_dropped(impl):
    rng = ScriptedRng([0.01, 0.02])
    got = dropout(impl, ("a", "b", "c"), {("a", "b"): 0, ("b", "c"): 1}, 0.5, rng)
    assert got == ("a", "b", "c"), f"all candidates dropped: expected ('a', 'b', 'c'), got {got}"
    assert rng.taken == 2, f"expected 2 draws, got {rng.taken}"


def test_one_draw_per_candidate_per_step_in_left_to_right_order(impl):
    # step 1: candidates 0 (a,b), 1 (b,a), 2 (a,b) draw .9 .9 .05, so 2 is dropped and the lowest
    #   surviving rank, (a,b), merges at 0 only -> (ab, a, b); step 2: one candidate (a,b) draws .9
    #   -> (ab, ab); step 3: no candidates, no draws
    rng = ScriptedRng([0.9, 0.9, 0.05, 0.9, 0.9])
    got = dropout(impl, ("a", "b", "a", "b"), {("a", "b"): 0, ("b", "a"): 1}, 0.1, rng)
    assert got == ("ab", "ab"), f"expected ('ab', 'ab'), got {got}"
    assert rng.taken == 4, f"expected 4 draws (3 candidates, then 1), got {rng.taken}"


def test_overlapping_survivors_merge_left_to_right(impl):
    rng = ScriptedRng([0.9, 0.9, 0.9, 0.9])
    got = dropout(impl, ("a", "a", "a"), {("a", "a"): 0}, 0.1, rng)
    assert got == ("aa", "a"), f"expected ('aa', 'a'), got {got}"
    rng = ScriptedRng([0.0, 0.9, 0.0])
    got = dropout(impl, ("a", "a", "a"), {("a", "a"): 0}, 0.1, rng)
    assert got == ("a", "aa"), f"first (a, a) dropped: expected ('a', 'aa'), got {got}"


def test_p_zero_equals_apply_merges(impl, ref):
    rng = random.Random(909)
    for case in range(40):
        ranks, alphabet = random_table(rng, ref)
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10)))
        expected = tuple(ref.apply_merges(marked(word), ranks))
        got = dropout(impl, marked(word), ranks, 0.0, random.Random(case))
        assert got == expected, f"case {case}, p=0 on {marked(word)}: expected {expected}, got {got}"


def test_p_one_leaves_the_symbols_alone(impl):
    for word in ["newest", "lowest", "widest", "a"]:
        got = dropout(impl, marked(word), SENNRICH_RANKS, 1.0, random.Random(1))
        assert got == marked(word), f"p=1 on {word!r}: expected {marked(word)}, got {got}"


def test_same_seed_gives_same_segmentation(impl):
    for seed in range(20):
        a = dropout(impl, marked("newestwidest"), SENNRICH_RANKS, 0.3, random.Random(seed))
        b = dropout(impl, marked("newestwidest"), SENNRICH_RANKS, 0.3, random.Random(seed))
        assert a == b, f"seed {seed}: two runs gave {a} and {b}"


def test_segmentations_vary_across_seeds_and_keep_the_text(impl):
    seen = set()
    for seed in range(60):
        got = dropout(impl, marked("newest"), SENNRICH_RANKS, 0.5, random.Random(seed))
        assert "".join(got) == "newest</w>", f"seed {seed}: pieces {got} do not spell 'newest</w>'"
        seen.add(got)
    assert len(seen) >= 3, f"p=0.5 over 60 seeds gave only {len(seen)} segmentations: {seen}"


def test_matches_reference_with_the_same_seed(impl, ref):
    rng = random.Random(1010)
    for case in range(80):
        ranks, alphabet = random_table(rng, ref)
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10)))
        p = rng.choice([0.1, 0.25, 0.5, 0.75])
        want_rng, got_rng = random.Random(case), random.Random(case)
        expected = tuple(ref.apply_merges_dropout(marked(word), ranks, p, want_rng))
        got = dropout(impl, marked(word), ranks, p, got_rng)
        assert got == expected, (
            f"case {case}, p={p}, seed {case}, {marked(word)} with {ranks}:\nexpected {expected}\ngot      {got}"
        )
        assert got_rng.getstate() == want_rng.getstate(), f"case {case}: the rng was drawn a different number of times"
