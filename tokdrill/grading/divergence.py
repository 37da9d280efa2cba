"""Where a submission's run of a traced algorithm first leaves the reference's, in one sentence.

Inside the sandbox, :class:`CallRecorder` wraps the submission's traced functions and methods
(those in :data:`TRACED`) and keeps, for the test running, each outermost call's arguments and result.
When the test fails, the reference runs on the same arguments and the explainer names the first
step that differs: "merge 3: you merged ('e', 's') (count 5); the reference merged ('s', 't')
(count 7)". The sentence leads the failure text after :data:`MARKER` (so it passes through the
same caps as every message) and the verdict reads it back (:func:`read`).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from types import FunctionType, ModuleType
from typing import Any

from msgspec import Struct

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


def byte_table(got: object, expected: Mapping[int, str]) -> str | None:
    """The first byte value the submission's byte-to-unicode table maps otherwise (or leaves out)."""
    if not isinstance(got, dict):
        return None
    if not got:
        return f"your table is empty; the reference maps all {len(expected)} byte values"
    for byte, wanted in sorted(expected.items()):
        if byte not in got:
            return f"byte {byte} (0x{byte:02X}): you left it out; the reference maps it to {wanted!r}"
        if got[byte] != wanted:
            return f"byte {byte} (0x{byte:02X}): you map it to {_short(got[byte])}; the reference maps it to {wanted!r}"
    extra = sorted((k for k in got if k not in expected), key=repr)
    return f"you also map {_short(extra[0])}, which is not a byte value" if extra else None


WordPieceState = tuple[dict[str, int], str, str]  # vocab, continuation prefix, unknown token


def wordpiece_state(tokenizer: object) -> WordPieceState | None:
    """What a WordPiece tokenizer's answer depends on, copied at the call (None if it lacks it)."""
    vocab, prefix, unk = (getattr(tokenizer, name, None) for name in ("vocab", "prefix", "unk"))
    if not (isinstance(vocab, dict) and isinstance(prefix, str) and isinstance(unk, str)):
        return None
    return dict(vocab), prefix, unk


def _reference_wordpiece(state: WordPieceState) -> Any:
    from reference_impl.wordpiece import WordPieceTokenizer

    vocab, prefix, unk = state
    tokenizer = WordPieceTokenizer(unk_token=unk, prefix=prefix)
    tokenizer.vocab = dict(vocab)
    return tokenizer


def longest_match(state: WordPieceState, word: str, got: object) -> str | None:
    """The first piece where ``got`` leaves the reference's greedy longest match, named with the
    position it starts at and what the vocabulary held there."""
    from tokdrill.observe import Watch, observe

    if not isinstance(got, list):
        return None
    tokenizer = _reference_wordpiece(state)
    taken = Watch("taken", "pieces.append(candidate)", lambda f: (f["start"], f["candidate"]))
    expected, events = observe(tokenizer.tokenize_word, word, watches=[taken])
    if got == expected:
        return None
    pieces = [event.value for event in events]
    for number, (start, piece) in enumerate(pieces, start=1):
        mine = got[number - 1] if number <= len(got) else None
        if mine != piece:
            yours = "nothing more" if mine is None else _short(mine)
            return (
                f"piece {number} (from character {start} of {word!r}): the longest entry of the vocabulary "
                f"there is {piece!r}; you gave {yours}"
            )
    if expected == [tokenizer.unk]:
        stuck = pieces[-1][0] + len(pieces[-1][1]) - (len(tokenizer.prefix) if pieces[-1][0] else 0) if pieces else 0
        return (
            f"at character {stuck} of {word!r} no entry of the vocabulary matches, so the whole word is "
            f"{tokenizer.unk!r}; you gave {_short(got)}"
        )
    return f"the reference splits {word!r} into {len(expected)} pieces; you gave {_short(got)}"


class Traced(Struct, frozen=True):
    """A traced function of the drills: how the reference answers the same call (``replay``) and
    how a wrong answer is explained from the call's arguments. A method captures what its object's
    answer depends on (``capture``) in place of the object itself."""

    replay: Callable[[tuple[Any, ...]], object]
    explain: Callable[[tuple[Any, ...], object, object], str | None]
    capture: Callable[[object], object] | None = None


def _reference(name: str) -> Callable[[tuple[Any, ...]], object]:
    def replay(args: tuple[Any, ...]) -> object:
        import reference_impl

        return getattr(reference_impl, name)(*args)

    return replay


