"""Hidden tests for the `bpe-dropout` drill: apply_merges_dropout(symbols, ranks, p, rng).

Contract: each step lists the candidates (positions whose adjacent pair has a rank, left to
right, overlaps included), draws ``rng.random()`` once per candidate in that order and drops those
with a draw ``< p``; if none survive, stop; otherwise merge the lowest-ranked surviving pair at its
surviving positions, left to right, without overlap. The result is a tuple. Nothing but
``rng.random()`` may be used on ``rng``, and the draws are counted at every ``p``, 0 and 1 included.
"""

from __future__ import annotations

import random

import pytest

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


class RecordingRng:
    """Stands in for ``random.Random``: hands out scripted draws (or, given a seed, those of
    ``random.Random(seed)``) and records every call; any method but ``random`` fails the test."""

    def __init__(self, draws: list[float] | None = None, seed: int | None = None) -> None:
        self.draws = None if draws is None else list(draws)
        self.source = random.Random(seed)
        self.taken = 0

    def random(self) -> float:
        if self.draws is None:
            value = self.source.random()
        elif self.taken < len(self.draws):
            value = self.draws[self.taken]
        else:
            expected = "once" if len(self.draws) == 1 else f"{len(self.draws)} times"
            raise AssertionError(f"rng.random() called more often than the {expected} expected")
        self.taken += 1
        return value

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"rng.{name} was used: only rng.random() may be called, once per candidate")


def marked(word: str) -> tuple[str, ...]:
    return (*word[:-1], word[-1] + "</w>")


def dropout(impl, returns, symbols: tuple[str, ...], ranks: dict, p: float, rng: object) -> tuple[str, ...]:
    return returns(
        impl.apply_merges_dropout(symbols, ranks, p, rng), tuple, f"apply_merges_dropout({symbols}, {ranks}, {p}, rng)"
    )


def random_table(rng: random.Random, ref) -> tuple[dict[tuple[str, str], int], str]:
    alphabet = rng.choice(["ab", "abc", "abcd"])
    word_freqs = {}
    for _ in range(rng.randint(1, 8)):
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
        word_freqs[marked(word)] = rng.randint(1, 6)
    return {pair: r for r, pair in enumerate(ref.learn_merges(word_freqs, rng.randint(1, 20)))}, alphabet


@pytest.mark.concept("return-types")
def test_returns_a_tuple(impl, returns):
    dropout(impl, returns, ("a", "b"), {("a", "b"): 0}, 0.5, RecordingRng([0.9]))


@pytest.mark.concept("dropout-draws")
def test_dropped_candidate_lets_the_next_rank_merge(impl, returns):
    rng = RecordingRng([0.05, 0.9])  # step 1: (a, b) dropped (0.05 < 0.1), (b, c) kept; step 2: no candidates
    got = dropout(impl, returns, ("a", "b", "c"), {("a", "b"): 0, ("b", "c"): 1}, 0.1, rng)
    assert got == ("a", "bc"), f"draws [0.05, 0.9] at p=0.1: expected ('a', 'bc'), got {got}"
    assert rng.taken == 2, (
        f"dropped candidate lets the next rank merge: expected 2 draws (one per candidate), got {rng.taken}"
    )


@pytest.mark.concept("dropout-draws")
def test_draw_equal_to_p_keeps_the_candidate(impl, returns):
    rng = RecordingRng([0.5])
    got = dropout(impl, returns, ("a", "b"), {("a", "b"): 0}, 0.5, rng)
    assert got == ("ab",), f"a draw of exactly p keeps the merge: expected ('ab',), got {got}"


@pytest.mark.concept("dropout-draws")
def test_stops_when_every_candidate_is_dropped(impl, returns):
    rng = RecordingRng([0.01, 0.02])
    got = dropout(impl, returns, ("a", "b", "c"), {("a", "b"): 0, ("b", "c"): 1}, 0.5, rng)
    assert got == ("a", "b", "c"), (
        f"draws [0.01, 0.02] at p=0.5 drop both candidates: expected ('a', 'b', 'c'), got {got}"
    )
    assert rng.taken == 2, f"stops when every candidate is dropped: expected 2 draws, got {rng.taken}"


