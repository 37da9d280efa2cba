"""Shared fixtures for the grading tests: a tiny drill, the two ways to grade, a canary folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from grading_helpers import FORK_WARNINGS, HIDDEN_TEST, TINY_TESTS, CheckGrader

from tokdrill.grading import WarmGrader

collect_ignore = ["fixtures"]  # the fixture drill's hidden tests are graded, not collected
GRADING_TESTS = (Path(__file__).parent, Path(__file__).parents[1] / "cli")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deprecation warnings are errors in grading tests (and in the grading processes they start,
    see ``PYTHONWARNINGS`` in grading_helpers). Python 3.12's warning about forking a threaded
    process is the exception: CPython clears it even when a filter makes it an error, so the
    suite-wide guard in tests/conftest.py fails a test that forks beside other threads, and the
    grader itself refuses to (:mod:`tokdrill.grading.threads`)."""
    for item in items:
        if any(folder in item.path.parents for folder in GRADING_TESTS):
            item.add_marker(pytest.mark.filterwarnings("error::DeprecationWarning"))


@pytest.fixture(scope="session")
def tiny_drill() -> SimpleNamespace:
    """A Drill-like object: only the attributes grading reads."""
    return SimpleNamespace(
        id="tiny-pairs",
        symbols=("count_pairs",),
        hidden_tests=(HIDDEN_TEST,),
        test_concepts=TINY_TESTS,
        target_seconds=60,
    )


@pytest.fixture(scope="session")
def warm_grader() -> Iterator[WarmGrader]:
    old = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = FORK_WARNINGS  # the server process inherits it when it starts
    try:
        grader = WarmGrader()
    finally:
        if old is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = old
    with grader:
        yield grader


@pytest.fixture(scope="session")
def check_grader(tmp_path_factory: pytest.TempPathFactory) -> CheckGrader:
    return CheckGrader(tmp_path_factory.mktemp("check"))


@pytest.fixture(params=["warm", "check"])
def grader(request: pytest.FixtureRequest) -> WarmGrader | CheckGrader:
    """Both ways a submission is graded: the app's warm server, and a cold `tokdrill check`."""
    name = "warm_grader" if request.param == "warm" else "check_grader"
    found: WarmGrader | CheckGrader = request.getfixturevalue(name)
    return found


@pytest.fixture()
def canary() -> Iterator[Path]:
    """A folder of the user's, outside the sandbox's private /tmp, with one file in it."""
    base = "/var/tmp" if os.access("/var/tmp", os.W_OK) else None
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-canary-", dir=base))
    (folder / "keep.txt").write_text("canary\n")
    os.chmod(folder, 0o777)  # even world-writable: only the sandbox may stop the writes
    os.chmod(folder / "keep.txt", 0o666)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
