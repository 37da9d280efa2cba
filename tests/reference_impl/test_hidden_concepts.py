"""Every hidden test names what it checks: at least one ``@pytest.mark.concept(...)`` whose ids
come from the concept vocabulary, so a failed test can point the user at what to review."""

from __future__ import annotations

import importlib.util
import inspect
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
HIDDEN = REPO / "drills" / "hidden"


def _vocabulary() -> set[str]:
    data = yaml.safe_load((REPO / "questions" / "concepts.yaml").read_text(encoding="utf-8"))
    return {entry["id"] for entry in data["concepts"]}


def _hidden_tests() -> list[tuple[str, object]]:
    tests = []
    for path in sorted(HIDDEN.glob("test_*.py")):
        spec = importlib.util.spec_from_file_location(f"_concepts_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        tests += [
            (f"{path.name}::{name}", func)
            for name, func in inspect.getmembers(module, inspect.isfunction)
            if name.startswith("test_") and func.__module__ == module.__name__
        ]
    return tests


def _concepts(func: object) -> list[str]:
    return [str(arg) for mark in getattr(func, "pytestmark", []) if mark.name == "concept" for arg in mark.args]


def test_the_vocabulary_has_unique_ids_titles_and_one_sentence_lessons() -> None:
    data = yaml.safe_load((REPO / "questions" / "concepts.yaml").read_text(encoding="utf-8"))
    ids = [entry["id"] for entry in data["concepts"]]
    assert len(ids) == len(set(ids)), f"repeated concept ids: {sorted({i for i in ids if ids.count(i) > 1})}"
    for entry in data["concepts"]:
        assert entry.get("title") and entry.get("lesson"), f"{entry['id']}: needs a title and a lesson"
        assert entry["lesson"].rstrip().endswith(".") and entry["lesson"].count(". ") == 0, (
            f"{entry['id']}: the lesson is one sentence: {entry['lesson']!r}"
        )


@pytest.mark.parametrize(("name", "func"), _hidden_tests(), ids=lambda value: value if isinstance(value, str) else "")
def test_every_hidden_test_names_known_concepts(name: str, func: object) -> None:
    concepts = _concepts(func)
    assert concepts, f"{name} has no @pytest.mark.concept(...)"
    unknown = sorted(set(concepts) - _vocabulary())
    assert not unknown, f"{name}: concepts {unknown} are not in questions/concepts.yaml"
