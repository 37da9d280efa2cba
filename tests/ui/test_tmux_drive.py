"""Drive the real app in tmux (scripts/tmux_drive.py) at 80x24 and 120x36: leave a drill with Esc
before and after a submit, a restored draft's reference shown whole, scroll the failures, give up
with confirmation, restore after kill -9, typing while paused, typed answers across two cards
with PageDown to the model answer, a past interview date refused, a Browse search kept across an
opened card, a deck imported while the app runs, a setting changed and kept, a mock interview
round and the Mistakes screen."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "tmux_drive.py"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("size", ["80x24", "120x36"])
def test_a_person_lives_in_the_drill_and_review_screens_in_tmux(tmp_path: Path, size: str) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--size", size, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    screens = {p.stem.split("-", 2)[2]: p.read_text() for p in sorted(tmp_path.glob("*.txt"))}
    width, height = (int(n) for n in size.split("x"))
    for name, text in screens.items():
        lines = text.splitlines()
        assert len(lines) <= height and all(len(line) <= width for line in lines), name
    assert "New here?" in screens["today-first-run"]
    assert "✓ on track" in screens["drill-retype-mid"]
    assert "Up next" in screens["today-after-esc"]
    assert re.search(r"FAILED bytes-to-unicode: 0/\d+ tests passed", screens["drill-failed"])
    assert "AssertionError" in screens["drill-failed"]  # the first failure's cause, unscrolled
    assert screens["drill-failed-scrolled"] != screens["drill-failed"]
    assert "n / Esc  keep working" in screens["give-up-dialog"]
    assert "Your code is kept as a draft" in " ".join(screens["after-give-up"].split())
    assert "y restore it and keep its time" in screens["restore-dialog"]
    assert "# typed just before the crash" in screens["drill-restored"]
    assert "1  def bytes_to_unicode()" in screens["drill-restored-reference"]  # each line was checked whole
    assert "any typing resumes" in screens["drill-paused"] and "#pq" in screens["drill-resumed-by-typing"]
    if height <= 24:  # at 120x36 the card fits
        assert "Key points covered" not in screens["review-typed-pagedown"]
    assert "2020-01-01 has passed" in screens["interview-date-past"]
    assert "merge" in screens["browse-after-card"] and "card " in screens["browse-after-card"]
    assert "What made the Zyzzyva token" in screens["browse-imported-live"]
    for card in (1, 2):
        assert f"card {card} of" in screens[f"review-typed-{card}"]
        assert "Key points covered" in screens[f"review-typed-{card}"]
    assert "card 3 of" in screens["review-next-card-revealed"]
    assert "✓ saved" in screens["settings-saved"]
    assert re.search(r"New cards per day\s+7\b", screens["settings-after-restart"])
    assert "Question 1 of" in screens["mock-question"] and "Follow-up to question 1" in screens["mock-follow-up"]
    assert "Now scheduled" in screens["mock-scorecard-end"] and "Concepts missed" in screens["mock-scorecard-end"]
    assert "not fixed yet" in screens["mistakes"]
