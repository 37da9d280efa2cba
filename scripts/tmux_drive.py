#!/usr/bin/env python3
"""Drive the real tokdrill app in tmux as a person would, at 80x24 or 120x36, and check each screen.

Usage: python scripts/tmux_drive.py [--size 80x24|120x36] [--out DIR] [--direct]

Starts ``python -m tokdrill`` in a detached tmux session of the given size with TOKDRILL_HOME
pointing at a fresh temporary folder, types with ``tmux send-keys`` and reads the screen with
``tmux capture-pane``. One function per flow, run in order, each from Today back to Today:

- the first-run Today screen;
- a retype drill typed part way (the reference keeps the line being typed beside the cursor),
  left with Esc before any submit;
- the draft restored (y): every character of every reference line shows in the pane, paged
  through with alt+up and alt+down;
- the draft restored, a failing submit (failures visible), the results scrolled with ctrl+down
  and shift+PageUp while the editor keeps focus, then Esc after the submit;
- give up: F9, n keeps working with the code in place, F9 again and y gives up keeping the draft;
- restore after ``kill -9`` of the app mid-typing: the draft comes back after a restart;
- pause with ctrl+t, then typing resumes the clock and the keys go in;
- review with typed answers across two cards (typed mode does not carry over to the next card),
  the model answer under the key points and PageDown scrolling to the rest;
- a past interview date refused on Today;
- a Browse search round trip: a card opened from the results, the search and row kept on return;
- a deck imported with ``tokdrill import-anki`` while the app runs, found in Browse;
- a setting changed in the settings screen, still there after a restart;
- a mock interview round (drill, questions, follow-ups, scorecard) and the Mistakes screen.

Every wait is for something to appear on screen (or in the data folder), never a fixed pause.
Each screen checked is saved as text to DIR (default: a temporary folder) and listed on stdout.
Exit status 0 when every check passed, 1 (with the screen that failed) otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SIZES = {"80x24": (80, 24), "120x36": (120, 36)}
DRILL = "bytes-to-unicode"
DRILL_TITLE = "GPT-2 byte-to-unicode table"
TIMEOUT = 30.0  # seconds to wait for any one screen on a loaded machine
POLL = 0.05


class DriveFailed(Exception):
    """An expected screen did not appear, or showed the wrong thing."""


class Drive:
    """The app in a private tmux server at ``width`` x ``height`` over the data folder ``home``."""

    def __init__(self, out: Path, home: Path, width: int, height: int, direct: bool = False) -> None:
        self.out = out
        self.home = home
        self.width = width
        self.height = height
        self.direct = direct
        self.session = f"tokdrill-drive-{os.getpid()}-{width}x{height}"
        self.shots: list[Path] = []

    # ------------------------------------------------------------------------------ tmux
    def tmux(self, *args: str) -> str:
        # a private server (-L): other sessions' options and sizes do not leak in; the server runs
        # pane commands with $SHELL, and those here are sh (an account's shell may be nologin)
        return subprocess.run(
            ["tmux", "-L", self.session, "-f", os.devnull, *args],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "SHELL": "/bin/sh"},
        ).stdout

    def start(self) -> None:
        """Start the app; returns once Today is on screen."""
        env = f"TOKDRILL_HOME={self.home} TERM=xterm-256color COLORTERM=truecolor"
        entry = "-m tokdrill"
        if self.direct:  # skip the CLI dispatcher: open the app through launch_app itself
            entry = (
                "-c 'import argparse, sys; from tokdrill.ui.launch import launch_app; "
                "sys.exit(launch_app(argparse.Namespace(data_dir=None, content=None)))'"
            )
        # tmux may hand the pane COLUMNS/LINES of a default 80x24 client: drop them so the app
        # asks the pane itself for its size; exec so that the pane's process is the app itself
        cmd = f"exec env -u COLUMNS -u LINES {env} {sys.executable} {entry}"
        new_session = ("new-session", "-d", "-s", self.session, "-x", str(self.width), "-y", str(self.height), cmd)
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                self.tmux(*new_session)
                break
            except subprocess.CalledProcessError as exc:
                # the previous app's server may still be exiting ("server exited unexpectedly")
                if time.monotonic() > deadline:
                    raise DriveFailed(f"tmux could not start a session: {exc.stderr.strip()}") from exc
                self.stop()
                time.sleep(POLL)
        self.wait_for("Up next")

    def app_pid(self) -> int:
        return int(self.tmux("display-message", "-p", "-t", self.session, "#{pane_pid}").strip())

    def kill_app(self) -> None:
        """``kill -9`` the app (no chance to save anything) and wait for its pane to go."""
        os.kill(self.app_pid(), signal.SIGKILL)
        self._wait_gone()

    def quit_app(self) -> None:
        """ctrl+q, as a person quits; waits for the app to exit."""
        self.keys("C-q")
        self._wait_gone()

    def _wait_gone(self) -> None:
        deadline = time.monotonic() + TIMEOUT
        while self.running():
            if time.monotonic() > deadline:
                raise DriveFailed("the app did not exit")
            time.sleep(POLL)

    def running(self) -> bool:
        done = subprocess.run(["tmux", "-L", self.session, "has-session", "-t", self.session], capture_output=True)
        return done.returncode == 0

    def stop(self) -> None:
        subprocess.run(["tmux", "-L", self.session, "kill-server"], capture_output=True)

    # ----------------------------------------------------------------------------- screen
    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session)

    def background(self, row: int) -> str:
        """The background colour screen row ``row`` starts with (focus shows only in colour)."""
        shown = self.tmux("capture-pane", "-p", "-e", "-t", self.session).splitlines()[row]
        found = re.search(r"\x1b\[(?:[0-9;]*;)?48;([0-9;]+)m", shown)
        return found.group(1) if found else ""

    def wait_until(self, ready: Callable[[str], bool], what: str) -> str:
        """The screen once ``ready(screen)`` holds for two captures in a row (a whole frame)."""
        deadline = time.monotonic() + TIMEOUT
        last = ""
        while True:
            shown = self.screen()
            if ready(shown):
                again = self.screen()
                if ready(again):
                    return again
            last = shown
            if time.monotonic() > deadline:
                raise DriveFailed(f"{what} did not appear; the screen was:\n{last}")
            time.sleep(POLL)

    def wait_for(self, *texts: str) -> str:
        return self.wait_until(lambda s: all(t in s for t in texts), " and ".join(map(repr, texts)))

    def wait_gone(self, text: str) -> str:
        return self.wait_until(lambda s: text not in s, f"a screen without {text!r}")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.session, *keys)

    def type_text(self, text: str) -> None:
        """Type ``text`` literally, pressing Enter between lines."""
        for i, line in enumerate(text.split("\n")):
            if i:
                self.keys("Enter")
            if line:
                self.tmux("send-keys", "-t", self.session, "-l", line)

    def shot(self, name: str, text: str) -> str:
        """Save ``text`` (a screen already checked) as the next numbered capture."""
        path = self.out / f"{len(self.shots) + 1:02d}-{self.width}x{self.height}-{name}.txt"
        path.write_text(text)
        self.shots.append(path)
        return text

    def check(self, ok: bool, what: str, shown: str) -> None:
        if not ok:
            raise DriveFailed(f"{what}; the screen was:\n{shown}")

    # ---------------------------------------------------------------------- data folder
    def saved_draft(self) -> str | None:
        """The retype draft of the drill as the app last wrote it to the database (read-only)."""
        database = self.home / "progress.sqlite3"
        if not database.exists():
            return None
        try:
            with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1) as conn:
                row = conn.execute(
                    "SELECT text FROM drafts WHERE drill_id = ? AND mode = 'retype'", (DRILL,)
                ).fetchone()
        except sqlite3.Error:
            return None
        return None if row is None else str(row[0])


# ------------------------------------------------------------------------------ helpers
def reference_code(drill_id: str) -> str:
    from tokdrill.content import load_library, reference_source

    return reference_source(load_library().drill(drill_id).symbols)


def first_row(screen: str) -> str:
    """The first data row of the Browse table on ``screen`` ('' if there is none)."""
    lines = screen.splitlines()
    for i, line in enumerate(lines[:-1]):
        if "title / question" in line:
            return lines[i + 1].strip()
    return ""


def panes(screen: str) -> list[tuple[str, str]]:
    """Each drill-screen row split into (reference side, editor side) at the divider."""
    return [tuple(line.split("▕", 1)) for line in screen.splitlines() if "▕" in line]  # type: ignore[misc]


def line_number(side: str) -> int | None:
    """The line number a pane's row starts with (None on a wrapped continuation row)."""
    found = re.match(r"\s*(\d+)(\s|$)", side)
    return int(found.group(1)) if found else None


