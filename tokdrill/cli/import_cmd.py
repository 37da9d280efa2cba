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
    import json
    from pathlib import Path

    from tokdrill import locations
    from tokdrill.progress.errors import StoreError
    from tokdrill.progress.store import Store
    from tokdrill.progress.transfer import ImportRejected, import_document

    name = "<stdin>" if args.file == "-" else args.file
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"tokdrill import: cannot read {name}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
        return 1
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"tokdrill import: {name}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}", file=sys.stderr)
        return 1
    path = locations.database_path(getattr(args, "data_dir", None))
    try:
        with Store.open(path) as store:
            summary = import_document(store, doc, replace=args.replace)
    except ImportRejected as exc:
        print(f"tokdrill import: {name}: {exc}", file=sys.stderr)
        return 1
    except StoreError as exc:
        print(f"tokdrill import: {exc}", file=sys.stderr)
        return 1
    verb = "replaced progress with" if summary.replaced else "merged"
    parts = ", ".join(f"{n} {t}" for t, n in summary.added.items())
    skipped = sum(summary.skipped.values())
    print(f"{verb} {name}: added {parts}" + (f"; {skipped} already present" if skipped else ""), file=sys.stderr)
    return 0
