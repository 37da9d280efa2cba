"""The floor of the sandbox-overhead figure: a drill's hidden tests against a source in a plain
fork, no sandbox, timed.

Forking is safe only from a single-threaded process, and a benchmark's process may have other
threads (a test runner's, a store's writer). So the forks happen in a helper process of their
own, ``python -m tokdrill.bench.plain_run``, which does nothing but this: it collects each drill's
tests once, as the grading server does, and for each request forks a child that freezes its
inherited heap (as the server does before it starts sandboxes), builds the submission, runs the
tests and reports how long that took. :class:`PlainRuns` is its client; the requests and answers
are the grading server's length-prefixed JSON frames.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from types import TracebackType

from tokdrill.grading.protocol import EndOfStream, encode_frame, read_frame, write_frame
from tokdrill.grading.spec import DrillLike, DrillSpec

ANSWER_SECONDS = 120.0  # collecting a drill's tests, then one plain run of them


class PlainRuns:
    """A helper process that times plain runs of hidden tests; use it as a context manager."""

    def __init__(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "tokdrill.bench.plain_run"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
        )

    def sample(self, drill: DrillLike, source: str) -> float | None:
        """Milliseconds of ``drill``'s hidden tests against ``source`` in a plain fork; None if
        the source does not load or the run reported nothing."""
        proc = self._proc
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(encode_frame({"drill": DrillSpec.of(drill).to_json(), "source": source}))
        proc.stdin.flush()
        reply = read_frame(proc.stdout.fileno(), time.monotonic() + ANSWER_SECONDS)
        error = reply.get("error")
        if error:
            raise RuntimeError(f"the plain-run helper failed: {error}")
        ms = reply.get("ms")
        return float(ms) if isinstance(ms, int | float) else None

    def close(self) -> None:
        proc = self._proc
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()

    def __enter__(self) -> PlainRuns:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _timed_fork(prepared: object, source: str) -> float | None:
    """In the helper: one plain run in a fork of this single-threaded process."""
    from tokdrill.grading.prepared import PreparedDrill
    from tokdrill.grading.submission import build_module

    assert isinstance(prepared, PreparedDrill)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            gc.freeze()
            start = time.perf_counter()
            built, _ = build_module(source, prepared.spec.symbols)
            prepared.session.run(_unsealed, lambda: built, [])
            os.write(write_end, repr(time.perf_counter() - start).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        data = os.read(read_end, 64)
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    return float(data) * 1000 if data else None


def _unsealed() -> None:
    """A plain run has no sandbox to seal."""


def serve(in_fd: int, out_fd: int) -> None:
    """Answer requests until the client closes its end."""
    from tokdrill.grading.prepared import PreparedDrill

    prepared: dict[DrillSpec, PreparedDrill] = {}
    while True:
        try:
            request = read_frame(in_fd)
        except EndOfStream:
            return
        try:
            spec = DrillSpec.from_json(request.get("drill"))
            if spec not in prepared:
                prepared[spec] = PreparedDrill(spec)
                gc.collect()
                gc.freeze()
            reply: dict[str, object] = {"ms": _timed_fork(prepared[spec], str(request.get("source", "")))}
        except Exception as exc:  # noqa: BLE001 - answered, so the client can say what went wrong
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        write_frame(out_fd, reply)


def main() -> int:
    in_fd, out_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)  # a test's stray print never reaches the frames
    os.close(devnull)
    serve(in_fd, out_fd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
