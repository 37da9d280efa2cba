"""The UI benchmark's breakdown of the peak memory: information figures beside the measured one."""

from __future__ import annotations

from tokdrill.bench.ui import memory_parts


def test_the_memory_breakdown_names_today_the_drill_and_a_returning_run_in_mib() -> None:
    parts = memory_parts(minimal=10 * 1024, ours=13 * 1024, today=12 * 1024, again=11 * 1024)
    assert [(p.name, p.value, p.baseline) for p in parts] == [
        ("peak memory: Today's first frame, no drill opened", 12.0, 10.0),
        ("peak memory: opening a drill adds, over Today alone", 1.0, None),
        ("peak memory: a drill opened with the content cache and database of an earlier run", 11.0, 10.0),
    ]
    assert all(p.goal == "information" and p.met and p.unit == "MiB" for p in parts)
    assert parts[0].ratio == 1.2 and parts[1].ratio is None
