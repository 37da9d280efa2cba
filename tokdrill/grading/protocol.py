"""The grader's two wire formats.

**Frames** (warm server and its clients): a 4-byte big-endian length, then that many bytes of
JSON. Both ends are tokdrill's own processes.

**The result channel** (sandboxed child to grader): one JSON object per line, a typed message
(:data:`ChannelMessage`, told apart by its ``k`` field) stamped with a per-run nonce the grader
chose before forking. Lines without the nonce, or that are not one of the messages, are
evidence of tampering: the reader counts them and the run fails. The child is not trusted, so
the reader is linear in its input and bounded: a line longer than :data:`LINE_LIMIT` is counted
as garbled (its bytes are skipped, not kept), and past :data:`CHANNEL_LIMIT` bytes in total the
rest is dropped and :attr:`ChannelReader.overflowed` says so.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from dataclasses import dataclass, field

import msgspec

HEADER = struct.Struct(">I")
LINE_LIMIT = 64 * 1024  # bytes of one channel message
CHANNEL_LIMIT = 4 * 1024 * 1024  # bytes of channel traffic read from one run


class Message(msgspec.Struct, tag_field="k", kw_only=True):
    """A message of the result channel; ``n`` is the run's nonce, set by the :class:`Reporter`."""

    n: str = ""

    @property
    def kind(self) -> str:
        """The message's tag on the wire (its ``k``)."""
        return str(self.__struct_config__.tag)


class Ready(Message, tag="ready"):
    """The child is locked down, before any user code ran: the protections in force."""

    protections: list[str] = []


class UserCodeStarts(Message, tag="user_code"):
    """From here on, anything odd may be the submission's doing."""


class ImportFailed(Message, tag="import_error"):
    """The submission did not import: the exception's kind, where in the user's file, and why."""

    error_type: str = msgspec.field(default="", name="kind")
    line: int = 0  # 0: no line of the user's file is known
    column: int = 0
    message: str = ""


class Missing(Message, tag="missing"):
    """Symbols the drill asks for that the submission does not define, each with a sentence."""

    symbols: list[str] = []
    messages: list[str] = []


class HiddenTestsStart(Message, tag="tests_started"):
    """The submission loaded; the hidden tests run now."""


class HiddenTestStarts(Message, tag="start"):
    """One test (``file::name``) starts."""

    name: str


class HiddenTestResult(Message, tag="result"):
    """One test's outcome and failure text, as the child's pytest saw it (not trusted)."""

    name: str
    outcome: str
    message: str = ""


class Done(Message, tag="done"):
    """Every collected test has reported."""


class Aborted(Message, tag="aborted"):
    """The test run stopped on an exception after user code ran."""

    message: str = ""


class InternalFailure(Message, tag="internal"):
    """The harness failed (before user code ran, that is tokdrill's fault)."""

    message: str = ""


ChannelMessage = (
    Ready
    | UserCodeStarts
    | ImportFailed
    | Missing
    | HiddenTestsStart
    | HiddenTestStarts
    | HiddenTestResult
    | Done
    | Aborted
    | InternalFailure
)


class ChildEnded(msgspec.Struct, kw_only=True):
    """The supervisor's one status line to the grader: how the sandboxed child ended."""

    cpu: float  # seconds of CPU the child used
    timed_out: bool  # the wall-clock deadline passed
    stopped: bool  # the supervisor killed the child (deadline, output cap, grader gone)
    exit: int | None  # exit code, if it exited
    signal: int | None  # the signal that ended it, if one did
    scratch_full: bool = False  # the supervisor stopped it: the scratch folder outgrew its limit


def encode_status(status: ChildEnded) -> bytes:
    """``status`` as one line of the status pipe."""
    return msgspec.json.encode(status) + b"\n"


def decode_status(line: bytes) -> ChildEnded:
    """One line of the status pipe; raises :class:`msgspec.DecodeError` if it is not one."""
    return msgspec.json.decode(line, type=ChildEnded)


# Bound now, before any submission runs: patching ``json`` or msgspec later does not reach the reports.
_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(ChannelMessage).decode
_write = os.write
_getpid = os.getpid


class EndOfStream(Exception):
    """The other end closed before a whole frame arrived."""


class TimedOut(Exception):
    """No whole frame arrived before the deadline."""


def read_exact(fd: int, size: int, deadline: float | None = None) -> bytes:
    """Exactly ``size`` bytes from ``fd``, waiting at most until ``deadline`` (monotonic)."""
    chunks = []
    while size:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimedOut
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                continue
        chunk = os.read(fd, size)
        if not chunk:
            raise EndOfStream
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, deadline: float | None = None) -> dict[str, object]:
    """One framed JSON object from ``fd``."""
    (size,) = HEADER.unpack(read_exact(fd, HEADER.size, deadline))
    message = json.loads(read_exact(fd, size, deadline))
    if not isinstance(message, dict):
        raise ValueError("a frame must hold a JSON object")
    return message


def encode_frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return HEADER.pack(len(body)) + body


def write_frame(fd: int, message: dict[str, object]) -> None:
    data = encode_frame(message)
    while data:
        data = data[os.write(fd, data) :]


def new_nonce() -> str:
    import secrets  # with hashlib and OpenSSL behind it: loaded when a grader first starts

    return secrets.token_hex(16)


class Reporter:
    """Child side: writes messages to the result fd, only from the process that created it."""

    def __init__(self, fd: int, nonce: str) -> None:
        self._fd = fd
        self._nonce = nonce
        self._pid = os.getpid()
        self.sent: set[str] = set()

    def send(self, message: Message) -> None:
        """Stamp ``message`` with the run's nonce and write it as one line."""
        if _getpid() != self._pid:  # a forked copy of the harness does not speak for the run
            return
        self.sent.add(message.kind)
        message.n = self._nonce
        data = _encode(message) + b"\n"
        while data:
            try:
                written = _write(self._fd, data)
            except InterruptedError:
                continue
            except OSError:
                os._exit(75)  # the grader is gone: nothing left to report to
            data = data[written:]


@dataclass
class ChannelReader:
    """Grader side: splits the byte stream into verified messages and counts forgeries."""

    nonce: str
    messages: list[ChannelMessage] = field(default_factory=list)
    forged: int = 0
    done: bool = False  # the harness said every test has reported
    overflowed: bool = False  # more than CHANNEL_LIMIT bytes arrived; the rest was dropped
    _line: bytearray = field(default_factory=bytearray)
    _skipping: bool = False  # inside an over-long line, until its newline
    _total: int = 0

    def feed(self, data: bytes) -> None:
        if self.overflowed:
            return
        self._total += len(data)
        if self._total > CHANNEL_LIMIT:
            self.overflowed = True
            return
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._skipping:
                if len(self._line) + len(piece) > LINE_LIMIT:
                    self._skipping = True
                    self._line.clear()
                    self.forged += 1
                else:
                    self._line += piece
            if end < 0:
                return
            if self._skipping:
                self._skipping = False
            else:
                self._take(bytes(self._line))
                self._line.clear()
            start = end + 1

    def close(self) -> None:
        if self._line.strip() and not self._skipping:
            self._take(bytes(self._line))
        self._line.clear()

    def _take(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = _decode(line)
        except msgspec.DecodeError:
            self.forged += 1
            return
        if message.n != self.nonce:
            self.forged += 1
            return
        self.messages.append(message)
        if isinstance(message, Done):
            self.done = True
