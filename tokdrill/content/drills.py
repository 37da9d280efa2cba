"""The drill schema: one YAML mapping -> a :class:`Drill`, or the errors that prevent it.

Required keys: ``id``, ``title``, ``symbols``, ``target_seconds``, ``difficulty``,
``hidden_tests``, ``prompt``, ``starter``. Optional: ``tags`` (list of strings), ``source``
(``{seed, section}``). Hidden test names are bare ``test_*.py`` file names, looked up in each of
``search_dirs`` in turn (the loader passes: ``hidden/`` next to the drill file, ``hidden/`` in
the content folder, then the shipped hidden tests).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from tokdrill.content.fields import Fields
from tokdrill.content.model import DIFFICULTIES, ContentError, Drill, Origin
from tokdrill.content.yamlfile import YamlMap

REQUIRED = ("id", "title", "symbols", "target_seconds", "difficulty", "hidden_tests", "prompt", "starter")
OPTIONAL = ("tags", "source")
HIDDEN_TEST_NAME = re.compile(r"test_[A-Za-z0-9_]*\.py")

SymbolCheck = Callable[[str], "str | None"]


def parse_drill(
    path: Path,
    mapping: YamlMap,
    *,
    search_dirs: Sequence[Path],
    symbol_problem: SymbolCheck,
    errors: list[ContentError],
) -> Drill | None:
    """Check ``mapping`` (a whole drill file) and build the drill; None if anything is wrong."""
    f = Fields(path, mapping, "", errors)
    f.check_keys(REQUIRED, OPTIONAL)
    drill_id = f.ident("id")
    title = f.text("title")
    symbols = f.text_list("symbols", unique=True)
    if symbols is not None:
        lines = mapping["symbols"].item_lines
        for index, symbol in enumerate(symbols):
            problem = symbol_problem(symbol)
            if problem is not None:
                f.error(lines[index], f"symbols[{index}]", problem)
    target = f.positive_int("target_seconds")
    difficulty = f.choice("difficulty", DIFFICULTIES)
    tags = f.text_list("tags", required=False, allow_empty=True)
    hidden = _hidden_tests(f, search_dirs)
    prompt = f.text("prompt")
    starter = f.text("starter")
    source = f.source()
    if not f.ok:
        return None
    assert drill_id and title and symbols and target and difficulty and hidden and prompt and starter
    assert tags is not None
    return Drill(
        id=drill_id,
        title=title,
        symbols=symbols,
        target_seconds=target,
        difficulty=difficulty,  # type: ignore[arg-type]  # checked against DIFFICULTIES
        tags=tags,
        hidden_tests=hidden,
        prompt=prompt,
        starter=starter,
        source=source,
        origin=Origin(path, mapping.line),
    )


def _hidden_tests(f: Fields, search_dirs: Sequence[Path]) -> tuple[Path, ...] | None:
    names = f.text_list("hidden_tests", unique=True)
    if names is None:
        return None
    lines = f.mapping["hidden_tests"].item_lines
    found: list[Path] = []
    for index, name in enumerate(names):
        field = f"hidden_tests[{index}]"
        if not HIDDEN_TEST_NAME.fullmatch(name):
            f.error(lines[index], field, f"{name!r} is not a hidden test file name: use a bare `test_*.py` name")
            continue
        match = next((d / name for d in search_dirs if (d / name).is_file()), None)
        if match is None:
            looked = ", ".join(str(d) for d in search_dirs)
            f.error(lines[index], field, f"hidden test file {name} not found (looked in {looked})")
            continue
        found.append(match.resolve())
    return tuple(found) if len(found) == len(names) else None
