"""The reference side of the hidden tests' differential checks is built on the trusted side.

The shipped hidden tests list case builders in ``REFERENCE_CASES`` (see ``drills/hidden/conftest.py``):
under the grader they run at collection, in the grading process, before any sandbox is forked. A
submission that breaks ``reference_impl`` inside its sandbox therefore cannot change the answers
its own code is compared with, and each run only pays for the submission's side.
"""

from __future__ import annotations

import pytest

from tokdrill.content.loader import load_library
from tokdrill.content.reference import reference_source

SABOTAGE = """

import reference_impl as _ref
for _name in ("count_pairs", "merge_pair", "learn_merges", "apply_merges", "BPETokenizer"):
    setattr(_ref, _name, None)
"""


@pytest.fixture(scope="module")
def library():
    return load_library([])


def _retype_source(drill) -> str:
    imports = [line for line in drill.starter.splitlines() if line.startswith(("import ", "from "))]
    return "\n".join(imports) + "\n\n\n" + reference_source(drill.symbols)


@pytest.mark.parametrize("drill_id", ["bpe-train", "bpe-full"])
def test_reference_answers_exist_before_the_submission_runs(warm_grader, library, drill_id):
    drill = library.drills[drill_id]
    assert any(hasattr(m, "REFERENCE_CASES") for m in _hidden_modules(drill)), "no case builders to check"
    verdict = warm_grader.grade(drill, _retype_source(drill) + SABOTAGE)
    failed = [(t.name, t.message[:300]) for t in verdict.tests if t.outcome != "passed"]
    assert verdict.passed, (
        f"the submission's sabotage of reference_impl reached the reference answers: {failed or verdict.problem}"
    )


def test_a_wrong_submission_still_fails_the_differential_checks(warm_grader, library):
    drill = library.drills["bpe-train"]
    # Off by one in the merge count: only learn_merges' checks can see it.
    source = _retype_source(drill).replace("def learn_merges(", "def _right_learn_merges(") + (
        "\n\ndef learn_merges(word_freqs, num_merges):\n    return _right_learn_merges(word_freqs, num_merges + 1)\n"
    )
    verdict = warm_grader.grade(drill, source)
    failed = {t.name.split("::")[-1] for t in verdict.tests if t.outcome != "passed"}
    assert "test_learn_merges_matches_reference_on_random_corpora" in failed, f"failed: {sorted(failed)}"


def _hidden_modules(drill):
    import importlib.util

    for path in drill.hidden_tests:
        spec = importlib.util.spec_from_file_location(f"_peek_{abs(hash(path))}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module


TRIPWIRE = """

import reference_impl as _ref


def _tripwire(*args, **kwargs):
    raise RuntimeError("the reference ran inside the submission's run")


for _name in {names!r}:
    _thing = getattr(_ref, _name)
    if isinstance(_thing, type):
        for _attr, _value in list(vars(_thing).items()):
            if callable(_value) and not _attr.startswith("__"):
                setattr(_thing, _attr, _tripwire)
    else:
        setattr(_ref, _name, _tripwire)
"""


@pytest.mark.parametrize("drill_id", ["bpe-train-fast", "bpe-heap-encode", "token-healing"])
def test_the_reference_side_of_a_time_budget_is_measured_before_the_submission_runs(warm_grader, library, drill_id):
    """The drills that time the submission against the reference measure the reference once, on
    the trusted side: no submission's run spends its time (or its budget) running the reference."""
    drill = library.drills[drill_id]
    verdict = warm_grader.grade(drill, _retype_source(drill) + TRIPWIRE.format(names=list(drill.symbols)))
    failed = [(t.name, t.message[:300]) for t in verdict.tests if t.outcome != "passed"]
    assert verdict.passed, f"the reference ran in the submission's run: {failed or verdict.problem}"
