"""Which drills are tokdrill's own (their tests collected in the grading process) and which are
not (collected only in the sandbox), and the declared tests crossing to the grading server."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from grading_helpers import HIDDEN_TEST, TINY_TESTS

from tokdrill import locations
from tokdrill.content.loader import load_library
from tokdrill.grading.spec import DrillSpec

SHIPPED_TEST = locations.hidden_tests_dir() / "test_bytes_to_unicode.py"


def _spec(*tests: Path) -> DrillSpec:
    return DrillSpec.of(SimpleNamespace(id="d", symbols=("count_pairs",), hidden_tests=tests))


def test_only_drills_whose_every_test_file_ships_with_tokdrill_count_as_shipped(tmp_path: Path) -> None:
    assert DrillSpec.of(load_library([]).drills["bytes-to-unicode"]).shipped
    assert not _spec(HIDDEN_TEST).shipped  # the grading suite's own fixture is not shipped either
    assert not _spec(SHIPPED_TEST, HIDDEN_TEST).shipped
    linked = tmp_path / "test_bytes_to_unicode.py"
    os.symlink(SHIPPED_TEST, linked)
    assert _spec(linked).shipped  # a deck naming tokdrill's own file runs tokdrill's own code
    copied = tmp_path / "hidden" / "test_bytes_to_unicode.py"
    copied.parent.mkdir()
    copied.write_bytes(SHIPPED_TEST.read_bytes())
    assert not _spec(copied).shipped  # the same text elsewhere is whatever its folder holds


def test_declared_tests_survive_the_trip_to_the_grading_server() -> None:
    spec = DrillSpec.of(
        SimpleNamespace(
            id="tiny-pairs", symbols=("count_pairs",), hidden_tests=(HIDDEN_TEST,), test_concepts=TINY_TESTS
        )
    )
    assert dict(spec.declared) == TINY_TESTS
    assert DrillSpec.from_json(spec.to_json()) == spec
    with pytest.raises(ValueError, match="declared test"):
        DrillSpec.from_json({**spec.to_json(), "declared": [["only a name"]]})
