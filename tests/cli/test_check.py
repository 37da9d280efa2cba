"""`tokdrill check`: exit codes, human and JSON output, and --watch re-grading on save."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tokdrill.cli import add_common_arguments, check_cmd

CONTENT = Path(__file__).resolve().parents[1] / "grading" / "fixtures" / "content"
GOOD = """\
def count_pairs(word_freqs):
    counts = {}
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts
"""
WRONG = GOOD.replace("+ freq", "+ 1")


def run_check(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="tokdrill check")
    add_common_arguments(parser)
    check_cmd.add_arguments(parser)
    return check_cmd.run(parser.parse_args(["--content", str(CONTENT), *argv]))


@pytest.fixture()
def good_file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.py"
    path.write_text(GOOD)
    return path


def test_passing_file_exits_0_and_lists_each_test(good_file, capsys):
    assert run_check("tiny-pairs", str(good_file)) == 0
    out = capsys.readouterr().out
    assert "PASS  test_tiny_pairs.py::test_no_words_means_no_pairs" in out
    assert out.strip().splitlines()[-1].startswith("PASSED tiny-pairs: 3/3 tests passed in ")


def test_failing_file_exits_1_with_expected_and_got(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text(WRONG)
    assert run_check("tiny-pairs", str(path)) == 1
    out = capsys.readouterr().out
    assert "FAIL  test_tiny_pairs.py::test_pairs_are_weighted_by_word_frequency" in out
    assert "expected {('a', 'b'): 2, ('b', 'c'): 3}, got {('a', 'b'): 1, ('b', 'c'): 2}" in out
    assert "FAILED tiny-pairs: 2/3 tests passed (1 failed)" in out


def test_json_follows_the_contract(good_file, capsys):
    assert run_check("tiny-pairs", str(good_file), "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["drill"] == "tiny-pairs" and data["passed"] is True
    assert {"name", "outcome", "message"} == set(data["tests"][0])
    assert [t["outcome"] for t in data["tests"]] == ["passed"] * 3
    assert isinstance(data["seconds"], float)
    assert data["problem"] == ""
    assert "separate process" in data["protections"]


def test_syntax_error_exits_1_and_points_at_the_line(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text("def count_pairs(word_freqs)\n    return {}\n")
    assert run_check("tiny-pairs", str(path), "--json") == 1
    data = json.loads(capsys.readouterr().out)
    assert "submission.py, line 1, column 28" in data["problem"]


def test_unknown_drill_is_a_usage_error(good_file, capsys):
    assert run_check("no-such-drill", str(good_file)) == 2
    err = capsys.readouterr().err
    assert "unknown drill 'no-such-drill'" in err and "tiny-pairs" in err


def test_missing_file_is_a_usage_error(tmp_path, capsys):
    assert run_check("tiny-pairs", str(tmp_path / "absent.py")) == 2
    assert "no such file" in capsys.readouterr().err


def test_watch_regrades_on_save_and_ctrl_c_exits_0(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(WRONG)
    script = (
        "import argparse, sys\n"
        "from tokdrill.cli import add_common_arguments, check_cmd\n"
        "p = argparse.ArgumentParser(); add_common_arguments(p); check_cmd.add_arguments(p)\n"
        "sys.exit(check_cmd.run(p.parse_args(sys.argv[1:])))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, "--content", str(CONTENT), "tiny-pairs", str(path), "--watch", "--json"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        first = json.loads(proc.stdout.readline())
        assert first["passed"] is False
        time.sleep(0.05)
        path.write_text(GOOD + "\n# saved again\n")
        os.utime(path, (time.time() + 5, time.time() + 5))  # a new mtime even on coarse clocks
        second = json.loads(proc.stdout.readline())
        assert second["passed"] is True
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
