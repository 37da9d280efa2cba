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
