"""`tokdrill import FILE`: bring back progress written by `tokdrill export` (merge or replace)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill import`."""
    parser.add_argument("file", metavar="FILE", help="a JSON file written by `tokdrill export` ('-' for stdin)")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="make the progress exactly the file's (default: merge, keeping what is here)",
    )


def run(args: argparse.Namespace) -> int:
    """Import the file; 1 (changing nothing) for unreadable or invalid input."""
    from pathlib import Path

    from tokdrill import locations
    from tokdrill.cli.user_files import read_regular_file
    from tokdrill.progress.errors import StoreError
    from tokdrill.progress.store import Store
    from tokdrill.progress.transfer import ImportRejected, import_document, parse_document

    name = "<stdin>" if args.file == "-" else args.file
    try:
        data = sys.stdin.buffer.read() if args.file == "-" else read_regular_file(Path(args.file))
    except OSError as exc:
        print(f"tokdrill import: cannot read {name}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        parse_document(data)  # refuse bad input before the database is even opened
    except ImportRejected as exc:
        if exc.position is not None:
            line, column = exc.position
            print(f"tokdrill import: {name}:{line}:{column}: {exc.problems[0]}; nothing was changed", file=sys.stderr)
        else:
            print(f"tokdrill import: {name}: {exc}", file=sys.stderr)
        return 1
    path = locations.database_path(getattr(args, "data_dir", None))
    try:
        with Store.open(path) as store:
            summary = import_document(store, data, replace=args.replace)
    except ImportRejected as exc:
        print(f"tokdrill import: {name}: {exc}", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"tokdrill import: {exc}\n{exc.advice}", file=sys.stderr)
        return 1
    verb = "replaced progress with" if summary.replaced else "merged"
    parts = ", ".join(f"{n} {t}" for t, n in summary.added.items())
    skipped = sum(summary.skipped.values())
    print(f"{verb} {name}: added {parts}" + (f"; {skipped} already present" if skipped else ""), file=sys.stderr)
    return 0