def reference_beside(screen: str, line: int) -> bool:
    """Reference line ``line`` (1-based) starts on the same row as the editor's line ``line``."""
    return any(line_number(left) == line and line_number(right) == line for left, right in panes(screen))


def open_drill(d: Drive, mode_key: str = "r") -> None:
    """Browse, search for the drill, open it with one Enter and pick the mode (a draft may then
    be offered)."""
    d.keys("F3")
    d.wait_for("every drill and card", "shown")
    d.keys("/")  # into the search box first, as the footer says (keys are handled in order)
    d.tmux("send-keys", "-t", d.session, "-l", "unicode")
    d.wait_until(lambda s: first_row(s).startswith(f"drill  {DRILL_TITLE}"), "the drill on top of Browse")
    d.keys("Enter")  # the search box opens the first row
    d.wait_for("From memory")
    d.keys(mode_key)
    d.wait_gone("From memory: write it")


def leave_to_today(d: Drive) -> str:
    """One Esc leaves the drill (to Browse, where it was opened), one more Esc from Browse."""
    d.keys("Escape")
    shown = d.wait_until(lambda s: "Up next" in s or "every drill and card" in s, "Esc leaving the drill")
    if "Up next" not in shown:
        d.keys("Escape")
        shown = d.wait_for("Up next")
    return shown


