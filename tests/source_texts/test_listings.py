"""The hidden tests accept the code listings of the source texts.

The listings are read from the texts at run time (nothing of them is stored in the repository):
every Python module under a "Full implementations" heading, up to the next heading. A relative
import between two listings is resolved by taking the imported definitions from the listing that
defines them. Each listing is graded, as the app grades a submission, for every drill whose
symbols it defines.

The project departs from the listings on purpose in two places, each stated in the drill's prompt
(``EXPECTED_FAILURES``): a merge that spells an existing token keeps its first id, and the EM step
keeps unused single characters. Exactly those tests must fail, no more and no fewer.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reference_impl"))
from sample_grading import REPO, drill_spec, failures, grade

START = re.compile(r"^Full implementations\s*$", re.M)
HEADING = re.compile(r"^\S.*¶\s*$", re.M)  # the texts mark their section headings with a pilcrow

# (listing's first docstring line, drill) -> tests expected to fail, and why.
REPEATED_TOKEN = "a merge that spells an existing token takes a new id in the listing; the drills keep the first id"
SINGLE_CHARACTER_FLOOR = "the listing's EM step drops unused single characters; the drill keeps them with a floor count"
EXPECTED_FAILURES: dict[tuple[str, str], tuple[set[str], str]] = {
    ("Byte-pair encoding", "bpe-encode"): (
        {"test_a_merge_that_spells_an_existing_token_keeps_its_first_id"},
        REPEATED_TOKEN,
    ),
    ("Byte-pair encoding", "bpe-full"): (
        {"test_a_merge_that_spells_an_existing_token_keeps_its_first_id"},
        REPEATED_TOKEN,
    ),
    ("WordPiece", "wordpiece-train"): (
        {"test_a_merge_that_spells_an_existing_token_keeps_its_first_id"},
        REPEATED_TOKEN,
    ),
    ("WordPiece", "unigram-em-prune"): (
        {
            "test_em_step_keeps_unused_single_characters_with_a_floor_count",
            "test_em_step_on_an_empty_corpus_keeps_only_the_single_characters",
            "test_em_step_matches_the_reference_on_random_inputs",
            "test_every_word_stays_segmentable_after_em_steps_and_pruning",
        },
        SINGLE_CHARACTER_FLOOR,
    ),
}


def _modules(section: str) -> list[str]:
    """Split a run of listings into modules: a new module starts at a column-0 docstring once
    everything before it parses on its own."""
    lines = section.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.startswith('"""')]
    if not starts:
        return []
    modules, begin = [], starts[0]
    for i in starts[1:]:
        chunk = "".join(lines[begin:i])
        try:
            ast.parse(chunk)
        except SyntaxError:
            continue
        modules.append(chunk)
        begin = i
    modules.append("".join(lines[begin:]))
    return [m for m in modules if m.strip()]


def _top_level(source: str) -> dict[str, str]:
    """Name -> source of each top-level function, class and assignment of a module."""
    tree = ast.parse(source)
    found = {}
    for node in tree.body:
        names = []
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        for name in names:
            found[name] = ast.get_source_segment(source, node) or ""
    return found


def _resolve_relative_imports(source: str, others: list[str]) -> str:
    """Replace ``from .x import a, b`` by the definitions of ``a`` and ``b`` in another listing."""
    definitions: dict[str, str] = {}
    for other in others:
        definitions.update(_top_level(other))
    out = []
    for line in source.splitlines(keepends=True):
        match = re.match(r"from \.\w* import (.+)$", line.strip())
        if match:
            names = [name.strip() for name in match.group(1).split(",")]
            missing = [name for name in names if name not in definitions]
            assert not missing, f"no listing defines {missing} (imported by {line.strip()!r})"
            out.append("\n\n".join(definitions[name] for name in names) + "\n")
        else:
            out.append(line)
    return "".join(out)


def _listings(texts: list[Path]) -> list[tuple[str, str]]:
    """``(first docstring line, source)`` for every listing of the texts."""
    modules = []
    for path in texts:
        text = path.read_text(encoding="utf-8")
        for start in START.finditer(text):
            end = HEADING.search(text, start.end())
            modules += _modules(text[start.end() : end.start() if end else len(text)])
    resolved = [_resolve_relative_imports(m, [o for o in modules if o is not m]) for m in modules]
    return [(ast.get_docstring(ast.parse(m)).splitlines()[0], m) for m in resolved]


def _defines(source: str, symbols: list[str]) -> bool:
    tree = ast.parse(source)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)} | set(_top_level(source))
    for symbol in symbols:
        owner, _, method = symbol.partition(".")
        if method:
            if owner not in classes or method not in {
                n.name for n in classes[owner].body if isinstance(n, ast.FunctionDef)
            }:
                return False
        elif owner not in functions:
            return False
    return True


@pytest.fixture(scope="module")
def listings(source_texts: list[Path]) -> list[tuple[str, str]]:
    found = _listings(source_texts)
    assert found, "no listings under a 'Full implementations' heading in the source texts"
    return found


def _expected(title: str, drill: str) -> tuple[set[str], str]:
    for (prefix, drill_id), expected in EXPECTED_FAILURES.items():
        if drill_id == drill and title.startswith(prefix):
            return expected
    return set(), ""


def test_each_listing_passes_the_hidden_tests_of_every_drill_it_implements(listings: list[tuple[str, str]]) -> None:
    drills = sorted(path.stem for path in (REPO / "drills").glob("*.yaml"))
    graded, problems = 0, []
    for title, source in listings:
        for drill in drills:
            if not _defines(source, list(drill_spec(drill)["symbols"])):  # type: ignore[arg-type]
                continue
            record = grade(drill, {title: source})[title]
            graded += 1
            where = f"listing {title!r} on {drill}"
            trouble = record["import_error"] or record["missing"] or record["collect_errors"]
            if trouble:
                problems.append(f"{where}: does not build or collect: {trouble}")
                continue
            failed = set(failures(record))
            expected, reason = _expected(title, drill)
            if failed != expected:
                problems.append(
                    f"{where}: expected to fail exactly {sorted(expected)} ({reason or 'none'}), failed {sorted(failed)}"
                )
    assert graded >= 9, f"only {graded} (listing, drill) pairs found to grade"
    assert not problems, "\n".join(problems)


def test_the_extraction_finds_both_module_listings(listings: list[tuple[str, str]]) -> None:
    titles = [title for title, _ in listings]
    assert any(t.startswith("Byte-pair encoding") for t in titles) and any(t.startswith("WordPiece") for t in titles), (
        titles
    )
