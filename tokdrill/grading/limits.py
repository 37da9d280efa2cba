"""Resource limits for one sandboxed run, and how each is described to a person."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass

MIB = 1024 * 1024
LIMITS_ENV = "TOKDRILL_LIMITS"  # JSON object overriding some defaults, e.g. {"wall_seconds": 30}


@dataclass(frozen=True)
class Limits:
    """What one submission may use. Sizes are in bytes, times in seconds."""

    cpu_seconds: int = 5
    wall_seconds: float = 10.0
    memory_bytes: int = 512 * MIB  # address space on top of the grader's own baseline
    file_size_bytes: int = 16 * MIB
    open_files: int = 128
    processes: int = 32
    output_bytes: int = 1 * MIB
    tmp_bytes: int = 64 * MIB  # scratch space: the private /tmp's size, or the size the supervisor checks

    def to_json(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Limits:
        """Known fields with positive numbers; anything else keeps the default."""
        d = cls()

        def number(name: str, default: int) -> int:
            value = _positive(data.get(name))
            return default if value is None else int(value)

        wall = _positive(data.get("wall_seconds"))
        return cls(
            cpu_seconds=number("cpu_seconds", d.cpu_seconds),
            wall_seconds=d.wall_seconds if wall is None else wall,
            memory_bytes=number("memory_bytes", d.memory_bytes),
            file_size_bytes=number("file_size_bytes", d.file_size_bytes),
            open_files=number("open_files", d.open_files),
            processes=number("processes", d.processes),
            output_bytes=number("output_bytes", d.output_bytes),
            tmp_bytes=number("tmp_bytes", d.tmp_bytes),
        )

    # Phrases used in verdict messages, so every message names the limit the same way.
    def cpu_text(self) -> str:
        return f"CPU time limit {self.cpu_seconds} s"

    def wall_text(self) -> str:
        return f"wall-clock limit {_num(self.wall_seconds)} s"

    def memory_text(self) -> str:
        return f"memory limit {size_text(self.memory_bytes)}"

    def output_text(self) -> str:
        return f"output limit {size_text(self.output_bytes)}"

    def file_size_text(self) -> str:
        return f"file size limit {size_text(self.file_size_bytes)}"

    def processes_text(self) -> str:
        return f"process limit {self.processes}"

    def scratch_text(self) -> str:
        return f"scratch size limit {size_text(self.tmp_bytes)}"

    def open_files_text(self) -> str:
        return f"open files limit {self.open_files}"


def _positive(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    return float(value)


def size_text(n: int) -> str:
    """``1048576`` -> ``"1 MiB"``; ``1536`` -> ``"1.5 KiB"``."""
    for unit, scale in (("GiB", 1024**3), ("MiB", MIB), ("KiB", 1024)):
        if n >= scale:
            return f"{_num(n / scale)} {unit}"
    return f"{n} B"


def _num(x: float) -> str:
    return f"{x:g}"


DEFAULT_LIMITS = Limits()


def default_limits() -> Limits:
    """The limits a run gets unless its caller says otherwise: :data:`DEFAULT_LIMITS`, with any
    field named in ``TOKDRILL_LIMITS`` (read in the grading process) replaced."""
    raw = os.environ.get(LIMITS_ENV, "")
    if not raw:
        return DEFAULT_LIMITS
    try:
        data = json.loads(raw)
    except ValueError:
        return DEFAULT_LIMITS
    return Limits.from_json({**DEFAULT_LIMITS.to_json(), **data}) if isinstance(data, dict) else DEFAULT_LIMITS
