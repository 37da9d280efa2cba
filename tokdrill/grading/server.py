"""The warm grading server: ``python -m tokdrill.grading.server PARENT_PID``.

A single-threaded process that imports pytest, the harness and ``reference_impl`` once, keeps
each drill's tests collected, and starts a sandbox per request (forking is safe here: no other
thread exists). It speaks length-prefixed JSON (:mod:`tokdrill.grading.protocol`) on the
descriptors it was started with as stdin/stdout; fd 0 and 1 are then pointed elsewhere so a
stray print can never corrupt the protocol. It exits when its client goes away: end of input,
or the client's death (the parent-death signal).
"""

from __future__ import annotations

import os
import select
import signal
import sys

from tokdrill.grading.protocol import EndOfStream, read_frame, write_frame

# After a verdict the next standby sandbox starts this much later, once the app has drawn the
# verdict (its frame and the standby's start would share the cores). A grade request that comes
# first starts its own sandbox; any other request is answered once the standby has started.
REFILL_AFTER_SECONDS = 0.05
END = "end"  # not a request: the client closed its end while the server waited


def serve(in_fd: int, out_fd: int) -> None:
    """Answer requests until the client closes its end."""
    # The third-party module submissions import most: loaded once here, every sandbox has it.
    import regex  # noqa: F401

    from tokdrill.grading import mechanisms
    from tokdrill.grading.decide import internal_error
    from tokdrill.grading.limits import Limits
    from tokdrill.grading.local import LocalGrader
    from tokdrill.grading.sandbox import choose_mode
    from tokdrill.grading.spec import DrillSpec
    from tokdrill.grading.submission import SUBMISSION_FILENAME

    found = mechanisms.detect()
    grader = LocalGrader(keep_standby=True)
    hello = {"ok": True, "ready": True, "pid": os.getpid(), "notice": mechanisms.notice(found)}
    write_frame(out_fd, {**hello, "mode": choose_mode(found)})
    waiting: dict[str, object] | None = None  # a request read while deciding on the standby
    while True:
        if waiting is None:
            try:
                request = read_frame(in_fd)
            except EndOfStream:
                return
        else:
            request, waiting = waiting, None
        op = request.get("op")
        if op == END:
            return
        try:
            if op == "grade":
                spec = DrillSpec.from_json(request.get("drill"))
                limits = Limits.from_json(_mapping(request.get("limits")))
                filename = str(request.get("filename") or SUBMISSION_FILENAME)
                verdict = grader.grade(spec, str(request.get("source", "")), limits, filename)
                write_frame(out_fd, {"ok": True, "verdict": verdict.to_json()})
                if not verdict.internal:  # after answering: the next request finds it ready
                    waiting = _next_request(in_fd, REFILL_AFTER_SECONDS)
                    if waiting is None or waiting.get("op") != "grade":
                        grader.refill(spec, limits)
            elif op == "prepare":
                errors = []
                last = None
                drills = request.get("drills")
                for data in drills if isinstance(drills, list) else []:
                    spec = DrillSpec.from_json(data)
                    try:
                        grader.prepare(spec)
                        last = spec
                    except Exception as exc:  # noqa: BLE001 - reported to the client
                        errors.append(f"{spec.id}: {exc}")
                write_frame(out_fd, {"ok": True, "errors": errors})
                if last is not None:
                    grader.refill(last)
            elif op == "ping":
                write_frame(out_fd, {"ok": True})
            else:
                write_frame(out_fd, {"ok": False, "error": f"unknown request {op!r}"})
        except Exception as exc:  # noqa: BLE001 - answer, never die on one bad request
            drill = _mapping(request.get("drill"))
            verdict = internal_error(str(drill.get("id", "?")), (), f"{type(exc).__name__}: {exc}")
            write_frame(out_fd, {"ok": True, "verdict": verdict.to_json()})


def _next_request(fd: int, seconds: float) -> dict[str, object] | None:
    """The request that arrives on ``fd`` within ``seconds`` (``{"op": END}`` if the client closed
    its end), or None."""
    readable, _, _ = select.select([fd], [], [], seconds)
    if not readable:
        return None
    try:
        return read_frame(fd)
    except (EndOfStream, ValueError):  # closed, or not a frame: the server ends as it would have
        return {"op": END}


def _mapping(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle; EOF stops us
    in_fd, out_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    from tokdrill.grading import kernel

    try:
        kernel.die_with_parent()
    except OSError:
        pass
    expected_parent = int(argv[0]) if argv and argv[0].isdigit() else None
    if expected_parent is not None and os.getppid() != expected_parent:
        return 0  # the client died before we could tie ourselves to it
    # Import everything a submission run needs before the first request arrives.
    import pytest  # noqa: F401

    import tokdrill.grading.sandbox  # noqa: F401

    try:
        import reference_impl  # noqa: F401
    except Exception:  # noqa: BLE001 - reported per request instead
        pass
    serve(in_fd, out_fd)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
