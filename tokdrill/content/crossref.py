"""The drill checks that look beyond the drill's own file, run on every load (never cached).

A drill's symbols must exist in the reference package, and its hidden test files must exist in
one of the folders the loader searches. These depend on other files, so unlike the file-level
checks (:func:`tokdrill.content.drills.read_drill`) their results are never cached. No PyYAML
here: a warm load that takes every file from the cache does not import it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from tokdrill.content.model import ContentError, Drill
from tokdrill.content.parsed import ParsedDrill

SymbolCheck = Callable[[str], "str | None"]
HiddenLookup = Callable[[Sequence[Path], str], "Path | None"]


def find_hidden_test(search_dirs: Sequence[Path], name: str) -> Path | None:
    """The resolved path of hidden test ``name`` in the first of ``search_dirs`` that has it."""
    match = next((d / name for d in search_dirs if (d / name).is_file()), None)
    return None if match is None else match.resolve()


def finish_drill(
    parsed: ParsedDrill,
    *,
    search_dirs: Sequence[Path],
    symbol_problem: SymbolCheck,
    errors: list[ContentError],
    find_hidden: HiddenLookup = find_hidden_test,
) -> Drill | None:
    """The checks against other files (symbols in the reference, hidden tests on disk), then the
    drill; None if this or :func:`read_drill` found anything wrong."""
    path = parsed.origin.path
    start = len(errors)
    for index, symbol, line in parsed.symbols:
        problem = symbol_problem(symbol)
        if problem is not None:
            errors.append(ContentError(path, line, f"symbols[{index}]", problem))
    found: list[Path] = []
    for index, name, line in parsed.hidden_tests:
        match = find_hidden(search_dirs, name)
        if match is None:
            looked = ", ".join(str(d) for d in search_dirs)
            message = f"hidden test file {name} not found (looked in {looked})"
            errors.append(ContentError(path, line, f"hidden_tests[{index}]", message))
            continue
        found.append(match)
    if not parsed.valid or len(errors) != start:
        return None
    assert parsed.id and parsed.title and parsed.symbols and parsed.target_seconds and parsed.difficulty
    assert parsed.prompt and parsed.starter and found
    return Drill(
        id=parsed.id,
        title=parsed.title,
        symbols=tuple(symbol for _, symbol, _ in parsed.symbols),
        target_seconds=parsed.target_seconds,
        difficulty=parsed.difficulty,
        tags=parsed.tags,
        hidden_tests=tuple(found),
        prompt=parsed.prompt,
        starter=parsed.starter,
        source=parsed.source,
        origin=parsed.origin,
    )
