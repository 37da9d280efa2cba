"""The first-divergence sentence: the first merge or step where a wrong answer leaves the
reference's, with the counts or ranks that decided it."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.bpe import apply_merges, count_pairs, learn_merges
from tokdrill.grading import divergence

CORPUS = {
    ("l", "o", "w</w>"): 5,
    ("l", "o", "w", "e", "r</w>"): 2,
    ("n", "e", "w", "e", "s", "t</w>"): 6,
    ("w", "i", "d", "e", "s", "t</w>"): 3,
}


def test_a_wrong_merge_is_named_with_both_counts() -> None:
    expected = learn_merges(CORPUS, 5)
    wrong = [*expected[:2], ("w", "e"), *expected[3:]]
    assert divergence.merges(CORPUS, wrong, expected) == (
        "merge 3: you merged ('w', 'e') (count 2); the reference merged ('l', 'o') (count 7)"
    )


def test_too_few_and_too_many_merges() -> None:
    expected = learn_merges(CORPUS, 5)
    assert divergence.merges(CORPUS, expected[:2], expected) == (
        "merge 3: you stopped after 2; the reference merged ('l', 'o') (count 7)"
    )
    assert divergence.merges(CORPUS, [*expected, ("x", "y")], expected) == (
        "merge 6: you merged ('x', 'y'); the reference made 5"
    )
    assert "you merged ('q', 'z') (not an adjacent pair then);" in str(
        divergence.merges(CORPUS, [("q", "z")], expected[:1])
    )


@settings(max_examples=50, deadline=None)
@given(st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=1, max_size=8), st.integers(1, 8))
def test_the_named_count_is_the_references_count_at_that_step(words: list[str], num: int) -> None:
    freqs = {tuple(w): i + 1 for i, w in enumerate(dict.fromkeys(words))}
    expected = learn_merges(freqs, num)
    if not expected:
        return
    wrong = list(reversed(expected)) if len(expected) > 1 else []
    found = divergence.merges(freqs, wrong, expected)
    assert (found is None) == (wrong == expected)
    if found and wrong and wrong[0] != expected[0]:
        assert f"(count {count_pairs(freqs)[expected[0]]})" in found


def test_correct_answers_have_no_divergence() -> None:
    expected = learn_merges(CORPUS, 6)
    assert divergence.merges(CORPUS, list(expected), expected) is None
    ranks = {p: r for r, p in enumerate(expected)}
    word = ("l", "o", "w", "e", "s", "t</w>")
    assert divergence.encoding(word, ranks, apply_merges(word, ranks)) is None
    assert divergence.sequence("token", [1, 2], [1, 2]) is None


def test_encoding_names_the_step_the_submission_stopped_at() -> None:
    expected = learn_merges(CORPUS, 5)
    ranks = {p: r for r, p in enumerate(expected)}
    word = ("l", "o", "w", "e", "s", "t</w>")
    assert divergence.encoding(word, ranks, ["l", "o", "w", "est</w>"]) == (
        "step 3: you stopped at ['l', 'o', 'w', 'est</w>']; the reference merged ('l', 'o') (rank 2) next"
    )


def test_sequences_and_the_marker_round_trip() -> None:
    found = divergence.sequence("piece", ["lo", "west"], ["low", "est"])
    assert found == "piece 1: you gave 'lo'; the reference gives 'low'"
    assert divergence.sequence("token", [1], [1, 2]) == "you gave 1 tokens; the reference gives 2"
    failure = "AssertionError: expected x\n" + divergence.sentence(found) + "\nassert ..."
    assert divergence.read(failure) == found
    assert divergence.read("no marker here") == ""


@pytest.mark.parametrize("name", sorted(divergence.EXPLAINERS))
def test_every_explainer_accepts_a_wrong_type_without_raising(name: str) -> None:
    args: tuple[object, ...] = (CORPUS, 3) if "learn" in name else (("a", "b"), {("a", "b"): 0})
    if name == "viterbi_segment":
        args = ("ab", {"a": -1.0, "b": -1.0})
    assert divergence.EXPLAINERS[name](args, 42, ([], 0.0) if name == "viterbi_segment" else []) is None


def _module(source: str) -> types.ModuleType:
    module = types.ModuleType("submission")
    exec(compile(source, "submission.py", "exec"), module.__dict__)
    return module


def test_the_recorder_keeps_outermost_calls_on_a_copy_of_the_arguments() -> None:
    module = _module(
        "def learn_merges(word_freqs, num_merges):\n"
        "    word_freqs.clear()\n"  # changes its argument: the copy is what the reference sees
        "    return inner(num_merges)\n"
        "def inner(n):\n"
        "    return [('q', 'z')] * n\n"
        "class apply_merges:\n"  # a class of a traced name is left alone
        "    pass\n"
    )
    recorder = divergence.CallRecorder()
    recorder.install(module)
    assert isinstance(module.apply_merges, type)
    freqs = dict(CORPUS)
    module.learn_merges(freqs, 2)
    assert freqs == {}
    ((name, args, result),) = recorder.calls
    assert (name, args[0], result) == ("learn_merges", CORPUS, [("q", "z"), ("q", "z")])
    assert recorder.explain() == (
        "merge 1: you merged ('q', 'z') (not an adjacent pair then); the reference merged ('s', 't</w>') (count 9)"
    )


def test_a_right_answer_or_an_odd_one_explains_nothing() -> None:
    module = _module(
        "import reference_impl\n"
        "def learn_merges(word_freqs, num_merges):\n"
        "    return reference_impl.learn_merges(word_freqs, num_merges)\n"
        "class Weird:\n"
        "    def __eq__(self, other):\n"
        "        raise RuntimeError('no')\n"
        "def apply_merges(symbols, ranks):\n"
        "    return Weird()\n"
    )
    recorder = divergence.CallRecorder()
    recorder.install(module)
    module.learn_merges(CORPUS, 3)
    assert recorder.explain() is None
    module.apply_merges(("a", "b"), {("a", "b"): 0})
    assert recorder.explain() is None


WRONG_TIE_BREAK = "_, best = max((count, pair) for pair, count in counts.items())"


@pytest.mark.sandbox
def test_a_wrong_trainer_is_told_its_first_diverging_merge(grader, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from tokdrill.content import load_library
    from tokdrill.content.reference import reference_source

    drill = load_library().drill("bpe-train")
    source = reference_source(drill.symbols)
    assert WRONG_TIE_BREAK in source
    wrong = source.replace(WRONG_TIE_BREAK, "best = max(counts, key=lambda p: (counts[p], tuple(reversed(p))))")
    verdict = grader.grade(drill, wrong)
    assert not verdict.passed
    found = {t.name.split("::")[1]: t.divergence for t in verdict.tests if t.outcome != "passed"}
    sennrich = found["test_learn_merges_sennrich_example_runs_until_pairs_are_exhausted"]
    assert sennrich == "merge 4: you merged ('e', 'w') (count 6); the reference merged ('w', 'est</w>') (count 6)"
    doc = verdict.to_json()
    assert any(t.get("first_divergence") == sennrich for t in doc["tests"])  # type: ignore[union-attr]
    assert all(t.divergence == "" for t in verdict.tests if t.outcome == "passed")
