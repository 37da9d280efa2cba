"""The private result channel between the harness (child) and the grader (parent).

One JSON object per line, each stamped with a per-run nonce the parent chose before forking and
the reporting process's pid. Lines without the nonce, or from another process, are evidence of
tampering: the parent counts them and fails the run. Writes are kept under ``PIPE_BUF`` where
possible so they stay atomic.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field

# Bound now, before any submission runs: patching ``json.dumps`` later does not reach the reports.
_encode = json.JSONEncoder(ensure_ascii=True).encode
_write = os.write
_getpid = os.getpid


def new_nonce() -> str:
    return secrets.token_hex(16)


class Reporter:
    """Child side: writes messages to the result fd, only from the process that created it."""

    def __init__(self, fd: int, nonce: str) -> None:
        self._fd = fd
        self._nonce = nonce
        self._pid = os.getpid()

    def send(self, kind: str, /, **fields: object) -> None:
        if _getpid() != self._pid:  # a forked copy of the harness does not speak for the run
            return
        line = _encode({"n": self._nonce, "k": kind, **fields}) + "\n"
        data = line.encode("ascii")
        while data:
            try:
                written = _write(self._fd, data)
            except InterruptedError:
                continue
            except OSError:
                os._exit(75)  # the parent is gone: nothing left to report to
            data = data[written:]


@dataclass
class ChannelReader:
    """Parent side: splits the byte stream into verified messages and counts forgeries."""

    nonce: str
    messages: list[dict[str, object]] = field(default_factory=list)
    forged: int = 0
    done: bool = False  # the harness said every test has reported
    _buffer: bytes = b""

    def feed(self, data: bytes) -> None:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            self._take(line)

    def close(self) -> None:
        if self._buffer.strip():
            self._take(self._buffer)
        self._buffer = b""

    def _take(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except ValueError:
            self.forged += 1
            return
        if not isinstance(message, dict) or message.get("n") != self.nonce or not isinstance(message.get("k"), str):
            self.forged += 1
            return
        self.messages.append(message)
        if message["k"] == "done":
            self.done = True
