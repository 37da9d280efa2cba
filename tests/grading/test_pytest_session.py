"""The grader's cheaper failure reports say exactly what pytest's own would, and the memo behind
them is never carried from the grading process into a sandbox."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

from grading_helpers import GOOD_SOURCE, declared

HELPER = """
def merge(pairs, depth=0):
    if depth < 3:
        return merge(pairs, depth + 1)
    raise ValueError(f"cannot merge {pairs!r}")


def count(text):
    return len(text) + 1
"""

TESTS = """
import pytest

import helper_mod


def test_plain_assert_with_a_message():
    got = helper_mod.count("abc")
    assert got == 3, f"expected 3, got {got}"


def test_a_statement_over_several_lines():
    assert (
        helper_mod.count("ab")
        == 2
    ), "two letters"


def test_an_error_deep_in_another_file():
    helper_mod.merge([("a", "b")])


class TestGrouped:
    def test_in_a_class(self):
        check = lambda value: value == 1  # noqa: E731
        assert check(2)


@pytest.mark.parametrize("n", [1, 2])
def test_parametrized(n):
    assert helper_mod.count("x" * n) == n


def test_passes():
    assert helper_mod.count("") == 1
"""

RUNNER = """
import json, sys
from pathlib import Path

import pytest

from tokdrill.grading.pytest_session import remember_source

folder = Path(sys.argv[1])
reports = []


class Collect:
    def pytest_runtest_logreport(self, report):
        if report.failed:
            reports.append([report.nodeid, report.longreprtext])


def run():
    reports.clear()
    args = [str(folder / "test_cases.py"), "-q", "-p", "no:cacheprovider", "--tb=short", "-c", "/dev/null",
            "--rootdir", str(folder), "-o", "pythonpath=" + str(folder)]
    sys.path.insert(0, str(folder))
    pytest.main(args, plugins=[Collect()])
    return list(reports)


plain = run()
for name in ("test_cases.py", "helper_mod.py"):
    remember_source((folder / name).read_text())
from _pytest._code import code as code_module, source as source_module
installed = source_module.findsource.__module__ == "tokdrill.grading.pytest_session"
cheaper = run()
print(json.dumps({"plain": plain, "cheaper": cheaper, "installed": installed}))
"""


def test_failure_reports_read_the_same_with_the_cheaper_lookups(tmp_path: Path) -> None:
    (tmp_path / "helper_mod.py").write_text(textwrap.dedent(HELPER))
    (tmp_path / "test_cases.py").write_text(textwrap.dedent(TESTS))
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(tmp_path)], capture_output=True, text=True, timeout=120, check=True
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["installed"], "the cheaper lookups were not installed"
    plain, cheaper = found["plain"], found["cheaper"]
    assert [name for name, _ in plain] == [
        "test_cases.py::test_plain_assert_with_a_message",
        "test_cases.py::test_a_statement_over_several_lines",
        "test_cases.py::test_an_error_deep_in_another_file",
        "test_cases.py::TestGrouped::test_in_a_class",
        "test_cases.py::test_parametrized[1]",
        "test_cases.py::test_parametrized[2]",
    ]
    assert "expected 3, got 4" in plain[0][1] and "cannot merge" in plain[2][1]
    assert "helper_mod.py" in plain[2][1]  # the traceback reaches into the second file
    assert _without_addresses(cheaper) == _without_addresses(plain)


def _without_addresses(reports: list[list[str]]) -> list[list[str]]:
    """The reports with object addresses (``at 0x7f...``, new in each run) blanked."""
    return [[name, re.sub(r"0x[0-9a-f]+", "0x", text)] for name, text in reports]


FORKED = """
import os

from tokdrill.grading.pytest_session import _ProcessMemo

memo = _ProcessMemo()
assert memo.get("key", lambda: "grader") == "grader"
assert memo.get("key", lambda: "again") == "grader"
read_end, write_end = os.pipe()
pid = os.fork()
if pid == 0:
    os.write(write_end, memo.get("key", lambda: "sandbox").encode())
    os._exit(0)
os.close(write_end)
child = os.read(read_end, 100).decode()
os.waitpid(pid, 0)
print(child, memo.get("key", lambda: "later"))
"""


def test_the_memo_starts_empty_in_a_forked_child() -> None:
    """A sandbox sees the hidden test files covered: what the grader learned about them must not
    carry over."""
    done = subprocess.run([sys.executable, "-c", FORKED], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["sandbox", "grader"]


FIXTURE_USERS = """
import pytest


def test_prints(impl, capsys):
    print(impl.count_pairs({}))
    assert capsys.readouterr().out == "{}\\n"


def test_writes_a_file(impl, tmp_path):
    (tmp_path / "pairs.txt").write_text(repr(impl.count_pairs({("a", "b"): 2})))
    assert (tmp_path / "pairs.txt").read_text() == "{('a', 'b'): 2}"
"""

PLUGINS_KEPT = """
import json, sys

from tokdrill.grading.pytest_session import SubmissionPlugin, open_session

kept = {}
for path in sys.argv[1:]:
    session = open_session([path], SubmissionPlugin())
    manager = session.config.pluginmanager
    kept[path] = sorted(name for name in ("capturemanager", "tmpdir", "unittest") if manager.get_plugin(name))
print(json.dumps(kept))
"""


def _with_conftest(folder: Path) -> None:
    shutil.copy(Path(__file__).parent / "fixtures" / "content" / "drills" / "hidden" / "conftest.py", folder)


def test_a_run_leaves_out_the_plugins_its_tests_do_not_use(tmp_path: Path) -> None:
    """Capture and temporary-folder support wrap every test phase; a drill whose tests use
    neither runs without them."""
    _with_conftest(tmp_path)
    users = tmp_path / "test_fixture_users.py"
    users.write_text(textwrap.dedent(FIXTURE_USERS))
    tiny = Path(__file__).parent / "fixtures" / "content" / "drills" / "hidden" / "test_tiny_pairs.py"
    done = subprocess.run(
        [sys.executable, "-c", PLUGINS_KEPT, str(tiny), str(users)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    kept = json.loads(done.stdout.strip().splitlines()[-1])
    assert kept == {str(tiny): [], str(users): ["capturemanager", "tmpdir"]}


def test_hidden_tests_that_use_capsys_and_tmp_path_still_pass(warm_grader, tmp_path: Path) -> None:
    _with_conftest(tmp_path)
    (tmp_path / "test_fixture_users.py").write_text(textwrap.dedent(FIXTURE_USERS))
    hidden = tmp_path / "test_fixture_users.py"
    drill = SimpleNamespace(
        id="fixture-users", symbols=("count_pairs",), hidden_tests=(hidden,), test_concepts=declared(hidden)
    )
    verdict = warm_grader.grade(drill, GOOD_SOURCE)
    assert [(t.name, t.outcome) for t in verdict.tests] == [
        ("test_fixture_users.py::test_prints", "passed"),
        ("test_fixture_users.py::test_writes_a_file", "passed"),
    ], verdict.tests
