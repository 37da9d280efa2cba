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
    assert {"name", "outcome", "message", "concepts"} == set(data["tests"][0])
    assert [t["outcome"] for t in data["tests"]] == ["passed"] * 3
    assert data["tests"][0]["concepts"] == ["pair-weighting", "pair-counting"]
    assert isinstance(data["seconds"], float)
    assert data["problem"] == "" and data["notice"] == ""
    assert any(p.startswith("user namespace") for p in data["protections"])


def test_syntax_error_exits_1_and_points_at_the_line(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text("def count_pairs(word_freqs)\n    return {}\n")
    assert run_check("tiny-pairs", str(path), "--json") == 1
    data = json.loads(capsys.readouterr().out)
    assert f"{path}, line 1, column 28" in data["problem"]  # the file as the user named it
    assert "submission.py" not in data["problem"]


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


def _check_process(path: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "tokdrill", "--content", str(CONTENT), "check", "tiny-pairs", str(path), *extra]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env)


def test_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "answer.py"
    os.mkfifo(fifo)  # nobody writes to it: reading it would block forever
    result = _check_process(fifo)
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"tokdrill check: {fifo} is not a regular file (a pipe, socket or device cannot be graded)"
    )


def test_a_device_is_refused_at_once():
    result = _check_process(Path("/dev/zero"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "/dev/zero is not a regular file" in result.stderr


def test_a_huge_file_is_refused_at_once(tmp_path):
    path = tmp_path / "huge.py"
    path.write_bytes(b"#" * (check_cmd.MAX_SOURCE_BYTES + 1))
    assert run_check("tiny-pairs", str(path)) == 2


def test_a_huge_file_message_is_one_line(tmp_path, capsys):
    path = tmp_path / "huge.py"
    path.write_bytes(b"#" * (check_cmd.MAX_SOURCE_BYTES + 1))
    run_check("tiny-pairs", str(path))
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path} is 1,048,577 bytes" in err


def test_a_file_with_a_byte_order_mark_passes_as_python_runs_it(tmp_path, capsys):
    path = tmp_path / "bom.py"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert subprocess.run([sys.executable, str(path)]).returncode == 0  # Python itself accepts it
    assert run_check("tiny-pairs", str(path)) == 0


def test_a_coding_line_is_honoured(tmp_path):
    path = tmp_path / "latin.py"
    path.write_bytes(b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + GOOD.encode())
    assert run_check("tiny-pairs", str(path)) == 0


def test_text_that_is_not_utf8_is_a_usage_error_naming_file_and_byte(tmp_path, capsys):
    path = tmp_path / "bad.py"
    path.write_bytes(b"x = 1\n\xff\n")
    assert run_check("tiny-pairs", str(path)) == 2
    err = capsys.readouterr().err
    assert f"{path} is not valid utf-8 text (byte 6)" in err


def test_a_folder_is_a_usage_error(tmp_path, capsys):
    assert run_check("tiny-pairs", str(tmp_path)) == 2
    assert "is a folder, not a Python file" in capsys.readouterr().err


def test_human_output_escapes_what_the_code_printed(tmp_path, capsys):
    path = tmp_path / "loud.py"
    path.write_text('print("\\x1b[2J cleared?")\n' + GOOD)
    assert run_check("tiny-pairs", str(path)) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2J cleared?" in out


def test_watch_shows_the_sandbox_note_only_once(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(GOOD)
    env = {**os.environ, "TOKDRILL_SANDBOX_REFUSE": "userns,landlock"}
    argv = [sys.executable, "-m", "tokdrill", "--content", str(CONTENT), "check", "tiny-pairs", str(path), "--watch"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, env=env)
    lines: list[str] = []
    try:
        for _ in range(2):
            while True:
                line = proc.stdout.readline()
                assert line, f"check --watch ended early (exit {proc.wait(timeout=30)}): {''.join(lines)}"
                lines.append(line)
                if line.startswith("watching for changes"):
                    break
            path.write_text(GOOD + "\n# saved\n")
            os.utime(path, (time.time() + 10 * len(lines), time.time() + 10 * len(lines)))
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = "".join(lines)
    assert text.count("PASSED tiny-pairs") == 2
    assert text.count("The sandbox is weak on this machine") == 1


def test_user_content_concepts_are_reported_and_collection_warnings_stay_quiet(tmp_path):
    hidden = tmp_path / "drills" / "hidden"
    hidden.mkdir(parents=True)
    (tmp_path / "drills" / "mine.yaml").write_text(
        (CONTENT / "drills" / "tiny-pairs.yaml").read_text().replace("id: tiny-pairs", "id: my-pairs")
    )
    (tmp_path / "concepts.yaml").write_text((CONTENT / "concepts.yaml").read_text())
    (hidden / "conftest.py").write_text(
        "import pytest\n\n@pytest.fixture\ndef impl(request):\n"
        "    return request.config.pluginmanager.get_plugin('tokdrill-submission').module\n"
    )
    (hidden / "test_tiny_pairs.py").write_text(
        "import pytest\n\n@pytest.mark.concept('pair-counting')\n@pytest.mark.unregistered_mark\n"
        "def test_empty(impl):\n    assert impl.count_pairs({}) == {}\n"
    )
    path = tmp_path / "mine.py"
    path.write_text(GOOD)
    argv = [sys.executable, "-m", "tokdrill", "--content", str(tmp_path), "check", "my-pairs", str(path), "--json"]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tests"][0]["concepts"] == ["pair-counting"]
    assert result.stderr == ""  # no warning about marks or assertion rewriting


def test_watch_does_not_grade_again_a_file_already_checked_unchanged(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(WRONG)
    assert _check_process(path).returncode == 1  # checked and recorded once
    argv = [sys.executable, "-m", "tokdrill", "--content", str(CONTENT), "check", "tiny-pairs", str(path), "--watch"]
    argv.append("--json")
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        note = proc.stderr.readline()
        assert "is unchanged since your last check; watching for changes" in note
        path.write_text(GOOD + "\n# fixed\n")
        os.utime(path, (time.time() + 5, time.time() + 5))
        verdict = json.loads(proc.stdout.readline())  # the first verdict is the changed file's
        assert verdict["passed"] is True
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
