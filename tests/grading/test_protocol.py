"""Frames between the warm server and its clients, the result channel, and the limit phrases."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import msgspec
import pytest

from tokdrill.grading.limits import Limits, size_text
from tokdrill.grading.protocol import (
    ChannelReader,
    ChildEnded,
    Done,
    EndOfStream,
    HiddenTestResult,
    ImportFailed,
    Ready,
    Reporter,
    TimedOut,
    decode_status,
    encode_frame,
    encode_status,
    new_nonce,
    read_frame,
    write_frame,
)


def test_reader_keeps_stamped_lines_and_counts_the_rest():
    nonce = new_nonce()
    read_end, write_end = os.pipe()
    Reporter(write_end, nonce).send(HiddenTestResult(name="t.py::a", outcome="passed", message=""))
    os.write(write_end, b'{"k": "done"}\nnot json\n{"n": "wrong", "k": "done"}\n')
    Reporter(write_end, nonce).send(Done())
    os.close(write_end)
    reader = ChannelReader(nonce)
    data = os.read(read_end, 65536)
    reader.feed(data[:7])  # lines may arrive in pieces
    reader.feed(data[7:])
    reader.close()
    os.close(read_end)
    assert [m.kind for m in reader.messages] == ["result", "done"]
    assert reader.forged == 3
    assert reader.done


def test_stamped_lines_that_are_no_message_of_the_channel_count_as_forged():
    nonce = new_nonce()
    reader = ChannelReader(nonce)
    for line in (
        {"n": nonce, "k": "passed_everything"},  # no such message
        {"n": nonce, "k": "result", "name": "t.py::a"},  # a result without its outcome
        {"n": nonce, "k": "ready", "protections": "all of them"},  # not a list
        [nonce, "done"],
    ):
        reader.feed(json.dumps(line).encode() + b"\n")
    assert reader.forged == 4 and reader.messages == [] and not reader.done


def test_each_message_arrives_as_the_type_it_was_sent_as():
    nonce = new_nonce()
    read_end, write_end = os.pipe()
    sent = [
        Ready(protections=["user namespace", "seccomp: no new processes"]),
        ImportFailed(error_type="SyntaxError", line=3, column=7, message="SyntaxError: invalid syntax \u00e9"),
        HiddenTestResult(name="t.py::a", outcome="failed", message="expected 1\ngot 2"),
        Done(),
    ]
    reporter = Reporter(write_end, nonce)
    for message in sent:
        reporter.send(message)
    os.close(write_end)
    reader = ChannelReader(nonce)
    reader.feed(os.read(read_end, 65536))
    os.close(read_end)
    assert reader.messages == sent and reader.forged == 0

    read_end, write_end = os.pipe()
    Reporter(write_end, nonce).send(ImportFailed(error_type="NameError", line=1))
    os.close(write_end)
    wire = json.loads(os.read(read_end, 65536))  # the names on the wire, one JSON object per line
    os.close(read_end)
    assert wire == {"n": nonce, "k": "import_error", "kind": "NameError", "line": 1, "column": 0, "message": ""}


def test_the_supervisors_status_line_round_trips_and_anything_else_is_refused():
    ended = ChildEnded(cpu=0.25, timed_out=False, stopped=True, exit=None, signal=9)
    line = encode_status(ended)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode_status(line) == ended
    for bad in (b"not json", b'{"cpu": "fast"}', b'{"cpu": 1.0, "timed_out": false}'):
        with pytest.raises(msgspec.DecodeError):
            decode_status(bad)


def test_a_forked_copy_of_the_reporter_stays_silent():
    # Forked in a fresh single-threaded process: this test process may have other threads.
    script = """
import os, sys
from tokdrill.grading.protocol import ChannelReader, Done, HiddenTestResult, Reporter
read_end, write_end = os.pipe()
reporter = Reporter(write_end, "n")
pid = os.fork()
if pid == 0:
    reporter.send(Done())
    os._exit(0)
os.waitpid(pid, 0)
reporter.send(HiddenTestResult(name="x", outcome="passed"))
os.close(write_end)
reader = ChannelReader("n")
reader.feed(os.read(read_end, 65536))
print(" ".join(m.kind for m in reader.messages))
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
