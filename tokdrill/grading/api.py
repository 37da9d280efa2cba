"""Public grading entry points: :func:`grade` (one cold run), :class:`WarmGrader`, and
:func:`sandbox_notice` (what to tell a person about the sandbox on this machine)."""

from __future__ import annotations

import os

from tokdrill.grading.limits import Limits
from tokdrill.grading.spec import DrillLike, DrillSpec
from tokdrill.grading.submission import SUBMISSION_FILENAME
from tokdrill.grading.threads import may_fork
from tokdrill.grading.verdict import Verdict
from tokdrill.grading.warm import WarmGrader

__all__ = ["Limits", "WarmGrader", "grade", "sandbox_notice"]

_local = None


def grade(
    drill: DrillLike, source: str, *, limits: Limits | None = None, filename: str = SUBMISSION_FILENAME
) -> Verdict:
    """Grade ``source`` against ``drill``'s hidden tests in a sandbox and return the verdict.

    ``drill`` is anything with ``id``, ``symbols`` and ``hidden_tests`` (absolute paths);
    ``filename`` is what messages call the user's code. From a single-threaded process this
    forks the sandbox directly (the fastest cold path); with other threads running it uses a
    one-off grading server process, since forking there could deadlock the child.
    """
    spec = DrillSpec.of(drill)
    if not hasattr(os, "fork") or not hasattr(os, "pidfd_open"):
        from tokdrill.grading.decide import internal_error

        return internal_error(spec.id, (), "the sandbox needs Linux (fork, pidfd_open)")
    if not may_fork():
        with WarmGrader() as grader:
            return grader.grade(spec, source, limits=limits, filename=filename)
    global _local
    if _local is None:
        from tokdrill.grading.local import LocalGrader

        _local = LocalGrader()
    return _local.grade(spec, source, limits, filename)


def sandbox_notice(grader: WarmGrader | None = None) -> str:
    """One paragraph for a person if a protection of the sandbox is missing here, else "".

    Landlock and seccomp settle it without forking (together they keep every promise wherever
    user namespaces are refused). Otherwise the machine is probed: here if this process is single-threaded, else by
    ``grader`` (or a one-off grading server), since forking a threaded process is unsafe.
    """
    from tokdrill.grading import landlock, mechanisms, seccomp

    refused = mechanisms.refused()
    if not {"landlock", "seccomp"} & refused and landlock.abi_version() > 0 and seccomp.library() is not None:
        return ""
    if may_fork():
        return mechanisms.notice(mechanisms.detect())
    if grader is not None:
        return grader.notice()
    with WarmGrader() as one_off:
        return one_off.notice()