@pytest.mark.concept("dropout-draws")
def test_one_draw_per_candidate_per_step_in_left_to_right_order(impl, returns):
    # step 1: candidates 0 (a,b), 1 (b,a), 2 (a,b) draw .9 .9 .05, so 2 is dropped and the lowest
    #   surviving rank, (a,b), merges at 0 only -> (ab, a, b); step 2: one candidate (a,b) draws .9
    #   -> (ab, ab); step 3: no candidates, no draws
    rng = RecordingRng([0.9, 0.9, 0.05, 0.9, 0.9])
    got = dropout(impl, returns, ("a", "b", "a", "b"), {("a", "b"): 0, ("b", "a"): 1}, 0.1, rng)
    assert got == ("ab", "ab"), f"draws [0.9, 0.9, 0.05, 0.9] at p=0.1: expected ('ab', 'ab'), got {got}"
    assert rng.taken == 4, (
        f"one draw per candidate per step in left to right order: expected 4 draws (3 candidates, then 1), got {rng.taken}"
    )


# (a, b, c, d) with these ranks: step 1 has 3 candidates (a,b) (b,c) (c,d); (a,b) merges; step 2
# has 1, (c,d); step 3 has 1, (ab,cd); step 4 has none. So p = 0 draws 3 + 1 + 1 = 5 times, and
# p = 1 draws 3 times and stops.
CHAIN_RANKS = {("a", "b"): 0, ("c", "d"): 1, ("b", "c"): 2, ("ab", "cd"): 3}


@pytest.mark.concept("dropout-draws")
def test_p_zero_still_draws_once_per_candidate(impl, returns):
    rng = RecordingRng([0.0, 0.5, 0.99, 0.3, 0.7])
    got = dropout(impl, returns, ("a", "b", "c", "d"), dict(CHAIN_RANKS), 0.0, rng)
    assert got == ("abcd",), f"p=0 merges like apply_merges: expected ('abcd',), got {got}"
    assert rng.taken == 5, (
        f"p=0 must still draw once per candidate in every step (3, then 1, then 1): expected 5 draws, got {rng.taken}"
    )


@pytest.mark.concept("dropout-draws")
def test_p_one_still_draws_once_per_candidate(impl, returns):
    rng = RecordingRng([0.0, 0.5, 0.99])
    got = dropout(impl, returns, ("a", "b", "c", "d"), dict(CHAIN_RANKS), 1.0, rng)
    assert got == ("a", "b", "c", "d"), f"p=1 drops every candidate: expected ('a', 'b', 'c', 'd'), got {got}"
    assert rng.taken == 3, (
        f"p=1 must still draw once for each of the 3 first candidates: expected 3 draws, got {rng.taken}"
    )


@pytest.mark.concept("merge-no-overlap", "dropout-draws")
def test_overlapping_survivors_merge_left_to_right(impl, returns):
    rng = RecordingRng([0.9, 0.9, 0.9, 0.9])
    got = dropout(impl, returns, ("a", "a", "a"), {("a", "a"): 0}, 0.1, rng)
    assert got == ("aa", "a"), f"draws [0.9, 0.9, 0.9] at p=0.1: expected ('aa', 'a'), got {got}"
    rng = RecordingRng([0.0, 0.9, 0.0])
    got = dropout(impl, returns, ("a", "a", "a"), {("a", "a"): 0}, 0.1, rng)
    assert got == ("a", "aa"), f"draws [0.0, 0.9, 0.0] at p=0.1, first (a, a) dropped: expected ('a', 'aa'), got {got}"


