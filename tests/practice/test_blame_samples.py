"""Classic mistakes blame their own concept and at most one other: the wrong samples of the
hidden tests (``tests/reference_impl/submissions``) graded as the app grades them, for the
drills whose concept tags were set against their samples."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path

import pytest

from tokdrill.practice.blame import blamed_concepts
from tokdrill.progress.records import TestOutcome

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "reference_impl"))
from sample_grading import discover, drill_spec, grade  # noqa: E402

DRILLS = (
    "bpe-dropout",
    "bpe-encode",
    "bpe-train-fast",
    "byte-fallback",
    "byte-level-bpe",
    "bytes-to-unicode",
    "canonical-tokenization",
    "special-token-safe-encode",
    "tiktoken-cl100k",
    "token-healing",
    "tokenizer-metrics",
    "unigram-em-prune",
    "viterbi-segment",
    "wordpiece-tokenize-word",
)


def tags(drill_id: str) -> dict[str, tuple[str, ...]]:
    """Test name -> its concept marks, for the drill's hidden test files."""
    out: dict[str, tuple[str, ...]] = {}
    for name in drill_spec(drill_id)["hidden_tests"]:  # type: ignore[union-attr]
        path = REPO / "drills" / "hidden" / str(name)
        spec = importlib.util.spec_from_file_location(f"_blame_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for test, func in inspect.getmembers(module, inspect.isfunction):
            if test.startswith("test_") and func.__module__ == module.__name__:
                marks = getattr(func, "pytestmark", [])
                out[test] = tuple(str(a) for m in marks if m.name == "concept" for a in m.args)
    return out


@pytest.mark.slow  # each drill's samples graded in a child process: seconds each
@pytest.mark.parametrize("drill_id", DRILLS)
def test_each_wrong_sample_blames_its_concept_and_at_most_one_other(drill_id: str) -> None:
    samples = [s for s in discover() if s.kind == "wrong" and drill_id in s.drills]
    assert samples, f"no wrong samples for {drill_id}"
    marks = tags(drill_id)
    records = grade(drill_id, {s.label: s.path.read_text(encoding="utf-8") for s in samples})
    problems = []
    for sample in samples:
        results = records[sample.label]["results"]
        tests = [TestOutcome(str(n), str(o), "", marks.get(str(n), ())) for n, o, _ in results]  # type: ignore[union-attr]
        blamed = {c for concepts in blamed_concepts(tests).values() for c in concepts}
        own = {c for test in sample.caught_by for c in marks.get(test, ())}
        if not blamed & own or len(blamed) > 2:
            problems.append(f"{sample.label} ({sample.note}): blames {sorted(blamed)}; its own: {sorted(own)}")
    assert not problems, "\n".join(problems)
