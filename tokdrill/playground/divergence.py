"""Where a submission's run of a traced algorithm first leaves the reference's, in one sentence.

The hidden tests' support records what the submission returned for a traced function and the
arguments it was given; on a failed test these functions replay the reference on the same input
and name the first step that differs: "merge 3: you merged ('e', 's') (count 5); the reference
merged ('s', 't') (count 7)". They run where the tests run (inside the sandbox), on plain data.
The sentence travels in the failure text after :data:`MARKER`, which the grader reads back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

MARKER = "first divergence: "
MAX_SENTENCE = 300

Pair = tuple[str, str]


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:55] + "...)"


def merges(word_freqs: Mapping[tuple[str, ...], int], got: object, expected: Sequence[Pair]) -> str | None:
    """The first merge where ``got`` differs from ``expected``, with both pairs' counts in the
    corpus as it stood then (the merges before it agree, so the corpus is the same for both)."""
    from reference_impl.bpe import count_pairs, merge_pair

    if not isinstance(got, (list, tuple)):
        return None
    words: dict[tuple[str, ...], int] = dict(word_freqs)
    for number, wanted in enumerate(expected, start=1):
        counts = count_pairs(words)
        if number > len(got):
            return f"merge {number}: you stopped after {len(got)}; the reference merged {wanted!r} (count {counts[wanted]})"
        mine = got[number - 1]
        if mine != wanted:
            yours = (
                f"(count {counts[mine]})"
                if isinstance(mine, tuple) and mine in counts
                else "(not an adjacent pair then)"
            )
            return (
                f"merge {number}: you merged {_short(mine)} {yours}; "
                f"the reference merged {wanted!r} (count {counts[wanted]})"
            )
        rewritten: dict[tuple[str, ...], int] = {}
        for word, freq in words.items():
            merged = merge_pair(word, wanted)
            rewritten[merged] = rewritten.get(merged, 0) + freq
        words = rewritten
    if len(got) > len(expected):
        return f"merge {len(expected) + 1}: you merged {_short(got[len(expected)])}; the reference made {len(expected)}"
    return None


def encoding(symbols: Sequence[str], ranks: Mapping[Pair, int], got: object) -> str | None:
    """The first merge of rank-ordered encoding that ``got`` does not reflect: the reference's
    state after each merge is compared with what the submission returned."""
    from reference_impl.bpe import apply_merges
    from tokdrill.playground.observe import Watch, observe

    step = Watch("merged", "current = merge_pair(", lambda f: (min(f["present"]), tuple(f["current"])))
    result, events = observe(apply_merges, tuple(symbols), dict(ranks), watches=[step])
    if not isinstance(got, (list, tuple)) or tuple(got) == tuple(result):
        return None
    before = tuple(symbols)
    for number, event in enumerate(events, start=1):
        (rank, pair), after = event.value
        if tuple(got) == before:
            return f"step {number}: you stopped at {_short(list(before))}; the reference merged {pair!r} (rank {rank}) next"
        before = after
    return f"from {_short(list(symbols))} the reference gives {_short(list(result))}; you returned {_short(got)}"


def sequence(what: str, got: object, expected: Sequence[Any]) -> str | None:
    """The first position where two sequences of tokens, pieces or ids differ."""
    if not isinstance(got, (list, tuple)):
        return None
    for number, (mine, wanted) in enumerate(zip(got, expected), start=1):
        if mine != wanted:
            return f"{what} {number}: you gave {_short(mine)}; the reference gives {wanted!r}"
    if len(got) != len(expected):
        return f"you gave {len(got)} {what}s; the reference gives {len(expected)}"
    return None


# The traced functions of the drills, by name: each explains a wrong answer from its arguments.
EXPLAINERS: dict[str, Callable[[tuple[Any, ...], object, object], str | None]] = {
    "learn_merges": lambda args, got, expected: merges(args[0], got, expected),  # type: ignore[arg-type]
    "learn_merges_fast": lambda args, got, expected: merges(args[0], got, expected),  # type: ignore[arg-type]
    "apply_merges": lambda args, got, expected: encoding(args[0], args[1], got),
    "viterbi_segment": lambda args, got, expected: sequence(
        "piece",
        got[0] if isinstance(got, tuple) and got else got,
        expected[0],  # type: ignore[index]
    ),
}


def sentence(text: str) -> str:
    """``text`` as the marked line the grader reads back (capped)."""
    return MARKER + text[:MAX_SENTENCE]


def read(message: str) -> str:
    """The divergence sentence in a failure text, or ''."""
    for line in message.splitlines():
        start = line.find(MARKER)
        if start >= 0:
            return line[start + len(MARKER) :][:MAX_SENTENCE]
    return ""
