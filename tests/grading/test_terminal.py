"""A submission cannot reach the terminal `tokdrill check` runs in: it cannot push keystrokes into
the shell's input, change the terminal's mode, or write escape sequences to it, and what it
prints comes out escaped. Checked on a real pseudo-terminal that is `check`'s controlling one."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import termios
import time

import pytest
from grading_helpers import check_argv, check_env, with_body

from tokdrill.grading.mechanisms import REFUSE_ENV

ATTACK = r"""
import fcntl, glob, os, sys, termios
payload = b"echo INJECTED\n"
targets = [0, 1, 2]
for path in ["/dev/tty", "/dev/console", *glob.glob("/dev/pts/*"), f"/proc/{os.getppid()}/fd/0", "/proc/1/fd/1"]:
    try:
        targets.append(os.open(path, os.O_RDWR | os.O_NOCTTY))
    except OSError:
        pass
for fd in targets:
    for byte in payload:
        try:
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([byte]))
        except OSError:
            pass
    try:
        attrs = termios.tcgetattr(fd)
        attrs[3] &= ~(termios.ECHO | termios.ICANON)
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
    except (OSError, termios.error):
        pass
    try:
        os.write(fd, b"\x1b[2J\x1b]0;owned\x07")
    except OSError:
        pass
print("\x1b[31mred\x1b[0m and a bell\a")
"""


def _run_on_terminal(argv: list[str], env: dict[str, str]) -> tuple[bytes, list[object], list[object], int, int]:
    """Run ``argv`` with a fresh pseudo-terminal as its controlling terminal; return its output,
    the terminal's modes before and after, the bytes waiting in the terminal's input, and the
    exit code."""
    master, slave = os.openpty()
    try:
        before = termios.tcgetattr(slave)
        process = subprocess.Popen(["setsid", "--ctty", *argv], stdin=slave, stdout=slave, stderr=slave, env=env)
        output = bytearray()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            readable, _, _ = select.select([master], [], [], 0.1)
            if readable:
                try:
                    output += os.read(master, 65536)
                except OSError:
                    break
            elif process.poll() is not None:
                break
        code = process.wait(timeout=30)
        after = termios.tcgetattr(slave)
        waiting = struct.unpack("i", fcntl.ioctl(slave, termios.FIONREAD, b"\0\0\0\0"))[0]
        return bytes(output), before, after, waiting, code
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("refuse", ["", "userns"], ids=["namespaces", "landlock"])
def test_submission_cannot_reach_the_terminal(tmp_path, refuse):
    path = tmp_path / "attack.py"
    path.write_text(with_body(ATTACK))
    env = check_env(**{REFUSE_ENV: refuse})
    output, before, after, waiting, code = _run_on_terminal(check_argv("tiny-pairs", path), env)
    text = output.decode(errors="replace")
    assert code == 0, text
    assert waiting == 0, "keystrokes were pushed into the terminal's input"
    assert after == before, "the terminal's mode changed"
    assert b"\x1b" not in output and b"\a" not in output, "raw control bytes reached the terminal"
    assert "\\x1b[31mred\\x1b[0m and a bell\\x07" in text  # shown, escaped


def test_even_the_weakest_sandbox_refuses_injection_and_mode_changes(tmp_path):
    path = tmp_path / "attack.py"
    # Not every terminal on the machine: this sandbox cannot stop writes to them (it says so).
    path.write_text(with_body(ATTACK.replace('*glob.glob("/dev/pts/*"), ', "")))
    env = check_env(**{REFUSE_ENV: "userns,landlock"})
    output, before, after, waiting, _ = _run_on_terminal(check_argv("tiny-pairs", path), env)
    assert waiting == 0, "keystrokes were pushed into the terminal's input"
    assert after == before, "the terminal's mode changed"
    assert b"write to your terminals" in output  # and says what it cannot stop


def test_control_bytes_in_failure_messages_are_escaped(tmp_path):
    path = tmp_path / "loud.py"
    path.write_text('def count_pairs(word_freqs):\n    raise ValueError("\\x1b]0;title\\x07\\x1b[2J\\r\\u202e")\n')
    output, before, after, _, code = _run_on_terminal(check_argv("tiny-pairs", path), check_env())
    assert code == 1
    assert b"\x1b" not in output and b"\a" not in output and "\u202e".encode() not in output
    assert b"\\x1b]0;title\\x07\\x1b[2J\\x0d\\u202e" in output
    assert after == before
