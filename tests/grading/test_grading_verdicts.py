"""Ordinary verdicts: the reference passes, wrong code fails with expected vs got, syntax errors
and missing symbols point at the user's file, and tokdrill's own failures are called internal."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest
from grading_helpers import GOOD_SOURCE, declared

from tokdrill.grading import grade


def test_correct_code_passes_every_test(warm_grader, tiny_drill):
    verdict = warm_grader.grade(tiny_drill, GOOD_SOURCE)
    assert verdict.passed, verdict.problem
    assert [t.outcome for t in verdict.tests] == ["passed"] * 3
    assert verdict.tests[0].name == "test_tiny_pairs.py::test_pairs_are_weighted_by_word_frequency"
    assert verdict.problem == ""


def test_reference_module_passes_when_graded_cold(tiny_drill):
    verdict = grade(
        tiny_drill, "from reference_impl import count_pairs as _c\n\ndef count_pairs(w):\n    return _c(w)\n"
    )
    assert verdict.passed, verdict.problem


def test_wrong_code_fails_with_expected_and_actual_values(warm_grader, tiny_drill):
    wrong = GOOD_SOURCE.replace("+ freq", "+ 1")
    verdict = warm_grader.grade(tiny_drill, wrong)
    assert not verdict.passed
    first = verdict.tests[0]
    assert first.outcome == "failed"
    assert "expected {('a', 'b'): 2, ('b', 'c'): 3}, got {('a', 'b'): 1, ('b', 'c'): 2}" in first.message
    assert [t.outcome for t in verdict.tests[1:]] == ["passed", "passed"]


def test_syntax_error_names_line_and_column_in_the_editor(warm_grader, tiny_drill):
    verdict = warm_grader.grade(tiny_drill, "x = 1\ndef count_pairs(word_freqs:\n    return {}\n")
    assert not verdict.passed
    assert "editor, line 2, column 16" in verdict.problem
    assert "SyntaxError" in verdict.problem
    assert all(t.outcome == "error" for t in verdict.tests)


def test_import_error_names_the_line(warm_grader, tiny_drill):
    verdict = warm_grader.grade(tiny_drill, "import os\nimport no_such_module_here\n" + GOOD_SOURCE)
    assert "editor, line 2" in verdict.problem
    assert "ModuleNotFoundError: No module named 'no_such_module_here'" in verdict.problem


@pytest.mark.parametrize(
    ("source", "where"),
    [("x = 1\x00\n", "line 1, column 6"), ("x = 1\ny = [\n  2,\x00 3]\n", "line 3, column 5")],
)
def test_a_nul_character_is_a_syntax_error_at_its_place(warm_grader, tiny_drill, source, where):
    """Python refuses a NUL in source, some releases without saying where (or as a ValueError)."""
    verdict = warm_grader.grade(tiny_drill, source + GOOD_SOURCE)
    assert f"your code failed to import (editor, {where}): SyntaxError: " in verdict.problem
    assert "null bytes" in verdict.problem


def test_missing_symbol_is_named_and_fails(warm_grader, tiny_drill):
    verdict = warm_grader.grade(tiny_drill, "def helper():\n    return 1\n")
    assert not verdict.passed
    assert "`count_pairs` is not defined in your code" in verdict.problem


def test_empty_file_never_passes(warm_grader, tiny_drill):
    assert not warm_grader.grade(tiny_drill, "").passed


def test_broken_hidden_tests_are_an_internal_error(warm_grader, tmp_path):
    broken = tmp_path / "test_broken.py"
    broken.write_text("def test_x(impl):\n    assert (\n")
    drill = SimpleNamespace(id="broken", symbols=("count_pairs",), hidden_tests=(broken,))
    verdict = warm_grader.grade(drill, GOOD_SOURCE)
    assert not verdict.passed
    assert verdict.internal
    assert "not a problem with your code" in verdict.problem


def test_verdict_lists_active_protections(grader, tiny_drill):
    verdict = grader.grade(tiny_drill, GOOD_SOURCE)
    protections = verdict.protections
    assert any(p.startswith("separate process in its own session") for p in protections)
    assert any(p.startswith("user namespace: an unprivileged id") for p in protections)
    assert any(p.startswith("read-only file system; a private /tmp") for p in protections)
    assert any(p.startswith("scrubbed environment") for p in protections)
    assert any(p.startswith("rlimits: cpu") and "processes 32 (this sandbox's own)" in p for p in protections)
    assert "wall-clock limit 10 s" in protections
    assert not any(p.startswith("NOT protected") for p in protections)
    assert verdict.notice == ""


def test_each_result_names_the_concepts_its_test_checks(grader, tiny_drill):
    verdict = grader.grade(tiny_drill, GOOD_SOURCE.replace("+ freq", "+ 1"))
    assert [t.concepts for t in verdict.tests] == [("pair-weighting", "pair-counting"), ("pair-counting",), ()]
    assert verdict.to_json()["tests"][0]["concepts"] == ["pair-weighting", "pair-counting"]


@pytest.mark.parametrize("source", ["def count_pairs(word_freqs:\n", "def helper():\n    return 1\n"])
def test_tests_that_never_ran_name_no_concepts(grader, tiny_drill, source):
    """Code that does not import, or lacks a symbol, was checked on no concept: none is failed."""
    verdict = grader.grade(tiny_drill, source)
    assert [t.outcome for t in verdict.tests] == ["error"] * 3
    assert [t.concepts for t in verdict.tests] == [(), (), ()]


def test_concepts_come_from_the_graders_collection_not_the_submission(warm_grader, tiny_drill):
    body = """
