"""The warm server's own rules: after a verdict the next standby waits for the app's frame, and a
request that comes first is not kept waiting behind a standby's start."""

from __future__ import annotations

import os

from tokdrill.grading import server


def test_a_request_already_waiting_is_seen_at_once() -> None:
    read, write = os.pipe()
    try:
        os.write(write, b"x")
        assert server._request_within(read, 30.0)  # returns at once: the test would hang otherwise
    finally:
        os.close(read)
        os.close(write)


def test_no_request_within_the_wait_lets_the_standby_start() -> None:
    read, write = os.pipe()
    try:
        assert not server._request_within(read, 0.0)
        assert 0 < server.REFILL_AFTER_SECONDS < 0.2  # a frame or three: no person resubmits sooner
    finally:
        os.close(read)
        os.close(write)
