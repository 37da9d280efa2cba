"""`tokdrill repair`: continue from what can be read of a damaged progress database."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill repair`."""
    parser.add_argument("--yes", action="store_true", help="do not ask before replacing the damaged file")


def run(args: argparse.Namespace) -> int:
    """Check the database; if it is damaged, show what can be read and (after asking) replace
    the damaged file with it. 0 when the store is usable afterwards, 1 when not."""
    from tokdrill import locations
    from tokdrill.progress.errors import StoreError
    from tokdrill.progress.salvage import repair, salvage
    from tokdrill.progress.store import Store

    path = locations.database_path(getattr(args, "data_dir", None))
    if not path.exists():
        print(f"tokdrill repair: no progress database at {path}; nothing to repair", file=sys.stderr)
        return 0
    try:
        with Store.open(path) as store:
            store.attempts(limit=1)
            from tokdrill.progress.transfer import export_document

            export_document(store)  # decodes every row through the schema
        print(f"{path} is not damaged; nothing to repair", file=sys.stderr)
        return 0
    except StoreError as exc:
        if exc.problem not in ("damaged", "foreign"):
            print(f"tokdrill repair: {exc}\n{exc.advice}", file=sys.stderr)
            return 1
        problem = exc
    found = salvage(path)
    try:
        print(f"tokdrill repair: {problem}", file=sys.stderr)
        print(f"What can be read: {found.summary()}.", file=sys.stderr)
        for line in found.problems[:10]:
            print(f"  {line}", file=sys.stderr)
        if not args.yes:
            if not sys.stdin.isatty():
                print("Run again with --yes to replace the damaged file with what can be read.", file=sys.stderr)
                return 1
            answer = input(f"Replace {path} with what can be read? A copy of the damaged file stays beside it. [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("Nothing was changed.", file=sys.stderr)
                return 1
        try:
            repair(path, found=found)
        except StoreError as exc:
            print(f"tokdrill repair: {exc}\n{exc.advice}", file=sys.stderr)
            return 1
        print(f"Repaired {path}: {found.summary()}.", file=sys.stderr)
        return 0
    finally:
        found.close()
