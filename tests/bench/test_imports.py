"""Reading ``python -X importtime``: nesting, own and cumulative times, the top imports."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tokdrill.bench.imports import ImportTime, beyond, parse_importtime, top_imports, total_ms

SAMPLE = """\
import time: self [us] | cumulative | imported package
import time:       100 |        100 |     leaf
import time:      1500 |       1600 |   middle
import time:       300 |       1900 | outer
Traceback-looking noise that is not an import line
import time:      4000 |       4000 | other
import time:       200 |        200 |   middle
"""


def test_lines_are_read_with_their_nesting_and_times() -> None:
    assert parse_importtime(SAMPLE) == [
        ImportTime("leaf", 2, 0.1, 0.1),
        ImportTime("middle", 1, 1.5, 1.6),
        ImportTime("outer", 0, 0.3, 1.9),
        ImportTime("other", 0, 4.0, 4.0),
        ImportTime("middle", 1, 0.2, 0.2),
    ]


def test_the_top_imports_are_the_largest_cumulative_times_at_the_outer_levels() -> None:
    found = parse_importtime(SAMPLE)
    assert [i.name for i in top_imports(found, 3)] == ["other", "outer", "middle"]
    assert top_imports(found, 5, max_depth=0) == [ImportTime("other", 0, 4.0, 4.0), ImportTime("outer", 0, 0.3, 1.9)]
    assert top_imports(found, 1, max_depth=1)[0].name == "other"
    assert [i.cumulative_ms for i in top_imports(found, 5) if i.name == "middle"] == [1.6]  # the larger of two


def test_the_total_counts_each_outermost_import_once() -> None:
    assert total_ms(parse_importtime(SAMPLE)) == pytest.approx(5.9)


def test_what_python_writes_is_read() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import json"], capture_output=True, text=True, check=True
    )
    found = parse_importtime(done.stderr)
    json_line = next(i for i in found if i.name == "json")
    assert json_line.depth == 0 and json_line.cumulative_ms >= json_line.self_ms > 0
    assert any(i.name == "json.decoder" and i.depth == 1 for i in found)


def test_beyond_another_program_takes_away_the_modules_both_import() -> None:
    found = beyond(parse_importtime(SAMPLE), {"middle", "leaf"})
    assert [(i.name, i.depth, i.self_ms) for i in found] == [("outer", 0, 0.3), ("other", 0, 4.0)]
    assert [i.cumulative_ms for i in found] == pytest.approx([0.3, 4.0])
    nested = "import time: 1 | 1 |     c\nimport time: 2 | 3 |   b\nimport time: 5 | 8 | a\n"
    kept = beyond(parse_importtime(nested), {"c"})
    assert [i.name for i in kept] == ["b", "a"]
    assert [i.cumulative_ms for i in kept] == pytest.approx([0.002, 0.007])
