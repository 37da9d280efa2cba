"""`tokdrill export-anki [--deck ID ...] FILE.apkg`: decks as an Anki package."""

from __future__ import annotations

import argparse
import sys

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill export-anki`."""
    parser.add_argument("file", metavar="FILE.apkg", help="the Anki package to write (replaced if it exists)")
    parser.add_argument(
        "--deck",
        action="append",
        metavar="ID",
        help="export this deck (repeatable; default: every deck, shipped and your own)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    """Write the package; 2 for a bad name or an unknown deck, 1 when it cannot be written."""
    import json
    from pathlib import Path

    from tokdrill import locations
    from tokdrill.anki.export import write_package
    from tokdrill.clock import SystemClock
    from tokdrill.content import load_library

    path = Path(args.file)
    if path.suffix.lower() != ".apkg":
        return _usage(f"{path}: the file name must end in .apkg (Anki imports packages by that name)")
    if path.is_dir():
        return _usage(f"{path}: is a folder")
    data_dir = getattr(args, "data_dir", None)
    library = load_library(
        locations.extra_content_dirs(getattr(args, "content", None), data_dir),
        cache_dir=locations.cache_dir(data_dir),
        check_symbols=False,  # decks only: drills need not import reference_impl
    )
    wanted = list(dict.fromkeys(args.deck or []))
    unknown = [deck_id for deck_id in wanted if deck_id not in library.decks]
    if unknown:
        known = ", ".join(sorted(library.decks)) or "none"
        return _usage(f"no deck with id {', '.join(map(repr, unknown))} (decks: {known})")
    decks = [library.decks[deck_id] for deck_id in wanted] if wanted else list(library.decks.values())
    if not decks:
        print("tokdrill export-anki: there is no deck to export", file=sys.stderr)
        return EXIT_FAIL
    exported = {deck.origin.path for deck in decks}
    problems = [error for error in library.errors if error.path in exported]
    if problems:
        print(
            f"tokdrill export-anki: {len(problems)} problem(s) in these decks; invalid cards are left out "
            "(`tokdrill validate` lists them)",
            file=sys.stderr,
        )
    try:
        summary = write_package(decks, path, timestamp=SystemClock().now().timestamp())
    except OSError as exc:
        print(f"tokdrill export-anki: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAIL
    if args.json:
        print(json.dumps(summary.to_json(), indent=1))
        return EXIT_OK
    notes = sum(summary.notes.values())
    print(f"wrote {path}: {notes} notes in {len(summary.notes)} deck(s)")
    print(
        "In Anki: File > Import. Importing a newer export updates these notes and keeps their reviews.",
        file=sys.stderr,
    )
    return EXIT_OK


def _usage(message: str) -> int:
    print(f"tokdrill export-anki: {message}", file=sys.stderr)
    return EXIT_USAGE
