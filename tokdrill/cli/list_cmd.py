"""`tokdrill list [--json]`: the drills and decks that loaded, and what did not.

Exit 0 when anything loaded (invalid items are named on stderr), 1 when nothing did.
JSON: ``{"drills": [{id, title, target_seconds, symbols, difficulty, tags}],
"decks": [{id, title, description, cards}], "errors": [{path, line, field, message}]}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokdrill.content.model import Library


EXIT_OK, EXIT_FAIL = 0, 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill list`."""
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    from tokdrill import locations
    from tokdrill.content.loader import load_library

    library = load_library(
        locations.extra_content_dirs(getattr(args, "content", None), getattr(args, "data_dir", None)),
        cache_dir=locations.cache_dir(getattr(args, "data_dir", None)),
    )
    if args.json:
        document = {
            "drills": [
                {
                    "id": d.id,
                    "title": d.title,
                    "target_seconds": d.target_seconds,
                    "symbols": list(d.symbols),
                    "difficulty": d.difficulty,
                    "tags": list(d.tags),
                }
                for d in library.drills.values()
            ],
            "decks": [
                {"id": k.id, "title": k.title, "description": k.description, "cards": len(k.cards)}
                for k in library.decks.values()
            ],
            "errors": [e.to_json() for e in library.errors],
        }
        print(json.dumps(document, indent=2))
    else:
        from tokdrill.grading.report import printable

        print(printable(_table(library)))  # a title's bidirectional override shown, not obeyed
    if library.errors:
        print(f"{len(library.errors)} content problem(s); these items were left out:", file=sys.stderr)
        for error in library.errors:
            print(error.display(), file=sys.stderr)
    if not library.drills and not library.decks:
        print("tokdrill list: no drills or decks loaded", file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def _table(library: Library) -> str:
    lines = [f"Drills ({len(library.drills)})"]
    width = max((len(d.id) for d in library.drills.values()), default=0)
    for d in library.drills.values():
        minutes = f"{d.target_seconds / 60:g} min"
        lines.append(f"  {d.id:<{width}}  {minutes:>7}  {d.difficulty:<6}  {d.title}")
        tags = f"  tags: {', '.join(d.tags)}" if d.tags else ""
        lines.append(f"  {'':<{width}}  symbols: {', '.join(d.symbols)}{tags}")
    cards = sum(len(k.cards) for k in library.decks.values())
    lines.append("")
    lines.append(f"Decks ({len(library.decks)}, {cards} cards)")
    width = max((len(k.id) for k in library.decks.values()), default=0)
    lines.extend(f"  {k.id:<{width}}  {len(k.cards):>4} cards  {k.title}" for k in library.decks.values())
    return "\n".join(lines)
