"""Public grading entry points: :func:`grade` (one cold run) and :class:`WarmGrader`."""

from __future__ import annotations

import os
import threading

from tokdrill.grading.limits import Limits
from tokdrill.grading.verdict import Verdict
from tokdrill.grading.warm import WarmGrader

__all__ = ["Limits", "WarmGrader", "grade"]

_local = None


def grade(drill: object, source: str, *, limits: Limits | None = None) -> Verdict:
    """Grade ``source`` against ``drill``'s hidden tests in a sandbox and return the verdict.

    ``drill`` is anything with ``id``, ``symbols`` and ``hidden_tests`` (absolute paths). From a
    single-threaded process this forks the sandbox directly (fastest cold path); with other
    threads running it uses a one-off grading server process, since forking there is unsafe.
    """
    from tokdrill.grading.spec import DrillSpec

    spec = DrillSpec.of(drill)
    if not hasattr(os, "fork"):
        from tokdrill.grading.decide import internal_error

        return internal_error(spec.id, (), "the sandbox needs a POSIX system with fork() (Linux or macOS)")
    if threading.active_count() > 1:
        with WarmGrader() as grader:
            return grader.grade(spec, source, limits=limits)
    global _local
    if _local is None:
        from tokdrill.grading.local import LocalGrader

        _local = LocalGrader()
    return _local.grade(spec, source, limits)
