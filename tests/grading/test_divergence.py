"""The first-divergence sentence: the first merge or step where a wrong answer leaves the
reference's, with the counts or ranks that decided it."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.bpe import apply_merges, count_pairs, learn_merges
from reference_impl.byte_level import bytes_to_unicode
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


WORDPIECE_STATE = ({"un": 0, "u": 1, "##aff": 2, "##a": 3, "##ff": 4, "##able": 5, "##n": 6}, "##", "[UNK]")
ARGS: dict[str, tuple[object, ...]] = {
    "learn_merges": (CORPUS, 3),
    "learn_merges_fast": (CORPUS, 3),
    "apply_merges": (("a", "b"), {("a", "b"): 0}),
    "viterbi_segment": ("ab", {"a": -1.0, "b": -1.0}),
    "bytes_to_unicode": (),
    "WordPieceTokenizer.tokenize_word": (WORDPIECE_STATE, "unaffable"),
}


@pytest.mark.parametrize("name", sorted(divergence.TRACED))
def test_every_explainer_accepts_a_wrong_type_without_raising(name: str) -> None:
    traced = divergence.TRACED[name]
    expected = traced.replay(ARGS[name])
    assert traced.explain(ARGS[name], 42, expected) is None


def test_a_byte_table_is_told_its_first_wrong_byte() -> None:
    table = bytes_to_unicode()
    assert divergence.byte_table(dict(table), table) is None
    assert divergence.byte_table({**table, 32: " "}, table) == (
        "byte 32 (0x20): you map it to ' '; the reference maps it to 'Ġ'"
    )
    assert divergence.byte_table({k: v for k, v in table.items() if k}, table) == (
        "byte 0 (0x00): you left it out; the reference maps it to 'Ā'"
    )
    assert divergence.byte_table({**table, 256: "x"}, table) == "you also map 256, which is not a byte value"
    assert divergence.byte_table({}, table) == "your table is empty; the reference maps all 256 byte values"


def test_a_wordpiece_split_is_told_the_piece_that_was_not_the_longest_match() -> None:
    assert divergence.longest_match(WORDPIECE_STATE, "unaffable", ["un", "##aff", "##able"]) is None
    assert divergence.longest_match(WORDPIECE_STATE, "unaffable", ["un", "##a", "##ff", "##able"]) == (
        "piece 2 (from character 2 of 'unaffable'): the longest entry of the vocabulary there is '##aff'; "
        "you gave '##a'"
    )
    assert divergence.longest_match(WORDPIECE_STATE, "unaffablez", ["un", "##aff", "##able"]) == (
        "at character 9 of 'unaffablez' no entry of the vocabulary matches, so the whole word is '[UNK]'; "
        "you gave ['un', '##aff', '##able']"
    )
    assert divergence.longest_match(WORDPIECE_STATE, "xun", ["x"]) == (
        "at character 0 of 'xun' no entry of the vocabulary matches, so the whole word is '[UNK]'; you gave ['x']"
    )


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


def test_a_traced_method_is_replayed_on_its_objects_state_at_the_call() -> None:
    module = _module(
        "class WordPieceTokenizer:\n"
        "    def __init__(self):\n"
        "        self.vocab, self.prefix, self.unk = {}, '##', '[UNK]'\n"
        "    def tokenize_word(self, word):\n"  # shortest match first: wrong
        "        pieces, start = [], 0\n"
        "        while start < len(word):\n"
        "            marker = self.prefix if start else ''\n"
        "            for stop in range(start + 1, len(word) + 1):\n"
        "                if marker + word[start:stop] in self.vocab:\n"
        "                    pieces.append(marker + word[start:stop])\n"
        "                    start = stop\n"
        "                    break\n"
        "            else:\n"
        "                return [self.unk]\n"
        "        return pieces\n"
        "    def tokenize(self, text):\n"
        "        return [p for w in text.split() for p in self.tokenize_word(w)]\n"
    )
    recorder = divergence.CallRecorder()
    recorder.install(module)
    tokenizer = module.WordPieceTokenizer()
    tokenizer.vocab = dict(WORDPIECE_STATE[0])
    assert tokenizer.tokenize("unaff") == ["u", "##n", "##a", "##ff"]
    tokenizer.vocab.clear()  # changed after the call: the replay uses the vocabulary of the call
    ((name, args, _),) = recorder.calls
    assert name == "WordPieceTokenizer.tokenize_word" and args[0] == WORDPIECE_STATE
    assert recorder.explain() == (
        "piece 1 (from character 0 of 'unaff'): the longest entry of the vocabulary there is 'un'; you gave 'u'"
    )
    untraceable = module.WordPieceTokenizer()
    untraceable.vocab = {"un": 0}
    del untraceable.unk  # an object without the state the answer depends on is not recorded
    recorder.calls.clear()
    untraceable.tokenize_word("un")
    assert not recorder.calls


def test_the_references_own_classes_are_never_wrapped() -> None:
    import reference_impl

    before = reference_impl.WordPieceTokenizer.__dict__["tokenize_word"]
    module = _module("import reference_impl\nclass WordPieceTokenizer(reference_impl.WordPieceTokenizer):\n    pass\n")
    module.__dict__["Plain"] = reference_impl.WordPieceTokenizer
    divergence.CallRecorder().install(module)
    assert reference_impl.WordPieceTokenizer.__dict__["tokenize_word"] is before
    assert "tokenize_word" not in vars(module.WordPieceTokenizer)


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


@pytest.mark.sandbox
@pytest.mark.parametrize(
    ("drill_id", "right", "wrong", "found"),
    [
        (
            "wordpiece-tokenize-word",
            "for stop in range(len(word), start, -1):",
            "for stop in range(start + 1, len(word) + 1):",
            "the longest entry of the vocabulary there is",
        ),
        (
            "bytes-to-unicode",
            "(0xAE, 0xFF)",
            "(0xAD, 0xFF)",
            "byte 173 (0xAD): you map it to '\\xad'; the reference maps it to 'Ń'",
        ),
    ],
)
def test_wordpiece_and_the_byte_table_name_their_first_divergence(  # type: ignore[no-untyped-def]
    grader, drill_id: str, right: str, wrong: str, found: str
) -> None:
    from tokdrill.content import load_library
    from tokdrill.content.reference import reference_source

    drill = load_library().drill(drill_id)
    source = reference_source(drill.symbols)
    assert right in source
    verdict = grader.grade(drill, source.replace(right, wrong))
    failed = [t for t in verdict.tests if t.outcome != "passed"]
    assert failed and not verdict.passed
    assert any(found in t.divergence for t in failed), [t.divergence for t in failed]
