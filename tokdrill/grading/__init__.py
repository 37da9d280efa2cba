"""Grading: run a submission against a drill's hidden tests and decide a verdict.

``grade`` and ``WarmGrader`` are imported lazily, so ``import tokdrill.grading`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tokdrill.grading.api import WarmGrader, grade
    from tokdrill.grading.limits import Limits

__all__ = ["Limits", "WarmGrader", "grade"]


def __getattr__(name: str) -> Any:
    if name in ("grade", "WarmGrader"):
        from tokdrill.grading import api

        return getattr(api, name)
    if name == "Limits":
        from tokdrill.grading.limits import Limits

        return Limits
    raise AttributeError(f"module 'tokdrill.grading' has no attribute {name!r}")
