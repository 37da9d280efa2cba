"""`WarmGrader`: a client for the long-lived grading server (see :mod:`tokdrill.grading.server`).

Safe to call from any thread (one request at a time, under a lock); the calling process never
forks and never imports pytest. If the server dies or stops answering, the grade in flight
becomes an internal-error verdict and the next call starts a fresh server.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from types import TracebackType

from tokdrill.grading.limits import Limits, default_limits
from tokdrill.grading.protocol import EndOfStream, TimedOut, encode_frame, read_frame
from tokdrill.grading.spec import DrillLike, DrillSpec
from tokdrill.grading.submission import SUBMISSION_FILENAME
from tokdrill.grading.verdict import TestResult, Verdict

PREPARE_SECONDS = 60.0  # allowance for starting the server and collecting a drill's tests


class GraderUnavailable(Exception):
    """The grading server died or did not answer in time."""


class WarmGrader:
    """Grades submissions through a warm server process with pytest and the harness loaded.

    The server starts in the background when the grader is created; ``grade`` waits for it.
    ``env`` adds variables to the server's environment (``TOKDRILL_SANDBOX_REFUSE`` to grade on a
    fallback path).
    """

    def __init__(
        self,
        *,
        python: str | None = None,
        stderr: int | None = subprocess.DEVNULL,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self._python = python or sys.executable
        self._stderr = stderr
        self._env = dict(env or {})
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._hello: dict[str, object] | None = None
        self._closed = False
        self.restarts = 0
        with self._lock:
            self._start()

    # -- public API ---------------------------------------------------------------------------
    def grade(
        self,
        drill: DrillLike,
        source: str,
        *,
        limits: Limits | None = None,
        filename: str = SUBMISSION_FILENAME,
    ) -> Verdict:
        """Grade ``source`` against ``drill``'s hidden tests; never raises for a bad submission."""
        spec = DrillSpec.of(drill)
        limits = limits or default_limits()
        request: dict[str, object] = {
            "op": "grade",
            "drill": spec.to_json(),
            "source": source,
            "limits": limits.to_json(),
            "filename": filename,
        }
        start = time.perf_counter()
        timeout = limits.wall_seconds + PREPARE_SECONDS
        for attempt in (1, 2):
            try:
                reply = self._request(request, timeout)
                verdict = reply.get("verdict")
                if not isinstance(verdict, dict):
                    raise GraderUnavailable("the grading server sent no verdict")
                return Verdict.from_json(verdict)
            except GraderUnavailable as exc:
                if attempt == 2 or "did not answer" in str(exc):
                    return _internal(spec, str(exc), time.perf_counter() - start)
        raise AssertionError("unreachable")

    def preload(self, drills: Sequence[DrillLike]) -> list[str]:
        """Collect these drills' tests in the server now; returns error lines (empty if all fine)."""
        request: dict[str, object] = {"op": "prepare", "drills": [DrillSpec.of(d).to_json() for d in drills]}
        try:
            reply = self._request(request, PREPARE_SECONDS * max(1, len(drills)))
        except GraderUnavailable as exc:
            return [str(exc)]
        errors = reply.get("errors")
        return [str(e) for e in errors] if isinstance(errors, list) else []

    def notice(self) -> str:
        """What a person should know about the sandbox on this machine ("" if it protects their
        files), as the server found when it started."""
        return self._greeting("notice")

    def mode(self) -> str:
        """The sandbox path the server grades on: "userns", "landlock" or "plain" ("" if it
        did not start)."""
        return self._greeting("mode")

    def settle(self) -> bool:
        """Wait until the server has done what it does after answering a grade (reaping that
        sandbox, starting the next standby), as it has in the seconds a person takes between
        two submissions: it answers a ping only then. False if it did not answer (the next
        request starts a fresh server)."""
        try:
            self._request({"op": "ping"}, PREPARE_SECONDS)
        except GraderUnavailable:
            return False
        return True

    def _greeting(self, field: str) -> str:
        """A field of the server's first frame ("" if the server does not answer)."""
        hello = (self._hello or {}) if self.settle() else {}
        return str(hello.get(field, ""))

    @property
    def server_pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def close(self) -> None:
        """Stop the server (idempotent). A request in flight is cut short, not waited for: it
        ends as "the grader was closed" (an internal verdict for a grade)."""
        self._closed = True  # from now on a request fails at once, and a failed one is not retried
        if not self._lock.acquire(blocking=False):
            proc = self._proc
            if proc is not None:
                try:
                    proc.kill()  # the request's read ends; its sandbox dies with the server
                except OSError:
                    pass
            self._lock.acquire()
        try:
            self._stop()
        finally:
            self._lock.release()

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
        env = {**os.environ, **self._env}
        env.setdefault("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
        self._proc = subprocess.Popen(
            # -P: the current folder is not put on sys.path, so a user's `pytest.py` or
            # `reference_impl.py` next to their work cannot shadow the real ones.
            [self._python, "-P", "-m", "tokdrill.grading.server", str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            close_fds=True,
        )
        self._hello = None

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
        with self._lock:
            if self._closed:
                raise GraderUnavailable("the grader was closed")
            if self._proc is None or self._proc.poll() is not None:
                self._stop()
                self._start()
                self.restarts += 1
            proc = self._proc
            if proc is None or proc.stdin is None or proc.stdout is None:
                raise GraderUnavailable("the grading server did not start")
            fd = proc.stdout.fileno()
            deadline = time.monotonic() + timeout + (PREPARE_SECONDS if self._hello is None else 0.0)
            try:
                if self._hello is None:
                    self._hello = read_frame(fd, deadline)
                proc.stdin.write(encode_frame(request))
                proc.stdin.flush()
                return read_frame(fd, deadline)
            except TimedOut:
                self._stop()
                raise GraderUnavailable("the grading server did not answer in time") from None
            except EndOfStream:
                self._stop()
                raise GraderUnavailable("the grading server exited unexpectedly") from None
            except (OSError, ValueError) as exc:
                self._stop()
                raise GraderUnavailable(f"the grading server stopped ({exc})") from exc


def _internal(spec: DrillSpec, message: str, seconds: float) -> Verdict:
    from tokdrill.grading.decide import internal_error

    return internal_error(spec.id, (), message, seconds)


__all__ = ["GraderUnavailable", "TestResult", "WarmGrader"]
