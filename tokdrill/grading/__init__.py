"""Grading: run a submission against a drill's hidden tests in a sandbox and decide a verdict.

Where to look: :mod:`~tokdrill.grading.api` (entry points), :mod:`~tokdrill.grading.sandbox`
(grader side of a run), :mod:`~tokdrill.grading.harness` and :mod:`~tokdrill.grading.confine`
(sandboxed side), :mod:`~tokdrill.grading.protocol` (wire formats and the typed messages of the
result channel), :mod:`~tokdrill.grading.decide` (observations to verdict),
:mod:`~tokdrill.grading.verdict` (types), :mod:`~tokdrill.grading.report` (verdict to text),
:mod:`~tokdrill.grading.pytest_internals` (pytest's private names). ``grade`` and ``WarmGrader`` are imported lazily, so ``import tokdrill.grading``
stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokdrill.grading.api import WarmGrader, grade, sandbox_notice
    from tokdrill.grading.limits import Limits

__all__ = ["Limits", "WarmGrader", "grade", "sandbox_notice"]


def __getattr__(name: str) -> object:
    if name in ("grade", "WarmGrader", "sandbox_notice"):
        from tokdrill.grading import api

        return getattr(api, name)
    if name == "Limits":
        from tokdrill.grading.limits import Limits

        return Limits
    raise AttributeError(f"module 'tokdrill.grading' has no attribute {name!r}")
