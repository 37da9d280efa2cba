"""`tokdrill start DRILL [FILE] [--retype] [--force]`: practise a drill in your own editor.

Writes FILE (default ``DRILL.py`` in the current folder): the drill's prompt as a comment, then
its starter code; with ``--retype``, the reference code to copy as a comment instead (the
retype mode). The drill's clock starts now: the first passing ``tokdrill check DRILL FILE``
records an attempt timed from here. A previous start of the drill that was checked and never
passed is recorded as a failed attempt. An existing FILE is kept unless ``--force`` is given.

Exit codes: 0 written and started, 1 the file or the progress store could not be written, 2
usage error (unknown drill, FILE exists).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill start`."""
    parser.add_argument("drill_id", metavar="DRILL", help="the drill to start (see `tokdrill list`)")
    parser.add_argument("file", metavar="FILE", nargs="?", help="the file to write (default: DRILL.py here)")
    parser.add_argument("--retype", action="store_true", help="write the reference code to retype, as a comment")
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")


def commented(text: str) -> str:
    """``text`` as Python comment lines (blank lines become a bare ``#``)."""
    return "\n".join(f"# {line}".rstrip() for line in text.strip("\n").splitlines()) + "\n"


def file_text(title: str, prompt: str, starter: str, reference: str | None) -> str:
    """What ``tokdrill start`` writes: title and prompt as comments, then the starter (recall)
    or the reference to copy, commented out, above an empty body (retype)."""
    head = commented(f"{title}\n\n{prompt}")
    if reference is None:
        return f"{head}\n{starter.rstrip()}\n"
    return f"{head}#\n# Retype the reference below (without the leading '# '):\n#\n{commented(reference)}\n"


def run(args: argparse.Namespace) -> int:
    """Write the file and start the drill's clock."""
    from tokdrill.cli.check_cmd import close_practice, find_drill, open_practice
    from tokdrill.cli.user_files import write_regular_file
    from tokdrill.clock import clock_text
    from tokdrill.grading.report import printable
    from tokdrill.progress.errors import StoreError

    drill = find_drill(args, "start")
    if drill is None:
        return EXIT_USAGE
    path = Path(args.file or f"{drill.id}.py")
    if path.exists() and not args.force:
        print(f"tokdrill start: {printable(str(path))} exists; give another FILE or --force", file=sys.stderr)
        return EXIT_USAGE
    reference = None
    if args.retype:
        from tokdrill.content.reference import reference_source

        reference = reference_source(drill.symbols)
    try:
        write_regular_file(path, file_text(drill.title, drill.prompt, drill.starter, reference))
    except OSError as exc:
        print(f"tokdrill start: cannot write {printable(str(path))}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAIL
    practice = open_practice(args, "start")
    try:
        _, abandoned = practice.start(drill, "retype" if args.retype else "recall", str(path.resolve()))
    except StoreError as exc:
        print(f"tokdrill start: wrote {printable(str(path))} but the clock did not start: {exc}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        close_practice(practice, "start")
    if abandoned is not None:
        a = abandoned.attempt
        print(
            f"your previous start of {drill.id} ({a.submissions} check(s), {clock_text(a.active_seconds)}) "
            "never passed: recorded as not passed."
        )
    minutes = drill.target_seconds // 60
    print(f"wrote {printable(str(path))}; the clock for {drill.id} started now (target {minutes} min).")
    print(f"grade it with: tokdrill check {drill.id} {printable(str(path))}   (--watch re-grades on every save)")
    return EXIT_OK
