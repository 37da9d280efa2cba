#!/usr/bin/env python3
"""Drive the real tokdrill app in tmux: bytes-to-unicode retyped and then written from memory,
both to a pass, then ten card reviews.

Usage: python scripts/tmux_drive.py [--out DIR] [--direct]

Starts ``python -m tokdrill`` in a detached tmux session (120x36) with TOKDRILL_HOME pointing at
a fresh temporary folder, types with ``tmux send-keys`` exactly as a person would, and saves
each screen as text (``tmux capture-pane``) to DIR (default: a temporary folder). Exit status
0 when every expected screen appeared; the saved screens are listed on stdout.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

WIDTH, HEIGHT = 120, 36
SESSION = f"tokdrill-drive-{os.getpid()}"
SOCKET = SESSION  # a private tmux server: other sessions' options and sizes do not leak in


class Drive:
    def __init__(self, out: Path, home: Path, direct: bool = False) -> None:
        self.direct = direct
        self.out = out
        self.home = home
        self.shots: list[Path] = []

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", SOCKET, "-f", os.devnull, *args], check=True, capture_output=True, text=True
        ).stdout

    def start(self) -> None:
        env = f"TOKDRILL_HOME={self.home} TERM=xterm-256color COLORTERM=truecolor"
        entry = "-m tokdrill"
        if self.direct:  # skip the CLI dispatcher: open the app through launch_app itself
            entry = (
                "-c 'import argparse, sys; from tokdrill.ui.launch import launch_app; "
                "sys.exit(launch_app(argparse.Namespace(data_dir=None, content=None)))'"
            )
        # tmux may hand the pane COLUMNS/LINES of a default 80x24 client: drop them so the app
        # asks the pane itself for its size
        cmd = f"env -u COLUMNS -u LINES {env} {sys.executable} {entry}"
        self.tmux("new-session", "-d", "-s", SESSION, "-x", str(WIDTH), "-y", str(HEIGHT), cmd)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", SESSION)

    def wait_for(self, text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if text in shown:
                time.sleep(0.15)  # let the frame finish painting
                return self.screen()
            if time.monotonic() > deadline:
                raise TimeoutError(f"{text!r} did not appear; the screen was:\n{shown}")
            time.sleep(0.1)

    def wait_until(self, ready: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if ready(shown):
                return shown
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what} did not appear; the screen was:\n{shown}")
            time.sleep(0.1)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", SESSION, *keys)

    def type_text(self, text: str) -> None:
        """Type ``text`` literally, line by line, pressing Enter between lines."""
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if line:
                self.tmux("send-keys", "-t", SESSION, "-l", line)
            if i < len(lines) - 1:
                self.keys("Enter")
            time.sleep(0.02)

    def type_with_auto_indent(self, lines: list[str], indent: str = "") -> None:
        """Type ``lines`` as a person would with auto-indent on: Enter keeps (or extends) the
        indentation, so only dedents need backspaces and only the code itself is typed."""
        from tokdrill.ui.widgets.code_editor import next_line_indent

        current = indent  # what the cursor's line already holds
        for i, line in enumerate(lines):
            code = line.lstrip(" ")
            want = len(line) - len(code)
            if i > 0:
                self.keys("Enter")
                current = next_line_indent(lines[i - 1])
            for _ in range(len(current) - want):
                self.keys("BSpace")
            if want > len(current):
                self.tmux("send-keys", "-t", SESSION, "-l", " " * (want - len(current)))
            self.tmux("send-keys", "-t", SESSION, "-l", code)
            time.sleep(0.02)

    def shot(self, name: str, must_show: str, settle: float = 0.6) -> str:
        self.wait_for(must_show)
        time.sleep(settle)  # Markdown renders in a worker and the footer updates when idle
        text = self.screen()
        path = self.out / f"{len(self.shots) + 1:02d}-{name}.txt"
        path.write_text(text)
        self.shots.append(path)
        return text

    def stop(self) -> None:
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)


OWN_SOLUTION = """    visible = [b for b in range(256) if 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255]
    table = {b: chr(b) for b in visible}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table"""


def _first_row(screen: str) -> str:
    """The first data row of the Browse table on ``screen`` ('' if there is none)."""
    lines = screen.splitlines()
    for i, line in enumerate(lines[:-1]):
        if "title / question" in line:
            return lines[i + 1].strip()
    return ""


def reference_code(drill_id: str) -> str:
    from tokdrill.content import load_library, reference_source

    return reference_source(load_library().drill(drill_id).symbols)


def mock_round(d: Drive) -> None:
    """From Today: a whole mock interview round (the drill submitted as its starter, so that it
    fails and its concepts are missed, then every question and follow-up answered), its
    scorecard, and the Mistakes screen. Ends back on Today."""
    d.keys("k")
    d.shot("mock-intro", "Mock interview")
    d.keys("C-s")  # the clock starts and the drill opens from memory
    d.wait_for("Give up")
    time.sleep(0.3)
    d.keys("C-s")  # the starter as it is: not yet
    d.shot("mock-drill-failed", "tests passed")
    d.keys("Escape")
    d.shot("mock-question", "Question 1 of")
    step = 0
    while True:
        shown = d.wait_until(lambda text: "Question" in text or "Follow-up" in text or "scorecard" in text, "a step")
        if "scorecard" in shown:
            break
        if step == 1:
            d.shot("mock-follow-up", "Follow-up to question 1")
        d.tmux("send-keys", "-t", SESSION, "-l", "Count pairs weighted by frequency, merge the best pair, repeat.")
        time.sleep(0.2)
        d.keys("C-s")
        step += 1
        time.sleep(0.4)
    d.shot("mock-scorecard", "scorecard")
    d.keys("End")  # the end of the scorecard: concepts missed, what is now scheduled
    d.shot("mock-scorecard-end", "Now scheduled")
    d.keys("Escape")
    d.wait_for("Up next")
    d.keys("m")
    d.shot("mistakes", "not fixed")
    d.keys("Escape")
    d.wait_for("Up next")


def drive(out: Path, direct: bool = False) -> list[Path]:
    home = Path(tempfile.mkdtemp(prefix="tokdrill-home-"))
    d = Drive(out, home, direct)
    d.start()
    try:
        d.shot("today-first-run", "New here?")
        d.keys("Enter")  # start the offered first drill
        d.shot("mode-choice", "From memory")
        d.keys("r")
        d.shot("drill-retype-start", "accuracy")
        d.keys("C-o")  # auto-indent off: the typed text carries its own indentation
        code = reference_code("bytes-to-unicode")
        lines = code.rstrip("\n").split("\n")
        half = len(lines) // 2
        d.type_text("\n".join(lines[:half]) + "\n")
        d.type_text("    oops")  # a deliberate slip, to see the divergence marked
        d.shot("drill-retype-divergence", "first divergence")
        for _ in range(len("    oops")):
            d.keys("BSpace")
        d.type_text("\n".join(lines[half:]))
        d.shot("drill-retype-typed", "on track")
        d.keys("C-s")
        d.shot("drill-passed", "Passed in")
        d.keys("Escape")
        d.shot("today-after-drill", "Up next")
        # the same drill from memory: find it in Browse, write an own version with auto-indent
        d.keys("F3")
        d.wait_for("shown")
        d.tmux("send-keys", "-t", SESSION, "-l", "unicode")  # type to search
        d.wait_for("unicode ")
        d.wait_until(lambda text: _first_row(text).startswith("drill  GPT-2 byte-to-unicode table"), "the drill on top")
        time.sleep(0.3)
        d.keys("Enter")  # to the table, first row: the drill
        time.sleep(0.3)
        d.keys("Enter")
        d.wait_for("From memory")
        d.keys("m")
        d.shot("drill-recall-start", "From memory")
        d.keys("Down", "Down", "End", "BSpace", "BSpace", "BSpace")  # replace the starter's `...`
        d.type_with_auto_indent(OWN_SOLUTION.split("\n"), indent="    ")
        time.sleep(0.3)
        d.keys("C-s")
        d.shot("drill-recall-passed", "Passed in")
        d.keys("Escape")
        d.wait_for("Browse")
        d.keys("Escape")
        d.wait_for("Up next")
        d.keys("F5")
        d.shot("review-question", "reveal the answer")
        d.keys("Space")
        d.shot("review-answer", "Rate your recall")
        d.keys("3")
        for i in range(9):
            d.wait_for(f"card {i + 2} of")
            d.keys("Space")
            d.wait_for("Rate your recall")
            d.keys("3" if i % 3 else "4")
        d.shot("review-done", "All done")
        d.keys("F4")
        d.shot("stats", "Decks")
        d.keys("F3")
        d.shot("browse", "shown")
        d.keys("F1")
        d.shot("help", "Keys")
        d.keys("Escape")
        mock_round(d)
        d.keys("C-q")
        time.sleep(0.5)
    finally:
        d.stop()
        shutil.rmtree(home, ignore_errors=True)
    return d.shots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder for the captured screens")
    parser.add_argument("--direct", action="store_true", help="open the app via launch_app, not `python -m tokdrill`")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is not installed", file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="tokdrill-screens-"))
    out.mkdir(parents=True, exist_ok=True)
    try:
        shots = drive(out, args.direct)
    except TimeoutError as exc:
        print(f"FAILED: {exc}", file=sys.stderr)
        return 1
    for path in shots:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
