"""`WarmGrader`: a client for the long-lived grading server (see :mod:`tokdrill.grading.server`).

Safe to call from any thread (one request at a time, under a lock); the calling process never
forks and never imports pytest. If the server dies or stops answering, the grade in flight
becomes an internal-error verdict and the next call starts a fresh server.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
import time
from types import TracebackType

from tokdrill.grading.limits import DEFAULT_LIMITS, Limits
from tokdrill.grading.server import HEADER
from tokdrill.grading.spec import DrillSpec
from tokdrill.grading.verdict import TestResult, Verdict

PREPARE_SECONDS = 60.0  # allowance for starting the server and collecting a drill's tests


class GraderUnavailable(Exception):
    """The grading server died or did not answer in time."""


class WarmGrader:
    """Grades submissions through a warm server process with pytest and the harness loaded.

    The server starts in the background when the grader is created; ``grade`` waits for it.
    """

    def __init__(self, *, python: str | None = None, stderr: int | None = subprocess.DEVNULL) -> None:
        self._python = python or sys.executable
        self._stderr = stderr
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._ready = False
        self._closed = False
        self.restarts = 0
        with self._lock:
            self._start()

    # -- public API ---------------------------------------------------------------------------
    def grade(self, drill: object, source: str, *, limits: Limits | None = None) -> Verdict:
        """Grade ``source`` against ``drill``'s hidden tests; never raises for a bad submission."""
        spec = DrillSpec.of(drill)
        limits = limits or DEFAULT_LIMITS
        request = {"op": "grade", "drill": spec.to_json(), "source": source, "limits": limits.to_json()}
        start = time.perf_counter()
        timeout = limits.wall_seconds + PREPARE_SECONDS
        for attempt in (1, 2):
            try:
                reply = self._request(request, timeout)
                return Verdict.from_json(reply["verdict"])  # type: ignore[arg-type]
            except GraderUnavailable as exc:
                if attempt == 2 or "did not answer" in str(exc):
                    return _internal(spec, str(exc), time.perf_counter() - start)
        raise AssertionError("unreachable")

    def preload(self, drills: list[object]) -> list[str]:
        """Collect these drills' tests in the server now; returns error lines (empty if all fine)."""
        request = {"op": "prepare", "drills": [DrillSpec.of(d).to_json() for d in drills]}
        try:
            reply = self._request(request, PREPARE_SECONDS * max(1, len(drills)))
        except GraderUnavailable as exc:
            return [str(exc)]
        return [str(e) for e in reply.get("errors", [])]  # type: ignore[union-attr]

    @property
    def server_pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def close(self) -> None:
        """Stop the server (idempotent)."""
        with self._lock:
            self._closed = True
            self._stop()

    def __enter__(self) -> WarmGrader:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __del__(self) -> None:  # best effort; close() is the real way
        try:
            self._stop()
        except Exception:  # noqa: BLE001
            pass

    # -- internals ----------------------------------------------------------------------------
    def _start(self) -> None:
        env = dict(os.environ)
        env.setdefault("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
        self._proc = subprocess.Popen(
            # -P: the current folder is not put on sys.path, so a user's `pytest.py` or
            # `reference_impl.py` next to their work cannot shadow the real ones.
            [self._python, "-P", "-m", "tokdrill.grading.server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            close_fds=True,
        )
        self._ready = False

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            if proc.stdout:
                proc.stdout.close()

    def _request(self, request: dict[str, object], timeout: float) -> dict[str, object]:
        import json

        with self._lock:
            if self._closed:
                raise GraderUnavailable("the grader was closed")
            if self._proc is None or self._proc.poll() is not None:
                self._stop()
                self._start()
                self.restarts += 1
            proc = self._proc
            assert proc is not None and proc.stdin is not None and proc.stdout is not None
            deadline = time.monotonic() + timeout + (PREPARE_SECONDS if not self._ready else 0.0)
            try:
                if not self._ready:
                    self._read(proc, deadline)  # the server's hello
                    self._ready = True
                body = json.dumps(request).encode()
                proc.stdin.write(HEADER.pack(len(body)) + body)
                proc.stdin.flush()
                return self._read(proc, deadline)
            except (OSError, ValueError, GraderUnavailable) as exc:
                self._stop()
                if isinstance(exc, GraderUnavailable):
                    raise
                raise GraderUnavailable(f"the grading server stopped ({exc})") from exc

    def _read(self, proc: subprocess.Popen[bytes], deadline: float) -> dict[str, object]:
        import json

        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        header = self._read_exact(fd, HEADER.size, deadline)
        (size,) = HEADER.unpack(header)
        return json.loads(self._read_exact(fd, size, deadline))

    @staticmethod
    def _read_exact(fd: int, size: int, deadline: float) -> bytes:
        chunks = []
        while size:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise GraderUnavailable("the grading server did not answer in time")
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                continue
            chunk = os.read(fd, size)
            if not chunk:
                raise GraderUnavailable("the grading server exited unexpectedly")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)


def _internal(spec: DrillSpec, message: str, seconds: float) -> Verdict:
    text = "internal error in tokdrill's grader (not a problem with your code): " + message
    return Verdict(spec.id, False, (), seconds, text, (), internal=True)


__all__ = ["GraderUnavailable", "TestResult", "WarmGrader"]
