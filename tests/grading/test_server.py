"""The warm server's own rules: after a verdict the next standby waits for the app's frame; a
grade request that comes first is not kept waiting behind a standby's start, and any other
request (a ping) is answered once the standby has started."""

from __future__ import annotations

import os

from tokdrill.grading import server
from tokdrill.grading.protocol import encode_frame


def test_a_request_already_waiting_is_read_at_once() -> None:
    read, write = os.pipe()
    try:
        os.write(write, encode_frame({"op": "ping"}))
        assert server._next_request(read, 30.0) == {"op": "ping"}  # at once: the test would hang otherwise
    finally:
        os.close(read)
        os.close(write)


def test_no_request_within_the_wait_lets_the_standby_start() -> None:
    read, write = os.pipe()
    try:
        assert server._next_request(read, 0.0) is None
        assert 0 < server.REFILL_AFTER_SECONDS < 0.2  # a frame or three: no person resubmits sooner
    finally:
        os.close(read)
        os.close(write)


def test_a_client_that_closed_its_end_or_sent_no_frame_ends_the_server() -> None:
    for sent in (b"", b"\x00\x00\x00\x02[]"):
        read, write = os.pipe()
        os.write(write, sent)
        os.close(write)
        try:
            assert server._next_request(read, 1.0) == {"op": server.END}
        finally:
            os.close(read)