@pytest.mark.concept("inputs-unchanged", "dropout-draws")
def test_the_callers_ranks_are_unchanged_after_dropping_and_merging(impl, returns):
    # Dropping a candidate is for this step only: an encoder that deletes dropped (or merged)
    # pairs from the caller's ranks changes this word's later steps and every later word.
    ranks = dict(SENNRICH_RANKS)
    # "newest" has three candidates, (n, e), (w, e) and (s, t</w>): all three draws drop them.
    got = dropout(impl, returns, marked("newest"), ranks, 0.5, RecordingRng([0.0, 0.0, 0.0]))
    assert got == ("n", "e", "w", "e", "s", "t</w>"), (
        f"every first-step candidate dropped: expected no merge, got {got}"
    )
    assert ranks == SENNRICH_RANKS, f"the caller's ranks changed:\nexpected {SENNRICH_RANKS}\ngot      {ranks}"
    got = dropout(impl, returns, marked("newest"), ranks, 0.5, RecordingRng([0.9] * 40))
    assert got == ("newest</w>",), (
        f"'newest' again with the same ranks, nothing dropped: expected ('newest</w>',), got {got}"
    )
    assert ranks == SENNRICH_RANKS, f"the caller's ranks changed:\nexpected {SENNRICH_RANKS}\ngot      {ranks}"


@pytest.mark.concept("dropout-draws")
def test_same_seed_gives_same_segmentation(impl, returns):
    for seed in range(20):
        a = dropout(impl, returns, marked("newestwidest"), dict(SENNRICH_RANKS), 0.3, random.Random(seed))
        b = dropout(impl, returns, marked("newestwidest"), dict(SENNRICH_RANKS), 0.3, random.Random(seed))
        assert a == b, f"seed {seed}, p=0.3 on 'newestwidest': two runs gave {a} and {b}"


@pytest.mark.concept("dropout-draws")
def test_segmentations_vary_across_seeds_and_keep_the_text(impl, returns):
    seen = set()
    for seed in range(60):
        got = dropout(impl, returns, marked("newest"), dict(SENNRICH_RANKS), 0.5, random.Random(seed))
        assert "".join(got) == "newest</w>", f"seed {seed}: pieces {got} do not spell 'newest</w>'"
        seen.add(got)
    assert len(seen) >= 3, f"p=0.5 over seeds 0..59 gave only {len(seen)} segmentations: {seen}"


class _CountingRng(random.Random):
    """A seeded ``random.Random`` that counts its ``random()`` calls (for the reference side)."""

    taken = 0

    def random(self) -> float:
        self.taken += 1
        return super().random()


REFERENCE_SEED = 1010


def reference_runs(ref) -> list[dict[str, object]]:
    """Random trained tables and words at p in {0, .1, .25, .5, .75, 1}, with the reference's
    result and its number of draws under ``random.Random(case)``."""
    rng = random.Random(REFERENCE_SEED)
    cases = []
    for case in range(90):
        ranks, alphabet = random_table(rng, ref)
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10)))
        p = rng.choice([0.0, 0.1, 0.25, 0.5, 0.75, 1.0])
        counting = _CountingRng(case)
        result = tuple(ref.apply_merges_dropout(marked(word), dict(ranks), p, counting))
        cases.append({"ranks": ranks, "symbols": marked(word), "p": p, "result": result, "draws": counting.taken})
    return cases


@pytest.mark.concept("dropout-draws", "merge-order")
def test_matches_reference_with_the_same_seed(impl, returns, reference_cases):
    for case, want in enumerate(reference_cases(reference_runs)):
        symbols, ranks, p = want["symbols"], want["ranks"], want["p"]
        rng = RecordingRng(seed=case)
        got = dropout(impl, returns, symbols, dict(ranks), p, rng)
        where = f"same seed, same draws and merges as the reference (one draw per candidate per step, lowest surviving rank merged): random case {case} (seed {REFERENCE_SEED}): apply_merges_dropout({symbols}, {ranks}, {p}, random.Random({case}))"
        assert got == want["result"], f"{where}:\nexpected {want['result']}\ngot      {got}"
        assert rng.taken == want["draws"], f"{where}: expected {want['draws']} draws of rng.random(), got {rng.taken}"


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (reference_runs,)
