"""`tokdrill import-anki FILE --deck ID`: Anki notes -> a deck in the user's content folder."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
_LISTED = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill import-anki`."""
    parser.add_argument(
        "file",
        metavar="FILE",
        help="an Anki package (.apkg, .colpkg) or an Anki text export (.txt: Notes or Cards in Plain Text)",
    )
    parser.add_argument(
        "--deck", required=True, metavar="ID", help="id of the new deck (lowercase letters, digits, '-')"
    )
    parser.add_argument(
        "--title",
        metavar="TEXT",
        help="the deck's title (default: the name of the Anki deck holding every note, or the title it has when replacing)",
    )
    parser.add_argument(
        "--from-deck", metavar="NAME", help="import only the notes of this Anki deck and its subdecks ('A::B')"
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help="rewrite a deck imported before under this id (card ids are stable: review history and edited key points are kept)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the deck file instead of writing it")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    """Import; 2 for a bad deck id or a missing file, 1 when nothing could be imported."""
    import json
    from pathlib import Path

    from tokdrill import locations
    from tokdrill.anki.importer import ImportRefused, import_anki
    from tokdrill.anki.notes import AnkiFileError
    from tokdrill.cli.user_files import refuse_unless_regular
    from tokdrill.clock import SystemClock
    from tokdrill.content import load_library
    from tokdrill.content.schema.fields import ID_PATTERN

    if not ID_PATTERN.fullmatch(args.deck):
        return _fail(f"--deck {args.deck!r} is not a valid id: use only lowercase letters, digits and '-'", EXIT_USAGE)
    source = Path(args.file)
    if not source.exists():
        return _fail(f"no such file: {source}", EXIT_USAGE)
    try:
        refuse_unless_regular(source, follow=True)  # reading a pipe would wait for a writer
    except OSError as exc:
        return _fail(f"{source}: {exc.strerror}", EXIT_USAGE)
    data_dir = getattr(args, "data_dir", None)
    library = load_library(
        locations.extra_content_dirs(getattr(args, "content", None), data_dir),
        cache_dir=locations.cache_dir(data_dir),
        check_symbols=False,  # decks only: drills need not import reference_impl
    )
    try:
        result = import_anki(
            source,
            args.deck,
            library=library,
            folder=locations.user_content_dir(data_dir),
            now=SystemClock().now(),
            title=args.title,
            from_deck=args.from_deck,
            replace=args.replace,
            dry_run=args.dry_run,
        )
    except AnkiFileError as exc:
        return _fail(str(exc))
    except ImportRefused as exc:
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return _fail(str(exc))
    if args.json:
        print(json.dumps(result.to_json(), indent=1, ensure_ascii=False))
        return EXIT_OK
    if args.dry_run:
        sys.stdout.write(result.text)
    out = sys.stderr if args.dry_run else sys.stdout
    c = result.conversion
    verb = "would import" if args.dry_run else ("replaced deck with" if result.replaced else "imported")
    made = "" if result.anki_cards is None else f" ({result.anki_cards} card(s) in Anki)"
    print(
        f"{verb} {len(c.cards)} card(s) from {result.notes} note(s){made}: deck {result.deck_id!r} ({result.title})",
        file=out,
    )
    if result.written:
        print(f"  {result.target}", file=out)
    _section(out, f"{len(c.skipped)} note(s) skipped:", c.skipped)
    _section(
        out,
        f"{len(c.media)} media reference(s) not imported (cards are text; each shows as a placeholder):",
        [f"{card_id}: {name}" for card_id, name in c.media],
    )
    _section(out, "notices:", c.notices)
    _section(out, f"{len(c.formatting)} coloured passage(s) (Markdown has no colours):", c.formatting)
    changed = sorted(set(c.changed))
    _section(out, f"{len(changed)} card(s) whose formatting may differ from Anki's:", changed)
    drawn = sum(card.drawn_key_points for card in c.cards)
    if drawn:
        print(f"key points of {drawn} card(s) were drawn from their answers: refine them in the deck file", file=out)
    return EXIT_OK


def _section(out: TextIO, title: str, lines: Sequence[str]) -> None:
    if not lines:
        return
    print(title, file=out)
    for line in lines[:_LISTED]:
        print(f"  {line}", file=out)
    if len(lines) > _LISTED:
        print(f"  ... and {len(lines) - _LISTED} more", file=out)


def _fail(message: str, code: int = EXIT_FAIL) -> int:
    print(f"tokdrill import-anki: {message}", file=sys.stderr)
    return code