# -------------------------------------------------------------------------------- flows
TYPED_LINES = 14  # typed before leaving: the cursor then sits on line 15


def flow_first_run(d: Drive) -> None:
    d.shot("today-first-run", d.wait_for("New here?", "Up next"))


def flow_leave_before_submit(d: Drive) -> None:
    """Type part of the reference; the reference follows the cursor; Esc leaves at once."""
    open_drill(d)
    shown = d.wait_for("starts when you type")
    if "indent on" in shown:  # the typed text carries its own indentation
        d.keys("C-o")
        d.wait_for("indent off")
    lines = reference_code(DRILL).split("\n")
    d.type_text("\n".join(lines[:TYPED_LINES]) + "\n")
    shown = d.wait_until(lambda s: reference_beside(s, TYPED_LINES + 1), "reference line 15 beside the cursor")
    d.check("✓ on track" in shown, "the typing is on track", shown)
    d.shot("drill-retype-mid", shown)
    d.shot("today-after-esc", leave_to_today(d))  # before any submit: one press leaves
    d.check(d.saved_draft() is not None, "Esc keeps the draft", d.screen())


SCROLL_BAR = " ▁▂▃▄▅▆▇█▔▏▎▍▊▌▐"


def reference_lines_shown(screen: str, count: int) -> tuple[dict[int, str], int]:
    """The lines of a ``count``-line reference wholly on ``screen`` (1-based number -> the
    characters shown, rows of a wrapped line joined, spaces dropped), and the last line number
    on it. A line's first row carries its number right-aligned in the gutter; the rows it wraps
    onto have a blank gutter (so code that starts with a digit is not taken for a number)."""
    width = len(str(count))
    rows: list[tuple[int | None, str]] = []
    for left, _right in panes(screen):
        gutter, code = left[: width + 2], left[width + 2 :]
        number = int(gutter) if gutter.strip().isdigit() else None
        rows.append((number, code.rstrip(SCROLL_BAR)))
    whole: dict[int, str] = {}
    last = 0
    for index, (number, code) in enumerate(rows):
        if number is None:
            continue
        last = number
        parts = [code]
        for later, more in rows[index + 1 :]:
            if later is not None:
                break
            parts.append(more)
        else:  # the pane ends: the last line is whole (blank rows follow it), any other may go on
            if number < count:
                continue
        whole[number] = "".join("".join(parts).split())
    return whole, last


