"""`tokdrill validate [PATH...] [--json]`: check content files and list every problem.

With no PATH: the shipped content plus the ``--content`` / ``TOKDRILL_CONTENT`` folders. With
PATHs (files or content folders): only those are reported on, but they are loaded together with
the shipped content, so an id that collides with a shipped one is caught too.
Output: one ``file:line: field: message`` line per problem, then a summary, then notes (which
never fail validation) on concepts of the vocabulary that no card teaches or no hidden test
checks. Exit 0 valid, 1 problems found (or no content file in the PATHs), 2 a PATH does not exist.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill validate`."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="content files or folders to check (default: the shipped content and --content folders)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def _inside(path: Path, targets: list[Path]) -> bool:
    resolved = path.resolve()
    return any(resolved == t or t in resolved.parents for t in targets)


def run(args: argparse.Namespace) -> int:
    from tokdrill import locations
    from tokdrill.content.display import display_path, error_line
    from tokdrill.content.loader import load_library

    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        for path in missing:
            print(f"tokdrill validate: no such file or folder: {path}", file=sys.stderr)
        return EXIT_USAGE
    extra: list[Path] = locations.extra_content_dirs(getattr(args, "content", None))
    targets = [Path(p) for p in args.paths]
    library = load_library([*extra, *targets], cache_dir=locations.cache_dir(getattr(args, "data_dir", None)))
    errors = list(library.errors)
    files = list(library.files)
    drills = list(library.drills.values())
    decks = list(library.decks.values())
    concepts = list(library.concepts.values())
    untaught = list(library.untaught_concepts())
    untested = list(library.untested_concepts())
    if targets:
        resolved = [t.resolve() for t in targets]
        errors = [e for e in errors if _inside(e.path, resolved)]
        files = [f for f in files if _inside(f, resolved)]
        drills = [d for d in drills if _inside(d.origin.path, resolved)]
        decks = [k for k in decks if _inside(k.origin.path, resolved)]
        concepts, untaught, untested = (
            [c for c in group if _inside(c.origin.path, resolved)] for group in (concepts, untaught, untested)
        )
    cards = sum(len(k.cards) for k in decks)
    empty = bool(targets) and not files
    valid = not errors and not empty
    if args.json:
        document = {
            "valid": valid,
            "files": [str(f) for f in files],
            "drills": len(drills),
            "decks": len(decks),
            "cards": cards,
            "concepts": len(concepts),
            "errors": [e.to_json() for e in errors],
            "untaught_concepts": [c.id for c in untaught],
            "untested_concepts": [c.id for c in untested],
        }
        print(json.dumps(document, indent=2))
    else:
        for error in errors:
            print(error_line(error))
        if empty:
            print(f"no content files (*.yaml) in {', '.join(display_path(t) for t in targets)}")
        elif errors:
            bad_files = len({e.path for e in errors})
            print(f"{len(errors)} problem(s) in {bad_files} file(s); {len(files)} file(s) checked")
        else:
            counted = f"ok: {len(files)} file(s), {len(drills)} drill(s), {len(decks)} deck(s), {cards} card(s)"
            print(counted + (f", {len(concepts)} concept(s)" if concepts else ""))
        for concept in untaught:
            print(f"{display_path(concept.origin.path)}:{concept.origin.line}: {concept.id}: note: no card teaches it")
        for concept in untested:
            print(
                f"{display_path(concept.origin.path)}:{concept.origin.line}: {concept.id}: "
                "note: no hidden test checks it"
            )
    return EXIT_OK if valid else EXIT_FAIL
