"""Frames between the warm server and its clients, the result channel, and the limit phrases."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tokdrill.grading.limits import Limits, size_text
from tokdrill.grading.protocol import (
    ChannelReader,
    EndOfStream,
    Reporter,
    TimedOut,
    encode_frame,
    new_nonce,
    read_frame,
    write_frame,
)


def test_reader_keeps_stamped_lines_and_counts_the_rest():
    nonce = new_nonce()
    read_end, write_end = os.pipe()
    Reporter(write_end, nonce).send("result", name="t.py::a", outcome="passed", message="")
    os.write(write_end, b'{"k": "done"}\nnot json\n{"n": "wrong", "k": "done"}\n')
    Reporter(write_end, nonce).send("done")
    os.close(write_end)
    reader = ChannelReader(nonce)
    data = os.read(read_end, 65536)
    reader.feed(data[:7])  # lines may arrive in pieces
    reader.feed(data[7:])
    reader.close()
    os.close(read_end)
    assert [m["k"] for m in reader.messages] == ["result", "done"]
    assert reader.forged == 3
    assert reader.done


def test_a_forked_copy_of_the_reporter_stays_silent():
    # Forked in a fresh single-threaded process: this test process may have other threads.
    script = """
import os, sys
from tokdrill.grading.protocol import ChannelReader, Reporter
read_end, write_end = os.pipe()
reporter = Reporter(write_end, "n")
pid = os.fork()
if pid == 0:
    reporter.send("done")
    os._exit(0)
os.waitpid(pid, 0)
reporter.send("result", name="x")
os.close(write_end)
reader = ChannelReader("n")
reader.feed(os.read(read_end, 65536))
print(" ".join(m["k"] for m in reader.messages))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["result"]


def test_frames_round_trip_and_report_a_closed_or_silent_peer():
    read_end, write_end = os.pipe()
    write_frame(write_end, {"op": "ping", "text": "\u00e9\x1b"})
    assert read_frame(read_end) == {"op": "ping", "text": "\u00e9\x1b"}
    with pytest.raises(TimedOut):
        read_frame(read_end, deadline=time.monotonic() + 0.05)
    os.write(write_end, encode_frame({"x": 1})[:6])
    os.close(write_end)
    with pytest.raises(EndOfStream):
        read_frame(read_end)
    os.close(read_end)


def test_limit_phrases_name_the_numbers():
    limits = Limits(cpu_seconds=5, wall_seconds=2.5, memory_bytes=512 * 2**20, output_bytes=2**20, processes=8)
    assert limits.cpu_text() == "CPU time limit 5 s"
    assert limits.wall_text() == "wall-clock limit 2.5 s"
    assert limits.memory_text() == "memory limit 512 MiB"
    assert limits.output_text() == "output limit 1 MiB"
    assert limits.processes_text() == "process limit 8"
    assert size_text(1536) == "1.5 KiB" and size_text(10) == "10 B"
    assert Limits.from_json({**limits.to_json(), "unknown": 1}) == limits