def flow_restored_reference_is_whole(d: Drive) -> None:
    """The draft restored with y: the reference pane, paged from top to bottom, shows every
    character of every line (none lost under the scroll bar)."""
    open_drill(d)
    d.wait_for("Unfinished retype draft found", "y restore")
    d.keys("y")
    shown = d.wait_gone("Unfinished retype draft found")
    lines = reference_code(DRILL).rstrip("\n").split("\n")
    d.keys(*["M-Up"] * 8)
    count = len(lines)
    shown = d.wait_until(lambda s: reference_lines_shown(s, count)[0].get(1) is not None, "reference line 1")
    d.shot("drill-restored-reference", shown)
    checked: set[int] = set()
    for _page in range(len(lines)):
        whole, last = reference_lines_shown(shown, count)
        for number, got in whole.items():
            want = "".join(lines[number - 1].split())
            d.check(got == want, f"reference line {number} shows {got!r} for {want!r}", shown)
            checked.add(number)
        if last >= len(lines):
            break
        d.keys("M-Down")
        shown = d.wait_until(
            lambda s, last=last: reference_lines_shown(s, count)[1] > last, "the next page of the reference"
        )
    missing = sorted(set(range(1, len(lines) + 1)) - checked)
    d.check(not missing, f"every reference line was shown whole (not: {missing[:5]})", shown)
    leave_to_today(d)


def flow_failed_submit_and_scroll(d: Drive) -> None:
    """Restore the draft, submit it unfinished, read and scroll the failures, Esc once."""
    open_drill(d)
    d.wait_for("Unfinished retype draft found", "y restore")
    d.keys("y")
    d.wait_gone("Unfinished retype draft found")
    d.keys("C-s")
    shown = d.wait_until(lambda s: re.search(r"FAILED \S+: \d+/\d+ tests passed", s) is not None, "the failures")
    d.check("✗" in shown or "FAIL" in shown.split("tests passed", 1)[1], "a failing test is listed", shown)
    d.shot("drill-failed", shown)
    top = results_top(shown)
    d.keys("C-Down")
    scrolled = d.wait_until(lambda s: results_top(s) != top, "the results scrolled down by ctrl+down")
    d.check(reference_beside(scrolled, TYPED_LINES + 1), "the editor keeps its cursor line and focus", scrolled)
    d.shot("drill-failed-scrolled", scrolled)
    d.keys("S-PPage")
    d.wait_until(lambda s: results_top(s) == top, "the results back at the top by shift+PageUp")
    leave_to_today(d)  # after a submit: still one press


