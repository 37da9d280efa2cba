"""Verdict types shared by the sandbox, the CLI and the UI."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Outcome = Literal["passed", "failed", "error", "timeout"]
OUTCOMES: tuple[Outcome, ...] = ("passed", "failed", "error", "timeout")


@dataclass(frozen=True)
class TestResult:
    """One hidden test's result: pytest node name (file::test), outcome and a readable message."""

    __test__ = False  # not a pytest test class

    name: str
    outcome: Outcome
    message: str = ""

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "outcome": self.outcome, "message": self.message}


@dataclass(frozen=True)
class Verdict:
    """The trusted side's decision on one submission."""

    drill: str
    passed: bool
    tests: tuple[TestResult, ...]
    seconds: float
    problem: str = ""  # whole-submission problem (syntax error, limit hit, missing symbol), if any
    protections: tuple[str, ...] = field(default_factory=tuple)
    output: str = ""  # the submission's own stdout/stderr (tail, capped), for display
    internal: bool = False  # True when tokdrill itself failed to grade (not the user's fault)

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
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Verdict:
        """Inverse of :meth:`to_json` (used between the warm grading server and its clients)."""
        tests = tuple(
            TestResult(str(t["name"]), t["outcome"], str(t.get("message", "")))  # type: ignore[index,arg-type,union-attr]
            for t in data.get("tests", [])  # type: ignore[union-attr]
        )
        return cls(
            drill=str(data["drill"]),
            passed=bool(data["passed"]),
            tests=tests,
            seconds=float(data.get("seconds", 0.0)),  # type: ignore[arg-type]
            problem=str(data.get("problem", "")),
            protections=tuple(data.get("protections", ())),  # type: ignore[arg-type]
            output=str(data.get("output", "")),
            internal=bool(data.get("internal", False)),
        )
