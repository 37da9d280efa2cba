"""A deck folder's hidden tests, conftest and reference builder run only inside the sandbox: not
when content is validated, listed or shown, not when `tokdrill check` or the app's warm grader
grades against them, whoever runs tokdrill (root or an ordinary account) and whichever sandbox
this machine grants (user namespaces, or Landlock where they are refused). The verdict is still
decided by the grader, from the tests the deck's files declare."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from grading_helpers import as_ordinary_user, check_env, ordinary_env, ordinary_home, ordinary_uid
from hostile_deck import DRILL_ID, GOOD, TESTS, WRONG, HostileDeck

from tokdrill.content.loader import load_library
from tokdrill.grading import WarmGrader
from tokdrill.grading.mechanisms import REFUSE_ENV

PATHS = {"userns": {}, "landlock": {REFUSE_ENV: "userns"}}
ACCOUNTS = ("this account", pytest.param("ordinary account", marks=pytest.mark.ordinary_user))


@pytest.fixture()
def home() -> Iterator[Path]:
    """The home of whoever runs tokdrill, with a private file in it."""
    folder = ordinary_home()
    secret = folder / "secret.txt"
    secret.write_text("the user's secret\n")
    os.chmod(secret, 0o600)
    if os.getuid() == 0:
        os.chown(secret, ordinary_uid(), ordinary_uid())
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture()
def deck(home: Path) -> Iterator[HostileDeck]:
    made = HostileDeck(home / "secret.txt")
    yield made
    made.remove()


def _tokdrill(deck: HostileDeck, home: Path, account: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``tokdrill --content DECK ARGS...`` as ``account`` on the sandbox path ``env`` chooses."""
    argv = [sys.executable, "-m", "tokdrill", "--content", str(deck.folder), *args]
    if account == "ordinary account":
        if os.getuid() != 0:
            pytest.skip("already an ordinary account: the other case covers it")
        argv, environ = as_ordinary_user(argv), ordinary_env(home, **env)
    else:
        environ = check_env(**env)
        environ.update({"HOME": str(home), "TOKDRILL_HOME": str(home / "data")})
    return subprocess.run(argv, capture_output=True, text=True, env=environ, cwd=home, timeout=300)


def _answer(home: Path, source: str) -> Path:
    path = home / "answer.py"
    path.write_text(source)
    os.chmod(path, 0o644)
    return path


@pytest.mark.parametrize("account", ACCOUNTS)
def test_validating_listing_and_showing_a_deck_run_none_of_its_code(deck: HostileDeck, home: Path, account: str):
    for args in (("validate",), ("list", "--json"), ("show", DRILL_ID)):
        done = _tokdrill(deck, home, account, *args)
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    assert deck.written() == {}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("account", ACCOUNTS)
def test_check_runs_a_decks_code_only_in_the_sandbox_and_still_decides_right(
    deck: HostileDeck, home: Path, account: str, path: str
):
    for source, passes in ((GOOD, True), (WRONG, False)):
        done = _tokdrill(deck, home, account, "check", DRILL_ID, str(_answer(home, source)), "--json", **PATHS[path])
        assert deck.written() == {}
        assert done.returncode == (0 if passes else 1), done.stderr[-3000:]
        verdict = json.loads(done.stdout)
        assert verdict["passed"] is passes, verdict["problem"] or verdict["tests"]
        assert not verdict["internal"]
        assert tuple(t["name"] for t in verdict["tests"]) == TESTS
        outcomes = tuple(t["outcome"] for t in verdict["tests"])
        assert outcomes == (("passed",) * 3 if passes else ("failed", "failed", "passed"))  # no pairs: {} is right
        if path == "landlock":
            assert any(p.startswith("Landlock") for p in verdict["protections"]), verdict["protections"]


