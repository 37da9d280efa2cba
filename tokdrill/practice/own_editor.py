"""Practice in the user's own editor: the rules of ``tokdrill start`` and ``tokdrill check``.

An attempt is one start to its first pass. ``tokdrill start`` starts the drill's clock; each
check of a changed source is recorded (its blamed concepts go to the mistake log) until the
first pass, which records the attempt, timed from the start to that check (wall time: the clock
does not pause between checks), with the number of checks as its submissions. After that pass,
checks are *practice runs*: graded and shown, never recorded, until the next start. A start
whose attempt never passed is recorded as a failed attempt when the next start replaces it
(abandoned). A source checked again unchanged is shown, not recorded again. A check without a
start starts the clock there when it fails; when it passes it is not timed, records no attempt,
and the checks after it are practice runs.

These functions decide; :class:`tokdrill.practice.service.Practice` writes what they decide.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from msgspec.structs import replace

from tokdrill.progress.records import Attempt, Mode, Start, TestOutcome

CheckKind = Literal["recorded", "unchanged", "practice"]
"""What a check was: recorded (its concepts logged, perhaps the attempt), the same source as the
previous recorded check (shown only), or a practice run after the start's pass (shown only)."""


def source_hash(source: str) -> str:
    """The hash by which the same source is recognised when it is graded again."""
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class CheckDecision:
    """What one check changes: its kind, the start as it is afterwards (None: unchanged), and
    the attempt it ends (on the first pass after a start)."""

    kind: CheckKind
    start: Start | None
    attempt: Attempt | None


def new_start(drill_id: str, mode: Mode, path: str, now: datetime) -> Start:
    """A start of ``drill_id`` now for the file at ``path``."""
    return Start(drill_id, mode, path, now, 0)


def abandoned_attempt(start: Start | None, target_seconds: int) -> Attempt | None:
    """The failed attempt a start leaves when a new start replaces it: None unless it was
    checked and never passed. Timed from the start to its last check."""
    if start is None or not start.open or start.checks == 0 or start.checked_at is None:
        return None
    return Attempt(
        drill_id=start.drill_id,
        mode=start.mode,
        started_at=start.started_at,
        ended_at=start.checked_at,
        active_seconds=max(0.0, (start.checked_at - start.started_at).total_seconds()),
        target_seconds=target_seconds,
        passed=False,
        submissions=start.checks,
        origin="check",
    )


def decide_check(
    start: Start | None,
    drill_id: str,
    target_seconds: int,
    path: str,
    digest: str,
    passed: bool,
    tests: tuple[TestOutcome, ...],
    now: datetime,
) -> CheckDecision:
    """What a check of the source hashed ``digest`` that ``passed`` (or not) does, given the
    drill's ``start`` (see the module's rules)."""
    if start is not None and start.source_hash == digest:
        return CheckDecision("unchanged", None, None)
    if start is not None and not start.open:
        return CheckDecision("practice", None, None)
    if start is None:
        begun = Start(drill_id, "recall", path, now, 1, now, digest, now if passed else None)
        return CheckDecision("recorded", begun, None)
    after = replace(start, checks=start.checks + 1, checked_at=now, source_hash=digest)
    if not passed:
        return CheckDecision("recorded", after, None)
    attempt = Attempt(
        drill_id=drill_id,
        mode=start.mode,
        started_at=start.started_at,
        ended_at=now,
        active_seconds=max(0.0, (now - start.started_at).total_seconds()),
        target_seconds=target_seconds,
        passed=True,
        submissions=after.checks,
        tests=tests,
        origin="check",
    )
    return CheckDecision("recorded", replace(after, passed_at=now), attempt)
