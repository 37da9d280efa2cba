"""Where a submission's run of a traced algorithm first leaves the reference's, in one sentence.

Inside the sandbox, :class:`CallRecorder` wraps the submission's traced functions (those in
:data:`EXPLAINERS`) and keeps, for the test running, each outermost call's arguments and result.
When the test fails, the reference runs on the same arguments and the explainer names the first
step that differs: "merge 3: you merged ('e', 's') (count 5); the reference merged ('s', 't')
(count 7)". The sentence leads the failure text after :data:`MARKER` (so it passes through the
same caps as every message) and the verdict reads it back (:func:`read`).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
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
    from tokdrill.observe import Watch, observe

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


MAX_CALLS = 16  # calls kept per test (the last ones)
MAX_ITEMS = 20_000  # a call whose arguments hold more entries is not replayed on the reference

Call = tuple[str, tuple[object, ...], object]


def _snapshot(value: object) -> object:
    """A shallow copy of a dict or list argument (their keys and items are immutable here), so a
    submission that changes its arguments cannot change what the reference is replayed on."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    return value


def _size(args: tuple[object, ...]) -> int:
    return sum(len(a) if isinstance(a, (dict, list, tuple, str)) else 1 for a in args)


class CallRecorder:
    """The traced calls of one test: installed on the submission module, read when a test fails."""

    def __init__(self) -> None:
        self.calls: deque[Call] = deque(maxlen=MAX_CALLS)
        self._depth = 0

    def install(self, module: ModuleType) -> None:
        """Wrap each traced function the module defines (classes and other values are left alone)."""
        for name in EXPLAINERS:
            found = module.__dict__.get(name)
            if callable(found) and not isinstance(found, type):
                setattr(module, name, self._wrap(name, found))

    def _wrap(self, name: str, function: Callable[..., object]) -> Callable[..., object]:
        @functools.wraps(function)
        def traced(*args: object, **kwargs: object) -> object:
            if self._depth or kwargs:  # only the outermost call, with its arguments by position
                return function(*args, **kwargs)
            kept = tuple(_snapshot(a) for a in args)
            self._depth += 1
            try:
                result = function(*args)
            finally:
                self._depth -= 1
            self.calls.append((name, kept, result))
            return result

        return traced

    def explain(self) -> str | None:
        """The first recorded call whose result is not the reference's, explained; None if none
        (or if explaining fails: a sentence is a help, never a reason for a verdict)."""
        try:
            import reference_impl

            for name, args, got in self.calls:
                if _size(args) > MAX_ITEMS:
                    continue
                expected = getattr(reference_impl, name)(*args)
                if got == expected:
                    continue
                found = EXPLAINERS[name](args, got, expected)
                if found:
                    return found
        except Exception:  # noqa: BLE001 - the submission's objects may do anything when compared
            return None
        return None