def test_run_from_inside_a_deck_its_modules_never_stand_in_for_tokdrills(deck: HostileDeck, home: Path):
    """``python -m tokdrill`` puts the current folder first on the import path; a deck's
    ``reference_impl.py`` or ``pytest.py`` there must not be what tokdrill imports."""
    deck.plant_modules()
    answer = _answer(home, GOOD)
    for args in (("validate",), ("show", DRILL_ID), ("check", DRILL_ID, str(answer))):
        argv = [sys.executable, "-m", "tokdrill", "--content", ".", *args]
        environ = check_env(HOME=str(home), TOKDRILL_HOME=str(home / "data"))
        done = subprocess.run(argv, capture_output=True, text=True, env=environ, cwd=deck.folder, timeout=300)
        assert deck.written() == {}
        assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])


@pytest.mark.parametrize("path", sorted(PATHS))
def test_the_warm_grader_collects_a_decks_tests_only_in_the_sandbox(
    deck: HostileDeck, path: str, monkeypatch: pytest.MonkeyPatch
):
    for name, value in PATHS[path].items():
        monkeypatch.setenv(name, value)
    drill = load_library([deck.folder]).drills[DRILL_ID]
    with WarmGrader() as grader:
        assert grader.preload([drill]) == []  # what the app does on the first keystroke
        right, wrong = grader.grade(drill, GOOD), grader.grade(drill, WRONG)
    assert deck.written() == {}
    assert right.passed and not wrong.passed and not wrong.internal
    assert [t.name for t in wrong.tests] == list(TESTS)
    weighted = wrong.tests[1]
    assert weighted.outcome == "failed" and weighted.message.startswith("test_deck_pairs.py::test_pairs_are_weighted[")
    assert weighted.concepts == ("deck-pair-weighting",)  # the concepts the files declare


def test_a_submission_cannot_add_tests_or_overturn_a_failure(deck: HostileDeck):
    """The grader counts results for the declared tests only, and a failure stands: a submission
    that reports made-up tests, or passes after the real failures, changes nothing."""
    forge = (
        "import gc\n"
        "from tokdrill.grading.protocol import Reporter\n"
        "def count_pairs(word_freqs):\n"
        "    for r in [o for o in gc.get_objects() if isinstance(o, Reporter)]:\n"
        "        r.send('result', name='test_deck_pairs.py::test_extra', outcome='passed', message='')\n"
        "        r.send('result', name='test_deck_pairs.py::test_pairs_are_weighted[9]', outcome='passed', message='')\n"
        "    return {}\n"
    )
    drill = load_library([deck.folder]).drills[DRILL_ID]
    with WarmGrader() as grader:
        verdict = grader.grade(drill, forge)
    assert not verdict.passed
    assert [t.name for t in verdict.tests] == list(TESTS)
    assert {t.name: t.outcome for t in verdict.tests}["test_deck_pairs.py::test_pairs_are_weighted"] == "failed"


def test_a_deck_whose_declared_tests_do_not_collect_says_so(deck: HostileDeck, tmp_path: Path):
    """Declared by the file, but pytest does not collect it (a test class with ``__init__``):
    a problem of the deck, named, never a pass."""
    hidden = deck.folder / "drills" / "hidden" / "test_deck_pairs.py"
    hidden.write_text(
        hidden.read_text().replace("class TestEdges:", "class TestEdges:\n    def __init__(self):\n        pass\n")
    )
    drill = load_library([deck.folder]).drills[DRILL_ID]
    with WarmGrader() as grader:
        verdict = grader.grade(drill, GOOD)
    assert not verdict.passed and verdict.internal
    assert "pytest does not collect these declared tests: test_deck_pairs.py::TestEdges::" in verdict.problem
    assert deck.written() == {}


def test_a_deck_whose_conftest_does_not_import_names_the_deck_file(deck: HostileDeck):
    conftest = deck.folder / "drills" / "hidden" / "conftest.py"
    conftest.write_text(conftest.read_text() + "\nimport no_such_module_in_any_sandbox\n")
    drill = load_library([deck.folder]).drills[DRILL_ID]
    with WarmGrader() as grader:
        verdict = grader.grade(drill, GOOD)
    assert not verdict.passed and verdict.internal
    assert "the drill's hidden tests cannot grade: pytest stopped before" in verdict.problem
    assert f"ImportError while loading conftest '{conftest}'" in verdict.problem
    assert "Traceback" not in verdict.problem
    assert deck.written() == {}