def results_top(screen: str) -> str:
    """The start of the text under the results panel's top border (scroll bar and wrapping aside)."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("────"):
            text = " ".join(row.rstrip(" ▁▂▃▄▅▆▇█") for row in lines[i + 1 : -1])
            return " ".join(text.split())[:100]
    return ""


def flow_give_up(d: Drive) -> None:
    """F9 asks; n keeps working with the code in place; F9 then y gives up and keeps the draft."""
    open_drill(d)
    d.wait_for("Unfinished retype draft found")
    d.keys("y")
    d.wait_gone("Unfinished retype draft found")
    d.keys("F9")
    d.shot("give-up-dialog", d.wait_for("Give up on", "keep working"))
    d.keys("n")
    shown = d.wait_gone("Give up on")
    d.check(reference_beside(shown, TYPED_LINES + 1), "n keeps the drill and its code", shown)
    d.keys("F9")
    d.wait_for("Give up on")
    d.keys("y")
    shown = d.wait_until(lambda s: "Recorded as not passed" in s and "every drill and card" in s, "back in Browse")
    d.shot("after-give-up", shown)
    d.keys("Escape")
    d.wait_for("Up next")
    d.check(d.saved_draft() is not None, "giving up with y keeps the draft", d.screen())


def flow_restore_after_kill(d: Drive) -> None:
    """Type mid-drill, the app is killed (-9) once the draft is saved, the draft comes back."""
    marker = "        # typed just before the crash"
    open_drill(d)
    d.wait_for("Unfinished retype draft found")
    d.keys("y")
    d.wait_gone("Unfinished retype draft found")
    d.type_text(marker)
    deadline = time.monotonic() + TIMEOUT
    while marker not in (d.saved_draft() or ""):  # the autosave, every few seconds
        if time.monotonic() > deadline:
            raise DriveFailed("the draft was not autosaved")
        time.sleep(POLL * 4)
    d.kill_app()
    d.start()
    open_drill(d)
    d.shot("restore-dialog", d.wait_for("Unfinished retype draft found", "y restore", "n start fresh"))
    d.keys("y")
    shown = d.wait_for(marker.strip())
    d.shot("drill-restored", shown)
    leave_to_today(d)


def flow_pause_then_type(d: Drive) -> None:
    """ctrl+t pauses; a key typed while paused resumes the clock and goes in."""
    open_drill(d)
    d.wait_for("Unfinished retype draft found")
    d.keys("y")
    d.wait_gone("Unfinished retype draft found")
    d.type_text("#p")
    d.wait_for("#p")
    d.keys("C-t")
    d.shot("drill-paused", d.wait_for("paused", "any typing resumes"))
    d.tmux("send-keys", "-t", d.session, "-l", "q")
    shown = d.wait_until(lambda s: "#pq" in s and "paused" not in s.splitlines()[0], "typing resuming the clock")
    d.shot("drill-resumed-by-typing", shown)
    leave_to_today(d)


def flow_review_typed(d: Drive) -> None:
    """Typed answers on two cards: each card starts with Space revealing, t types an answer."""
    d.keys("F5")
    d.wait_for("card 1 of", "reveal the answer")
    for number in (1, 2):
        d.keys("t")
        d.wait_for(f"card {number} of", "ctrl+s to check")
        d.type_text("merges are applied in rank order; bytes map to printable characters")
        d.keys("C-s")
        shown = d.wait_until(
            lambda s: "Key points covered" in s and "PgDn more" in s and "1 Again" in s.splitlines()[-1],
            "the key points, the model answer under them and the rating keys",
        )
        d.shot(f"review-typed-{number}", shown)
        if number == 1 and d.height <= 24:  # PageDown scrolls on through the model answer; space types nothing
            d.keys("PageDown", "space")
            d.shot("review-typed-pagedown", d.wait_gone("Key points covered"))
        d.keys("3")
        shown = d.wait_for(f"card {number + 1} of")
        d.check("Space: reveal the answer" in shown, "the next card starts in the usual mode", shown)
    d.keys("space")  # Space reveals, it does not type
    d.shot("review-next-card-revealed", d.wait_for("card 3 of", "Good"))
    d.keys("Escape")
    d.wait_for("Up next")


def flow_past_interview_date(d: Drive) -> None:
    """i on Today: a past date is refused with the reason; Esc leaves the date unset."""
    d.keys("i")
    d.wait_for("Interview date")
    d.tmux("send-keys", "-t", d.session, "-l", "2020-01-01")
    d.keys("Enter")
    d.shot("interview-date-past", d.wait_for("2020-01-01 has passed"))
    d.keys("Escape")
    shown = d.wait_gone("Interview date (YYYY-MM-DD")  # Today shows under the dialog too
    d.check("no date set" in shown, "the date stays unset", shown)


def flow_browse_round_trip(d: Drive) -> None:
    """A card found by a search opened from the results; back in Browse the search and the
    row are still there."""
    d.keys("F3")
    d.wait_for("every drill and card", "shown")
    d.tmux("send-keys", "-t", d.session, "-l", "merge")
    shown = d.wait_until(lambda s: "▊  merge " in s and "card  " in s, "cards for the whole search")
    rows = [line.strip() for line in shown.splitlines()]
    header = next(i for i, line in enumerate(rows) if "title / question" in line)
    card = next(i for i in range(header + 1, len(rows)) if rows[i].startswith("card  "))
    d.keys("Down", *["Down"] * (card - header - 1), "Enter")
    d.shot("browse-opened-card", d.wait_for("card 1 of 1"))
    d.keys("Escape")
    shown = d.wait_for("every drill and card", "merge")
    d.check(rows[card][:40] in shown, "the opened row is still listed", shown)
    d.shot("browse-after-card", shown)
    d.keys("Escape")
    d.wait_for("Up next")


IMPORTED = (
    "#separator:tab\n#html:false\n"
    "What made the Zyzzyva token a glitch?\tA vocabulary entry the model almost never saw in training.\n"
)


def flow_import_while_running(d: Drive) -> None:
    """A deck imported from the command line while the app runs shows up in Browse."""
    export = d.home.parent / f"{d.session}-anki.txt"
    export.write_text(IMPORTED, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "tokdrill", "import-anki", str(export), "--deck", "imported-live"],
        env={**os.environ, "TOKDRILL_HOME": str(d.home)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    export.unlink()
    d.check(done.returncode == 0, f"import-anki failed: {done.stderr}", d.screen())
    d.keys("F3")
    d.wait_for("every drill and card", "shown")
    d.tmux("send-keys", "-t", d.session, "-l", "zyzzyva")
    d.shot("browse-imported-live", d.wait_for("What made the Zyzzyva token"))
    d.keys("Escape", "Escape")
    d.wait_for("Up next")


def settings_row(screen: str, label: str) -> str:
    return next((line for line in screen.splitlines() if label in line), "")


def flow_settings(d: Drive) -> None:
    """New cards per day changed in the settings screen; still changed after a restart."""
    d.keys("s")
    shown = d.wait_for("Settings", "New cards per day")
    old = settings_row(shown, "New cards per day")
    d.keys("End", *["BSpace"] * 4)
    d.tmux("send-keys", "-t", d.session, "-l", "7")
    d.keys("Enter")
    shown = d.wait_for("✓ saved")
    d.check(re.search(r"New cards per day\s+7\b", shown) is not None, f"the new value is shown (was {old!r})", shown)
    d.shot("settings-saved", shown)
    d.keys("Escape")
    d.wait_for("Up next")
    d.quit_app()
    d.start()
    d.keys("s")
    shown = d.wait_until(lambda s: re.search(r"New cards per day\s+7\b", s) is not None, "the value after a restart")
    d.shot("settings-after-restart", shown)
    d.keys("Escape")
    d.wait_for("Up next")


def flow_mock_round(d: Drive) -> None:
    """From Today: a whole mock interview round (the drill submitted as its starter, so that it
    fails and its concepts are missed, then every question and follow-up answered), its
    scorecard, and the Mistakes screen. Ends back on Today."""
    d.keys("k")
    d.shot("mock-intro", d.wait_for("Mock interview"))
    d.keys("C-s")  # the clock starts and the drill opens from memory
    d.wait_for("Give up")
    time.sleep(0.3)
    d.keys("C-s")  # the starter as it is: not yet
    d.shot("mock-drill-failed", d.wait_for("tests passed"))
    d.keys("Escape")
    d.shot("mock-question", d.wait_for("Question 1 of"))
    step = 0
    while True:
        shown = d.wait_until(lambda text: "Question" in text or "Follow-up" in text or "scorecard" in text, "a step")
        if "scorecard" in shown:
            break
        if step == 1:
            d.shot("mock-follow-up", d.wait_for("Follow-up to question 1"))
        d.tmux("send-keys", "-t", d.session, "-l", "Count pairs weighted by frequency, merge the best pair, repeat.")
        time.sleep(0.2)
        d.keys("C-s")
        step += 1
        time.sleep(0.4)
    d.shot("mock-scorecard", d.wait_for("scorecard"))
    d.keys("End")  # the end of the scorecard: concepts missed, what is now scheduled
    d.shot("mock-scorecard-end", d.wait_for("Now scheduled"))
    d.keys("Escape")
    d.wait_for("Up next")
    d.keys("m")
    d.shot("mistakes", d.wait_for("not fixed"))
    d.keys("Escape")
    d.wait_for("Up next")


def flow_playground(d: Drive) -> None:
    """p on Today: a typed text's tokens in both tables (a newcomer's first key is Esc, then back);
    100 KB pasted and undone with ctrl+z; ctrl+t ids, ctrl+b the boundary, Tab and PageDown in the tokens; ctrl+n steps through BPE
    training (→, End, g 3 Enter); Esc back to Today."""
    d.keys("p")
    d.wait_for("Playground", "cl100k_base", "o200k_base")
    d.keys("Escape")
    d.wait_for("Up next")
    d.keys("p")
    d.wait_for("Playground", "cl100k_base")
    d.keys("C-a", "C-k", "C-k", "C-k")  # clear the sample: start of line, then cut to the end three times
    d.wait_until(
        lambda s: "0 tokens" in s, "an empty text box"
    )  # a key typed in the same burst as ctrl+k can be cut too
    d.tmux("send-keys", "-t", d.session, "-l", "hello world 1234567")
    shown = d.wait_until(lambda s: "hello·world·1234567" in s and "6 tokens" in s, "the typed text's tokens")
    d.shot("playground-tokens", shown)
    pasted = d.home / "pasted.txt"  # 100 KB pasted as a terminal pastes (bracketed), then undone
    pasted.write_text(("def count(tokens):\n    return len(tokens)  # naïve café 12345\n" * 1700)[:100_000])
    d.tmux("load-buffer", "-b", "pasted", str(pasted))
    d.tmux("paste-buffer", "-p", "-d", "-b", "pasted", "-t", d.session)
    shown = d.wait_until(lambda s: re.search(r"\d\d,\d{3} tokens", s) is not None, "the pasted text's counts")
    d.shot("playground-paste", shown)
    d.keys("C-z")
    d.wait_until(lambda s: "hello·world·1234567" in s and "6 tokens" in s, "the paste undone")
    d.keys("C-t")
    shown = d.wait_for("15339  1917")  # cl100k's ids of "hello" and " world"
    d.shot("playground-ids", shown)
    d.keys("C-t", "C-b")
    shown = d.wait_for("last character 7")
    d.shot("playground-boundary", shown)
    d.keys("C-b", "Tab", "PageDown")
    d.keys("C-n")
    shown = d.wait_for("BPE training: step 1 of")
    d.keys("Right", "Right")
    d.shot("steps-bpe-training", d.wait_for("step 3 of", "merge 2"))
    d.keys("End")
    shown = d.wait_for("result: merges:")
    d.keys("g")
    d.wait_for("Go to step")
    d.tmux("send-keys", "-t", d.session, "-l", "3")
    d.keys("Enter")
    d.wait_for("step 3 of")
    d.keys("Escape")
    d.wait_for("Playground")
    d.keys("Escape")
    d.wait_for("Up next")


FLOWS: list[Callable[[Drive], None]] = [
    flow_first_run,
    flow_leave_before_submit,
    flow_restored_reference_is_whole,
    flow_failed_submit_and_scroll,
    flow_give_up,
    flow_restore_after_kill,
    flow_pause_then_type,
    flow_review_typed,
    flow_past_interview_date,
    flow_browse_round_trip,
    flow_import_while_running,
    flow_settings,
    flow_mock_round,
    flow_playground,
]


def drive(out: Path, size: str, direct: bool = False) -> list[Path]:
    """Run every flow at ``size`` in a fresh data folder; returns the saved screens."""
    width, height = SIZES[size]
    home = Path(tempfile.mkdtemp(prefix="tokdrill-home-"))
    d = Drive(out, home, width, height, direct)
    try:
        d.start()
        for flow in FLOWS:
            began = time.monotonic()
            flow(d)
            print(f"{size} {flow.__name__}: {time.monotonic() - began:.1f} s", file=sys.stderr)
        d.quit_app()
    finally:
        d.stop()
        shutil.rmtree(home, ignore_errors=True)
    return d.shots


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="80x24", help="terminal size (default 80x24)")
    parser.add_argument("--out", type=Path, default=None, help="folder for the captured screens")
    parser.add_argument("--direct", action="store_true", help="open the app via launch_app, not `python -m tokdrill`")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is not installed", file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="tokdrill-screens-"))
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        shots = drive(out, args.size, args.direct)
    except DriveFailed as exc:
        print(f"FAILED at {args.size}: {exc}", file=sys.stderr)
        return 1
    for path in shots:
        print(path)
    print(f"{args.size}: every flow passed in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
