"""Constants and probes shared by the grading tests (imported by name: no package here)."""

from __future__ import annotations

import os
from pathlib import Path

from tokdrill.grading.limits import Limits

FIXTURES = Path(__file__).parent / "fixtures"
CONTENT = FIXTURES / "content"
HIDDEN_TEST = CONTENT / "drills" / "hidden" / "test_tiny_pairs.py"

GOOD_SOURCE = """\
def count_pairs(word_freqs):
    counts = {}
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts
"""

# Short limits keep the hostile suite fast; the messages name these values.
FAST_LIMITS = Limits(cpu_seconds=1, wall_seconds=3.0, memory_bytes=256 * 1024 * 1024, processes=16)


def canary_intact(folder: Path) -> bool:
    return sorted(p.name for p in folder.iterdir()) == ["keep.txt"] and (folder / "keep.txt").read_text() == "canary\n"


def processes_with(marker: str) -> list[int]:
    """Pids of live processes whose command line contains ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry))
    return found
