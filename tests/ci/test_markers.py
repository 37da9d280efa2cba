"""The markers tests/conftest.py gives by folder, module and fixture land where they should, so the
inner loop leaves out exactly the special kinds of test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = {"sandbox", "ui", "snapshot", "tmux", "fuzz", "ordinary_user", "slow"}
DUMP = """
def pytest_collection_finish(session):
    for item in session.items:
        kinds = sorted({mark.name for mark in item.iter_markers()} & {KINDS!r})
        print("KINDS", item.nodeid.split("[")[0], ",".join(kinds))
"""
# A test of each kind, and some of none: (node id without parameters) -> the kinds it must have.
EXPECTED = {
    "tests/grading/test_warm_grader.py::test_grades_from_several_threads_at_once": {"sandbox"},
    "tests/grading/test_report.py::test_control_characters_become_visible_escapes": set(),
    "tests/grading/test_decide.py::test_a_lost_supervisor_blames_the_grader": set(),
    "tests/cli/test_check.py::test_json_follows_the_contract": {"sandbox"},
    "tests/ui/test_snapshots.py::test_every_screen_at_80x24": {"snapshot", "ui"},
    "tests/ui/test_tmux_drive.py::test_a_person_lives_in_the_drill_and_review_screens_in_tmux": {"tmux", "slow"},
    "tests/progress/test_properties.py::test_a_valid_export_round_trips_exactly": {"fuzz"},
    "tests/progress/test_kill9.py::test_kill_9_during_an_import_is_all_or_nothing": {"slow"},
    "tests/content/test_cache.py::test_a_cache_file_someone_else_wrote_is_never_unpickled": {"ordinary_user"},
    "tests/grading/test_ordinary_user.py::test_check_as_an_ordinary_user_protects_their_home_and_data": {
        "ordinary_user",
        "sandbox",
    },
    "tests/content/test_loader.py::test_hidden_tests_next_to_the_drill_file_come_first": set(),
}


@pytest.mark.slow
def test_each_kind_of_test_gets_its_markers(tmp_path: Path) -> None:
    (tmp_path / "kinds_dump.py").write_text(DUMP.replace("{KINDS!r}", repr(KINDS)), encoding="utf-8")
    files = sorted({node.split("::")[0] for node in EXPECTED})
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "kinds_dump", *files],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    found: dict[str, set[str]] = {}
    for line in done.stdout.splitlines():
        if line.startswith("KINDS "):
            _, node, kinds = (line.split(" ", 2) + [""])[:3]
            found[node] = set(filter(None, kinds.split(",")))
    wrong = {node: (found.get(node), kinds) for node, kinds in EXPECTED.items() if found.get(node) != kinds}
    assert not wrong, f"node: (found, expected) {wrong}"
