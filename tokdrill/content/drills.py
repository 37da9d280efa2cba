"""The drill schema: one YAML mapping -> a :class:`Drill`, or the errors that prevent it.

Required keys: ``id``, ``title``, ``symbols``, ``target_seconds``, ``difficulty``,
``hidden_tests``, ``prompt``, ``starter``. Optional: ``tags`` (list of strings), ``references``
(list of ``{title, authors, year, venue, url}``). Hidden test names are bare ``test_*.py`` file names, looked up in each of
``search_dirs`` in turn (the loader passes: ``hidden/`` next to the drill file, ``hidden/`` in
the content folder, then the shipped hidden tests).

Only the checks that need nothing but the file live here, so their result can be cached
(:mod:`tokdrill.content.cache`); the loader checks symbols, hidden tests and their concepts
against other files on every load.
"""

from __future__ import annotations

import re
from pathlib import Path

from tokdrill.content.fields import Fields
from tokdrill.content.model import DIFFICULTIES, ContentError, Origin
from tokdrill.content.parsed import ParsedDrill
from tokdrill.content.yamlfile import YamlMap

REQUIRED = ("id", "title", "symbols", "target_seconds", "difficulty", "hidden_tests", "prompt", "starter")
OPTIONAL = ("tags", "references")
HIDDEN_TEST_NAME = re.compile(r"test_[A-Za-z0-9_]*\.py")


def read_drill(path: Path, mapping: YamlMap, errors: list[ContentError]) -> ParsedDrill:
    """The checks that need only this file: keys, types, id, target, names of hidden tests.

    Symbols and hidden tests are only collected here; the loader checks them against the
    reference package and the file system.
    """
    f = Fields(path, mapping, "", errors)
    f.check_keys(REQUIRED, OPTIONAL)
    drill_id = f.ident("id")
    title = f.text("title")
    symbols = f.text_list("symbols", unique=True)
    symbol_refs: tuple[tuple[int, str, int], ...] = ()
    if symbols is not None:
        lines = mapping["symbols"].item_lines
        symbol_refs = tuple((index, symbol, lines[index]) for index, symbol in enumerate(symbols))
    target = f.positive_int("target_seconds")
    difficulty = f.choice("difficulty", DIFFICULTIES)
    tags = f.tags()
    hidden = _hidden_test_names(f)
    prompt = f.text("prompt")
    starter = f.text("starter")
    references = f.references()
    return ParsedDrill(
        valid=f.ok,
        id=drill_id,
        title=title,
        symbols=symbol_refs,
        target_seconds=target,
        difficulty=difficulty,  # type: ignore[arg-type]  # checked against DIFFICULTIES
        tags=tags or (),
        hidden_tests=hidden,
        prompt=prompt,
        starter=starter,
        references=references or (),
        origin=Origin(path, mapping.line),
        id_line=mapping.value_lines.get("id", mapping.line),
    )


def _hidden_test_names(f: Fields) -> tuple[tuple[int, str, int], ...]:
    """``(index, name, line)`` of each well-named hidden test; a badly named one is an error here."""
    names = f.text_list("hidden_tests", unique=True)
    if names is None:
        return ()
    lines = f.mapping["hidden_tests"].item_lines
    result: list[tuple[int, str, int]] = []
    for index, name in enumerate(names):
        if not HIDDEN_TEST_NAME.fullmatch(name):
            message = f"{name!r} is not a hidden test file name: use a bare `test_*.py` name"
            f.error(lines[index], f"hidden_tests[{index}]", message)
            continue
        result.append((index, name, lines[index]))
    return tuple(result)
