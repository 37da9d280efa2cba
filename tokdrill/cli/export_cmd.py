"""`tokdrill export FILE`: all progress as one lossless JSON document (or attempts as CSV)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill export`."""
    parser.add_argument("file", metavar="FILE", help="file to write ('-' for standard output)")
    parser.add_argument("--csv", action="store_true", help="write the attempts as CSV, for spreadsheets")


def run(args: argparse.Namespace) -> int:
    """Write the export; 1 when the database cannot be read or the file cannot be written."""
    import io
    import json
    from pathlib import Path

    from tokdrill import locations
    from tokdrill.progress.atomic_write import write_atomically
    from tokdrill.progress.errors import StoreError
    from tokdrill.progress.store import Store
    from tokdrill.progress.transfer import export_document, write_attempts_csv

    path = locations.database_path(getattr(args, "data_dir", None))
    buffer = io.StringIO()
    try:
        with Store.open_for_reading(path) as store:
            if args.csv:
                write_attempts_csv(store, buffer)
            else:
                json.dump(export_document(store), buffer, indent=1, ensure_ascii=False)
                buffer.write("\n")
    except StoreError as exc:
        print(f"tokdrill export: {exc}\n{exc.advice}", file=sys.stderr)
        return 1
    if args.file == "-":
        sys.stdout.write(buffer.getvalue())
        return 0
    target = Path(args.file)
    try:
        write_atomically(target, buffer.getvalue(), newline="")
    except OSError as exc:
        print(f"tokdrill export: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {target}", file=sys.stderr)
    return 0
