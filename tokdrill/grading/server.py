"""The warm grading server: ``python -m tokdrill.grading.server``.

A single-threaded process that imports pytest, the harness and ``reference_impl`` once, keeps
each drill's tests collected, and forks a sandbox per request. It speaks length-prefixed JSON on
the descriptors it was started with as stdin/stdout; fd 0 and 1 are then pointed elsewhere so a
stray print can never corrupt the protocol. It exits when its client goes away.
"""

from __future__ import annotations

import json
import os
import struct
import sys

HEADER = struct.Struct(">I")


def read_message(fd: int) -> dict[str, object] | None:
    """One framed JSON message from ``fd``; None at end of file."""
    header = _read_exact(fd, HEADER.size)
    if header is None:
        return None
    (size,) = HEADER.unpack(header)
    body = _read_exact(fd, size)
    if body is None:
        return None
    return json.loads(body)


def write_message(fd: int, message: dict[str, object]) -> None:
    body = json.dumps(message).encode()
    data = HEADER.pack(len(body)) + body
    while data:
        data = data[os.write(fd, data) :]


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = os.read(fd, size)
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def serve(in_fd: int, out_fd: int) -> None:
    """Answer requests until the client closes its end."""
    from tokdrill.grading.decide import internal_error
    from tokdrill.grading.limits import Limits
    from tokdrill.grading.local import LocalGrader
    from tokdrill.grading.spec import DrillSpec

    grader = LocalGrader(keep_standby=True)
    write_message(out_fd, {"ok": True, "ready": True, "pid": os.getpid()})
    while True:
        request = read_message(in_fd)
        if request is None:
            return
        op = request.get("op")
        try:
            if op == "grade":
                spec = DrillSpec.from_json(request["drill"])  # type: ignore[arg-type]
                limits = Limits.from_json(request.get("limits") or {})  # type: ignore[arg-type]
                verdict = grader.grade(spec, str(request["source"]), limits)
                write_message(out_fd, {"ok": True, "verdict": verdict.to_json()})
                if not verdict.internal:
                    grader.refill(spec, limits)  # after answering: the next request finds it ready
            elif op == "prepare":
                errors = []
                last = None
                for data in request.get("drills", []):  # type: ignore[union-attr]
                    spec = DrillSpec.from_json(data)
                    try:
                        grader.prepare(spec)
                        last = spec
                    except Exception as exc:  # noqa: BLE001
                        errors.append(f"{spec.id}: {exc}")
                write_message(out_fd, {"ok": True, "errors": errors})
                if last is not None:
                    grader.refill(last)
            elif op == "ping":
                write_message(out_fd, {"ok": True})
            else:
                write_message(out_fd, {"ok": False, "error": f"unknown request {op!r}"})
        except Exception as exc:  # noqa: BLE001 - answer, never die on one bad request
            drill_id = str((request.get("drill") or {}).get("id", "?"))  # type: ignore[union-attr]
            verdict = internal_error(drill_id, (), f"{type(exc).__name__}: {exc}")
            write_message(out_fd, {"ok": True, "verdict": verdict.to_json()})


def main() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's to handle; EOF stops us
    in_fd, out_fd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    try:
        from tokdrill.grading.isolation import die_with_parent

        die_with_parent()
    except OSError:
        pass
    if os.getppid() == 1:
        return
    # Import everything a submission run needs before the first request arrives.
    import pytest  # noqa: F401

    import tokdrill.grading.sandbox  # noqa: F401

    try:
        import reference_impl  # noqa: F401
    except Exception:  # noqa: BLE001 - reported per request instead
        pass
    serve(in_fd, out_fd)


if __name__ == "__main__":
    sys.exit(main())