import gc, json, os
from tokdrill.grading.protocol import Reporter
for thing in gc.get_objects():
    if isinstance(thing, Reporter):
        line = {"n": thing._nonce, "k": "result", "name": "test_tiny_pairs.py::test_one_symbol_words_have_no_pairs",
                "outcome": "passed", "message": "", "concepts": ["forged"]}
        os.write(thing._fd, json.dumps(line).encode() + b"\n")
"""
    verdict = warm_grader.grade(tiny_drill, body + GOOD_SOURCE)
    assert all("forged" not in t.concepts for t in verdict.tests)


def test_messages_name_the_file_as_the_user_knows_it(warm_grader, tiny_drill):
    verdict = warm_grader.grade(tiny_drill, "x = 1\nraise ValueError('nope')\n", filename="work/mine.py")
    assert "your code failed to import (work/mine.py, line 2" in verdict.problem
    assert "submission.py" not in verdict.problem
    failing = "def count_pairs(word_freqs):\n    return 1 / 0\n"
    verdict = warm_grader.grade(tiny_drill, failing, filename="work/mine.py")
    assert 'work/mine.py", line 2' in verdict.tests[0].message or "work/mine.py:2" in verdict.tests[0].message


def test_user_output_is_kept_for_display(warm_grader, tiny_drill):
    verdict = warm_grader.grade(tiny_drill, "print('hello from import')\n" + GOOD_SOURCE)
    assert verdict.passed
    assert "hello from import" in verdict.output


def test_each_content_folder_gets_its_own_conftest_and_tests(warm_grader, tiny_drill, tmp_path):
    # Same file names as the tiny drill, different fixtures: `impl` is pinned to a fake module.
    (tmp_path / "conftest.py").write_text(
        "import types\nimport pytest\n\n@pytest.fixture\ndef impl():\n"
        "    return types.SimpleNamespace(count_pairs=lambda w: {'fake': 1})\n"
    )
    (tmp_path / "test_tiny_pairs.py").write_text(
        "def test_sees_the_fake(impl):\n    assert impl.count_pairs({}) == {'fake': 1}\n"
    )
    other = SimpleNamespace(
        id="other",
        symbols=("count_pairs",),
        hidden_tests=(tmp_path / "test_tiny_pairs.py",),
        test_concepts=declared(tmp_path / "test_tiny_pairs.py"),
    )
    assert warm_grader.grade(tiny_drill, GOOD_SOURCE).passed
    assert warm_grader.grade(other, GOOD_SOURCE).passed
    assert warm_grader.grade(tiny_drill, GOOD_SOURCE).passed


def test_an_edited_hidden_test_is_collected_again(warm_grader, tmp_path):
    test_file = tmp_path / "test_edited.py"
    test_file.write_text("def test_one(impl):\n    assert impl.count_pairs({}) == {}\n")
    drill = SimpleNamespace(id="edited", symbols=("count_pairs",), hidden_tests=(test_file,))
    drill.test_concepts = declared(test_file)
    assert [t.name for t in warm_grader.grade(drill, GOOD_SOURCE).tests] == ["test_edited.py::test_one"]
    test_file.write_text("def test_two(impl):\n    assert impl.count_pairs({}) == {}\n")
    os.utime(test_file, ns=(test_file.stat().st_mtime_ns + 10**9,) * 2)
    drill.test_concepts = declared(test_file)  # content read again, as a reload does
    assert [t.name for t in warm_grader.grade(drill, GOOD_SOURCE).tests] == ["test_edited.py::test_two"]


def test_reprs_of_the_users_objects_name_their_code_not_an_internal_module(warm_grader, tiny_drill, tmp_path):
    source = "class Counts:\n    pass\n\ndef count_pairs(word_freqs):\n    raise ValueError(Counts())\n"
    from_editor = warm_grader.grade(tiny_drill, source)
    from_file = warm_grader.grade(tiny_drill, source, filename=str(tmp_path / "mine.py"))
    assert "<editor.Counts object at" in from_editor.tests[0].message
    assert "<mine.Counts object at" in from_file.tests[0].message
    assert not any("submission" in t.message for t in from_editor.tests + from_file.tests)
