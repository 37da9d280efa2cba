"""`tokdrill stats --plot` prints the Stats screen's charts to a plain terminal: as wide as the
terminal, in colour only on a terminal without NO_COLOR."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from factories import seed_practice

from tokdrill.cli import main
from tokdrill.cli.stats_cmd import use_colour
from tokdrill.clock import FixedClock
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import catalog_from_library
from tokdrill.scheduling.planner import Planner

DRILL = "bytes-to-unicode"
TITLES = ("time per attempt, target line", "retention per day", "Due per day, next 30 days", "Typing speed per retype")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with two weeks of practice ending now (the command runs on the real clock)."""
    from tokdrill.content.loader import load_library

    folder = tmp_path_factory.mktemp("data")
    catalog = catalog_from_library(load_library([]))
    clock = FixedClock(datetime.now(UTC) - timedelta(days=14))
    with Store.open(folder / "progress.sqlite3", clock=clock) as store:
        deck = catalog.decks["bpe"]
        seed_practice(Planner(store, clock), clock, DRILL, catalog.drill_targets[DRILL], deck[:8])
        store.set_interview_date((clock.now() + timedelta(days=10)).date())
    return folder


def test_plot_prints_every_chart_as_wide_as_the_terminal_without_escapes_when_piped(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "70")
    monkeypatch.setenv("LINES", "40")
    assert main(["--data-dir", str(data_dir), "stats", "--plot"]) == 0
    out = capsys.readouterr().out
    for title in TITLES:
        assert title in out
    assert "\x1b" not in out
    widths = [len(line) for line in out.splitlines()]
    assert max(widths) == 70
    assert "GPT-2 byte-to-unicode" in out and "✗" in out and "●" in out
    assert "interview" in out and "(vertical line)" in out


def test_plot_charts_the_drill_and_deck_asked_for(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["--data-dir", str(data_dir), "stats", "--plot", "--drill", "bpe-train", "--deck", "wordpiece"]) == 0
    out = capsys.readouterr().out
    assert "no attempts yet" in out and "no reviews in the last 30 days" in out
    assert "Typing speed per retype" in out  # the other charts are unchanged


def test_plot_names_an_unknown_drill_and_prints_nothing_else(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--data-dir", str(data_dir), "stats", "--plot", "--drill", "no-such-drill"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "--drill 'no-such-drill' is not a drill" in captured.err


def test_plot_and_json_cannot_be_asked_for_together(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--data-dir", str(data_dir), "stats", "--plot", "--json"])
    assert exit.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_plot_on_an_empty_history_says_what_each_chart_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--data-dir", str(tmp_path), "stats", "--plot"]) == 0
    out = capsys.readouterr().out
    assert "Drill times:" in out and "no attempts yet" in out
    assert "Typing speed: No typing speed yet" in out


class _Terminal:
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_without_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert use_colour(_Terminal())
    assert not use_colour(object())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(_Terminal())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not use_colour(_Terminal())


@pytest.mark.parametrize("no_color", [False, True])
def test_on_a_real_terminal_colour_follows_no_color(data_dir: Path, no_color: bool) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm-256color", "COLUMNS": "90"}
    if no_color:
        env["NO_COLOR"] = "1"
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "tokdrill", "--data-dir", str(data_dir), "stats", "--plot"],
        stdout=follower,
        stderr=subprocess.PIPE,
        env=env,
    ) as proc:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert proc.wait(timeout=120) == 0, proc.stderr.read() if proc.stderr else ""
    os.close(leader)
    out = b"".join(chunks).decode()
    assert "Typing speed per retype" in out
    assert ("\x1b[" in out) is not no_color
