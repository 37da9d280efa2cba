"""Walkthroughs come from the reference implementations running: watching them changes no result,
every step agrees with the reference's own answer, and bad input is a message."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.bpe import apply_merges, learn_merges
from reference_impl.unigram import viterbi_segment
from reference_impl.wordpiece import WordPieceTokenizer
from tokdrill.observe import Watch, WatchError, observe
from tokdrill.playground.steps import (
    ALGORITHMS,
    StepInputError,
    bpe_encoding,
    bpe_training,
    byte_mapping,
    viterbi,
    wordpiece,
)

WORDS = st.lists(st.text(alphabet="abcde", min_size=1, max_size=6), min_size=1, max_size=12)
CORPUS = "low low low low low lower lower newest newest newest newest newest newest widest widest widest"


def _freqs(words: list[str]) -> dict[tuple[str, ...], int]:
    return {(*w[:-1], w[-1] + "</w>"): n for w, n in Counter(words).items()}


@settings(max_examples=60, deadline=None)
@given(words=WORDS, merges=st.integers(0, 12))
def test_watching_learn_merges_changes_nothing(words: list[str], merges: int) -> None:
    watch = Watch("chosen", "learned.append(best)", lambda f: f["best"])
    watched, events = observe(learn_merges, _freqs(words), merges, watches=[watch])
    assert watched == learn_merges(_freqs(words), merges)
    assert [e.value for e in events] == watched


@settings(max_examples=60, deadline=None)
@given(words=WORDS, word=st.text(alphabet="abcde", min_size=1, max_size=8), merges=st.integers(0, 12))
def test_encoding_steps_end_at_the_references_answer(words: list[str], word: str, merges: int) -> None:
    walk = bpe_encoding(" ".join(words), word, merges)
    ranks = {p: r for r, p in enumerate(learn_merges(_freqs(words), merges))}
    expected = apply_merges((*word[:-1], word[-1] + "</w>"), ranks)
    assert walk.result == " ".join(expected)
    assert walk.steps[-1].lines[-1].endswith(" ".join(expected))


def test_training_steps_name_each_merge_and_its_count() -> None:
    walk = bpe_training(CORPUS, "", 10)
    merges = learn_merges(_freqs(CORPUS.split()), 10)
    merge_steps = [s for s in walk.steps if s.title.startswith("merge")]
    assert len(merge_steps) == len(merges) == 10
    for step, (a, b) in zip(merge_steps, merges):
        assert step.lines[0].startswith(f"merge {a!r} + {b!r} -> {a + b!r}")
        assert any(line.endswith("<- chosen") and f"{a!r} {b!r}" in line for line in step.lines)
    assert "2 pairs tie at 9, and ties go to the larger pair" in merge_steps[0].lines[0]
    assert walk.result == "merges: " + ", ".join(f"{a}+{b}" for a, b in merges)


def test_training_says_when_it_stops_early() -> None:
    walk = bpe_training("ab ab", "", 10)
    assert walk.steps[-1].title == "stop"
    assert walk.steps[-1].lines[0] == "no word has two symbols left: 1 merge learned, not 10"


def test_wordpiece_steps_try_longest_first() -> None:
    walk = wordpiece(CORPUS, "lowest", 40)
    tokenizer = WordPieceTokenizer()
    tokenizer.train(" ".join(CORPUS.split()), 40)
    assert walk.result == " ".join(tokenizer.tokenize_word("lowest"))
    tried = [s.lines[0] for s in walk.steps if s.title.startswith("position")]
    assert tried[0] == "try 'lowest': not in the vocabulary: try one shorter"
    assert any("in the vocabulary: take it" in line for line in tried)


def test_viterbi_steps_build_the_lattice_then_follow_back_pointers() -> None:
    walk = viterbi(CORPUS, "lowest", 0)
    titles = [s.title for s in walk.steps]
    assert titles.index("back-pointer") > titles.index("lattice end 6")
    pieces = walk.result.split(" (")[0].split()
    assert "".join(pieces) == "lowest"
    assert [s.lines[0].split(": ")[1] for s in walk.steps if s.title == "back-pointer"] == [
        repr(p) for p in reversed(pieces)
    ]


def test_viterbi_matches_the_reference_on_its_seed() -> None:
    from tokdrill.playground.steps import _seed_log_probs

    pieces, score = viterbi_segment("newest", _seed_log_probs(CORPUS))
    walk = viterbi(CORPUS, "newest", 0)
    assert walk.result == f"{' '.join(pieces)} (log p {score:.3f})"
    assert math.isfinite(score)


def test_byte_mapping_uses_the_reference_table() -> None:
    walk = byte_mapping("", "hi é", 0)
    assert walk.steps[0].lines == ("text 'hi' -> UTF-8 bytes 68 69", "each byte as its printable stand-in: 'hi'")
    assert walk.steps[1].lines == ("text '·é' -> UTF-8 bytes 20 C3 A9", "each byte as its printable stand-in: 'ĠÃ©'")
    assert walk.result == "hi ĠÃ©"


@pytest.mark.parametrize("algorithm", [a for a in ALGORITHMS if a.uses_word and a.id != "bytes"], ids=lambda a: a.id)
def test_bad_input_is_a_message(algorithm: object) -> None:
    build = algorithm.build  # type: ignore[attr-defined]
    with pytest.raises(StepInputError, match="type one word"):
        build(CORPUS, "two words", 10)
    with pytest.raises(StepInputError, match="type a corpus"):
        build("   ", "word", 10)
    with pytest.raises(StepInputError, match="step through at most"):
        build("a " * 20_000, "word", 10)


def test_a_watched_line_that_is_not_there_is_named() -> None:
    with pytest.raises(WatchError, match="expected one line holding 'no such line'"):
        observe(learn_merges, {}, 1, watches=[Watch("x", "no such line", lambda f: None)])