# The traced functions and methods of the drills, by name ("Class.method" for a method).
TRACED: dict[str, Traced] = {
    "learn_merges": Traced(_reference("learn_merges"), lambda args, got, expected: merges(args[0], got, expected)),  # type: ignore[arg-type]
    "learn_merges_fast": Traced(
        _reference("learn_merges_fast"),
        lambda args, got, expected: merges(args[0], got, expected),  # type: ignore[arg-type]
    ),
    "apply_merges": Traced(_reference("apply_merges"), lambda args, got, expected: encoding(args[0], args[1], got)),
    "viterbi_segment": Traced(
        _reference("viterbi_segment"),
        lambda args, got, expected: sequence(
            "piece",
            got[0] if isinstance(got, tuple) and got else got,
            expected[0],  # type: ignore[index]
        ),
    ),
    "bytes_to_unicode": Traced(_reference("bytes_to_unicode"), lambda args, got, expected: byte_table(got, expected)),  # type: ignore[arg-type]
    "WordPieceTokenizer.tokenize_word": Traced(
        lambda args: _reference_wordpiece(args[0]).tokenize_word(*args[1:]),
        lambda args, got, expected: longest_match(args[0], args[1], got),
        capture=wordpiece_state,
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
    """Entries in a call's arguments, counting those of a method's captured state."""
    total = 0
    for a in args:
        if isinstance(a, tuple):
            total += len(a) + sum(len(x) for x in a if isinstance(x, (dict, list)))
        else:
            total += len(a) if isinstance(a, (dict, list, str)) else 1
    return total


def _own_method(owner: type, method: str) -> Callable[..., object] | None:
    """The submission's own ``method`` as ``owner`` resolves it (its class may sit in front of
    the reference's); None when the reference's method or no plain function would run."""
    for klass in owner.__mro__:
        if method in vars(klass):
            found = vars(klass)[method]
            if klass.__module__.partition(".")[0] == "reference_impl" or not isinstance(found, FunctionType):
                return None
            return found
    return None


class CallRecorder:
    """The traced calls of one test: installed on the submission module, read when a test fails."""

    def __init__(self) -> None:
        self.calls: deque[Call] = deque(maxlen=MAX_CALLS)
        self._depth = 0

    def install(self, module: ModuleType) -> None:
        """Wrap each traced function the module defines, and each traced method its classes define
        (on the module's class: the reference's classes are never changed; other values, and a
        class of a traced function's name, are left alone)."""
        for name, traced in TRACED.items():
            owner_name, _, method = name.rpartition(".")
            if owner_name:
                owner = module.__dict__.get(owner_name)
                found = _own_method(owner, method) if isinstance(owner, type) else None
                if found is not None and traced.capture is not None:
                    setattr(owner, method, self._wrap(name, found, traced.capture))
            else:
                found = module.__dict__.get(name)
                if callable(found) and not isinstance(found, type):
                    setattr(module, name, self._wrap(name, found))

    def _wrap(
        self, name: str, function: Callable[..., object], capture: Callable[[object], object] | None = None
    ) -> Callable[..., object]:
        @functools.wraps(function)
        def traced(*args: object, **kwargs: object) -> object:
            if self._depth or kwargs:  # only the outermost call, with its arguments by position
                return function(*args, **kwargs)
            kept: tuple[object, ...] | None
            if capture is None:
                kept = tuple(_snapshot(a) for a in args)
            else:  # a method: what its object's answer depends on, in place of the object
                state = capture(args[0]) if args else None
                kept = None if state is None else (state, *(_snapshot(a) for a in args[1:]))
            self._depth += 1
            try:
                result = function(*args)
            finally:
                self._depth -= 1
            if kept is not None:
                self.calls.append((name, kept, result))
            return result

        return traced

    def explain(self) -> str | None:
        """The first recorded call whose result is not the reference's, explained; None if none
        (or if explaining fails: a sentence is a help, never a reason for a verdict)."""
        try:
            for name, args, got in self.calls:
                if _size(args) > MAX_ITEMS:
                    continue
                traced = TRACED[name]
                expected = traced.replay(args)
                if got == expected:
                    continue
                found = traced.explain(args, got, expected)
                if found:
                    return found
        except Exception:  # noqa: BLE001 - the submission's objects may do anything when compared
            return None
        return None
