"""Resource limits for one sandboxed run, and how each is described to a person."""

from __future__ import annotations

from dataclasses import asdict, dataclass

MIB = 1024 * 1024


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
    tmp_bytes: int = 64 * MIB  # size of the private /tmp when a mount namespace is available

    def to_json(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, float]) -> Limits:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)  # type: ignore[arg-type]

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

    def open_files_text(self) -> str:
        return f"open files limit {self.open_files}"


def size_text(n: int) -> str:
    """``1048576`` -> ``"1 MiB"``; ``1536`` -> ``"1.5 KiB"``."""
    for unit, scale in (("GiB", 1024**3), ("MiB", MIB), ("KiB", 1024)):
        if n >= scale:
            return f"{_num(n / scale)} {unit}"
    return f"{n} B"


def _num(x: float) -> str:
    return f"{x:g}"


DEFAULT_LIMITS = Limits()
