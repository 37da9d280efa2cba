"""Verdict types shared by the sandbox, the CLI and the UI."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from msgspec import Struct

from tokdrill.grading.divergence import read as read_divergence

Outcome = Literal["passed", "failed", "error", "timeout"]
OUTCOMES: tuple[Outcome, ...] = ("passed", "failed", "error", "timeout")


class TestResult(Struct, frozen=True):
    """One hidden test's result: pytest node name (file::test), outcome, a readable message, and
    the concepts the test checks (from its ``concept`` markers, read by the grader itself)."""

    __test__ = False  # not a pytest test class

    name: str
    outcome: Outcome
    message: str = ""
    concepts: tuple[str, ...] = ()

    @property
    def divergence(self) -> str:
        """Where the submission first left the reference in this test ('' when not traced)."""
        return read_divergence(self.message) if self.outcome != "passed" else ""

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {"first_divergence": self.divergence} if self.divergence else {}
        return {
            "name": self.name,
            "outcome": self.outcome,
            "message": self.message,
            "concepts": list(self.concepts),
            **found,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> TestResult:
        outcome = data.get("outcome")
        concepts = data.get("concepts")
        return cls(
            name=str(data.get("name", "")),
            outcome=outcome if outcome in OUTCOMES else "error",
            message=str(data.get("message", "")),
            concepts=tuple(str(c) for c in concepts) if isinstance(concepts, list) else (),
        )


class Verdict(Struct, frozen=True):
    """The trusted side's decision on one submission."""

    drill: str
    passed: bool
    tests: tuple[TestResult, ...]
    seconds: float
    problem: str = ""  # whole-submission problem (syntax error, limit hit, missing symbol), if any
    protections: tuple[str, ...] = ()
    output: str = ""  # the submission's own stdout/stderr (tail, capped), for display
    internal: bool = False  # True when tokdrill itself failed to grade (not the user's fault)
    notice: str = ""  # what a person should know about a weak sandbox on this machine, if anything

    def to_json(self) -> dict[str, object]:
        return {
            "drill": self.drill,
            "passed": self.passed,
            "tests": [t.to_json() for t in self.tests],
            "seconds": round(self.seconds, 4),
            "problem": self.problem,
            "protections": list(self.protections),
            "output": self.output,
            "internal": self.internal,
            "notice": self.notice,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Verdict:
        """Inverse of :meth:`to_json` (used between the warm grading server and its clients)."""
        tests = data.get("tests")
        protections = data.get("protections")
        seconds = data.get("seconds")
        return cls(
            drill=str(data.get("drill", "")),
            passed=data.get("passed") is True,
            tests=tuple(TestResult.from_json(t) for t in tests if isinstance(t, dict))
            if isinstance(tests, list)
            else (),
            seconds=float(seconds) if isinstance(seconds, (int, float)) else 0.0,
            problem=str(data.get("problem", "")),
            protections=tuple(str(p) for p in protections) if isinstance(protections, list) else (),
            output=str(data.get("output", "")),
            internal=data.get("internal") is True,
            notice=str(data.get("notice", "")),
        )
