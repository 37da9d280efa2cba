"""Drive the real app in tmux (scripts/tmux_drive.py): one retype drill to a pass, ten reviews."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "tmux_drive.py"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_person_can_pass_a_drill_and_review_ten_cards_in_tmux(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    screens = {p.stem.split("-", 1)[1]: p.read_text() for p in sorted(tmp_path.glob("*.txt"))}
    assert "New here?" in screens["today-first-run"]
    assert "first divergence line" in screens["drill-retype-divergence"]
    passed = screens["drill-passed"]
    assert "Passed in" in passed and "under the 8:00 target" in passed
    assert "Passed in" in screens["drill-recall-passed"] and "--- your code" in screens["drill-recall-passed"]
    assert "Rate your recall" in screens["review-answer"]
    assert "You reviewed 10 cards" in screens["review-done"]
    assert "GPT-2 byte-to-unicode table" in screens["stats"]
    assert "drill.submit" in screens["help"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_mock_round_runs_end_to_end_in_tmux(tmp_path: Path) -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    import tmux_drive

    home = tmp_path / "home"
    drive = tmux_drive.Drive(tmp_path / "screens", home)
    drive.out.mkdir()
    drive.start()
    try:
        drive.wait_for("Up next")
        tmux_drive.mock_round(drive)
    finally:
        drive.stop()
    screens = {p.stem.split("-", 1)[1]: p.read_text() for p in drive.shots}
    assert "Question 1 of" in screens["mock-question"] and "Follow-up to question 1" in screens["mock-follow-up"]
    assert "not passed" in screens["mock-scorecard"] and "key points" in screens["mock-scorecard"]
    assert "Now scheduled" in screens["mock-scorecard-end"] and "Concepts missed" in screens["mock-scorecard-end"]
    assert "not fixed yet" in screens["mistakes"]
