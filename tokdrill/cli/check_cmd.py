"""`tokdrill check DRILL_ID FILE [--json] [--watch] [--no-record]`: grade a file against a drill's
hidden tests.

Every grading is recorded by the practice service unless ``--no-record`` is given (the rules
are in ``tokdrill.practice.own_editor``): the concepts its failed tests blame go to the mistake
log, and the first pass after ``tokdrill start`` records an attempt timed from the start; later
checks are practice runs until the next start, and a source checked again unchanged is not
logged twice. What was recorded is one line after the verdict (on stderr with ``--json``, whose
document names per failed test the concepts it blames). ``--watch`` grades a file already
checked unchanged only once it changes.

Exit codes: 0 every hidden test passed, 1 the submission failed (or the grader failed: the
output then says "internal error"), 2 usage error (unknown drill, a FILE that is not a readable
Python source file of sane size).
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokdrill.content.model import Drill, Library
    from tokdrill.grading.verdict import Verdict
    from tokdrill.practice.service import Practice

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
WATCH_POLL_SECONDS = 0.25
MAX_SOURCE_BYTES = 1 << 20  # a drill answer is a few kilobytes; anything past 1 MiB is not one


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill check`."""
    parser.add_argument("drill_id", metavar="DRILL_ID", help="the drill to grade against (see `tokdrill list`)")
    parser.add_argument("file", metavar="FILE", help="your implementation (Python source)")
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON document")
    parser.add_argument("--watch", action="store_true", help="re-grade every time FILE is saved (Ctrl-C to stop)")
    parser.add_argument(
        "--no-record", action="store_true", help="grade only: keep nothing in your progress (no attempt, no mistakes)"
    )


def run(args: argparse.Namespace) -> int:
    """Entry point of `tokdrill check`."""
    drill = find_drill(args)
    if drill is None:
        return EXIT_USAGE
    path = Path(args.file)
    source = read_source(path)
    if source is None:
        return EXIT_USAGE
    if args.watch:
        return _watch(drill, path, source, args)
    from tokdrill.grading.api import grade

    verdict = grade(drill, source, filename=str(args.file))
    _print_verdict(verdict, as_json=args.json, with_notice=True)
    _record(drill, verdict, source, path, args)
    return EXIT_OK if verdict.passed else EXIT_FAIL


def open_practice(args: argparse.Namespace, command: str) -> Practice:
    """The practice service over the user's progress (content loaded only if needed); problems
    opening the database are said on stderr (writes are then kept in the journal)."""
    from tokdrill import locations
    from tokdrill.clock import SystemClock
    from tokdrill.content.loader import load_library
    from tokdrill.practice.service import Practice

    data_dir = getattr(args, "data_dir", None)

    def library() -> Library:
        dirs = locations.extra_content_dirs(getattr(args, "content", None), data_dir)
        return load_library(dirs, cache_dir=locations.cache_dir(data_dir), check_symbols=False)

    practice, problems = Practice.open(library, locations.database_path(data_dir), SystemClock())
    for problem in problems:
        _fail(problem, command)
    return practice


def close_practice(practice: Practice, command: str) -> None:
    """Write what is pending; say where it is kept when the database could not take it."""
    from tokdrill.grading.report import printable

    status = practice.close()
    if status.state != "saved":
        _fail(f"not saved yet: {status.message}", command)
        if status.journal is not None:
            print(f"  kept in {printable(str(status.journal))}; the next tokdrill run saves it", file=sys.stderr)


def _record(drill: Drill, verdict: Verdict, source: str, path: Path, args: argparse.Namespace) -> None:
    """Record the grading through the practice service (unless --no-record) and say what was
    kept. A store that cannot be written is named; the verdict stands either way."""
    if args.no_record or verdict.internal:
        return
    from tokdrill.clock import clock_text
    from tokdrill.progress.errors import StoreError

    out = sys.stderr if args.json else sys.stdout
    practice = open_practice(args, "check")
    try:
        kept = practice.check(drill, verdict, source, str(path.resolve()))
        recorded = kept.recorded
        preview = None if recorded is None else recorded.preview
        due = "-" if preview is None else practice.planner().calendar().day_of(preview.next_due).isoformat()
    except StoreError as exc:
        _fail(f"not recorded: {exc}; {exc.advice}")
        return
    finally:
        close_practice(practice, "check")
    if kept.kind == "unchanged":
        print("not recorded again: the same source as your last check", file=out, flush=True)
        return
    if kept.kind == "practice":
        print(
            f"practice run, not recorded: {drill.id} passed since its start "
            f"(`tokdrill start {drill.id}` starts a new attempt)",
            file=out,
            flush=True,
        )
        return
    if kept.failed_concepts:
        print(f"recorded in your mistakes: {', '.join(kept.failed_concepts)}", file=out, flush=True)
    if recorded is not None:
        print(
            f"recorded: passed in {clock_text(recorded.attempt.active_seconds)} from the start (target "
            f"{clock_text(drill.target_seconds)}), rated {recorded.rating_name}; next due {due}",
            file=out,
            flush=True,
        )
    elif kept.start is not None and kept.start.open:
        running = clock_text((practice.clock.now() - kept.start.started_at).total_seconds())
        print(
            f"clock running for {drill.id}: {running} since the start; the first pass is recorded", file=out, flush=True
        )


def find_drill(args: argparse.Namespace, command: str = "check") -> Drill | None:
    """The drill ``args.drill_id`` names (shipped first, then the --content folders), or None
    after a line on stderr naming the known drills (as ``tokdrill COMMAND: ...``)."""
    from tokdrill import locations
    from tokdrill.content.loader import load_files, load_library

    # Fast path: a shipped drill lives in <id>.yaml and shipped content loads first, so it wins
    # over any user content with the same id; reading that one file gives the same drill.
    shipped = locations.drills_dir() / f"{args.drill_id}.yaml"
    if shipped.is_file():
        drill = load_files([(shipped, locations.drills_dir())]).drills.get(args.drill_id)
        if drill is not None:
            return drill
    library = load_library(
        locations.extra_content_dirs(getattr(args, "content", None), getattr(args, "data_dir", None)),
        cache_dir=locations.cache_dir(getattr(args, "data_dir", None)),
    )
    found = library.drills.get(args.drill_id)
    if found is None:
        known = ", ".join(sorted(library.drills)) or "none loaded"
        _fail(f"unknown drill {args.drill_id!r} (known drills: {known})", command)
    return found


def _fail(message: str, command: str = "check") -> None:
    from tokdrill.grading.report import printable

    print(f"tokdrill {command}: {printable(message)}", file=sys.stderr)


def read_source(path: Path) -> str | None:
    """The text of the user's file, decoded as Python decodes source (a UTF-8 byte order mark
    or a coding line is honoured); None after one line on stderr if it is not such a file.
    Never blocks: a FIFO or a device is refused before reading."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        _fail(f"no such file: {path}")
        return None
    except IsADirectoryError:
        _fail(f"{path} is a folder, not a Python file")
        return None
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror}")
        return None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            _fail(f"{path} is a folder, not a Python file")
            return None
        if not stat.S_ISREG(info.st_mode):
            _fail(f"{path} is not a regular file (a pipe, socket or device cannot be graded)")
            return None
        if info.st_size > MAX_SOURCE_BYTES:
            _fail(f"{path} is {info.st_size:,} bytes; a Python file to grade may have at most {MAX_SOURCE_BYTES:,}")
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_SOURCE_BYTES + 1)
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror}")
        return None
    finally:
        os.close(fd)
    if len(data) > MAX_SOURCE_BYTES:
        _fail(f"{path} grew past {MAX_SOURCE_BYTES:,} bytes while being read")
        return None
    return _decode(path, data)


def _decode(path: Path, data: bytes) -> str | None:
    import io
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except SyntaxError as exc:  # an unknown coding line, or a BOM with another coding
        _fail(f"{path}: {exc.msg}")
        return None
    except UnicodeDecodeError as exc:
        _fail(f"{path} is not valid {exc.encoding} text (byte {exc.start}): {exc.reason}")
        return None
    except LookupError as exc:
        _fail(f"{path}: {exc}")
        return None
    return text.removeprefix("\ufeff")


def _print_verdict(verdict: Verdict, as_json: bool, with_notice: bool) -> None:
    if as_json:
        from tokdrill.practice.blame import blamed_concepts
        from tokdrill.progress.records import TestOutcome

        doc = verdict.to_json()
        blame = blamed_concepts([TestOutcome.from_result(t) for t in verdict.tests])
        tests = doc.get("tests")
        for test in tests if isinstance(tests, list) else []:
            if isinstance(test, dict) and test.get("outcome") != "passed":
                test["blames"] = list(blame.get(str(test.get("name")), ()))
        print(json.dumps(doc), flush=True)
    else:
        from tokdrill.grading.report import render_text

        print(render_text(verdict, with_notice=with_notice), flush=True)


def _watch(drill: Drill, path: Path, source: str, args: argparse.Namespace) -> int:
    """Grade now and after every change of ``path``'s mtime or size; Ctrl-C ends with exit 0."""
    from tokdrill.grading.api import WarmGrader
    from tokdrill.grading.report import printable

    as_json = bool(args.json)

    def stamp() -> tuple[float, int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return (st.st_mtime, st.st_size)

    try:
        with WarmGrader() as grader:
            last = stamp()
            first = True
            if _checked_unchanged(drill, source, args):
                print(
                    f"{printable(str(path))} is unchanged since your last check; watching for changes (Ctrl-C to stop)",
                    file=sys.stderr if as_json else sys.stdout,
                    flush=True,
                )
                source = _next_version(path, stamp, last)
                last = stamp()
            while True:
                if not as_json:
                    print(f"\n--- grading {printable(str(path))} ({time.strftime('%H:%M:%S')}) ---", flush=True)
                verdict = grader.grade(drill, source, filename=str(path))
                _print_verdict(verdict, as_json, with_notice=first)  # the sandbox note once
                _record(drill, verdict, source, path, args)
                first = False
                if not as_json:
                    print("watching for changes; Ctrl-C to stop", flush=True)
                source = _next_version(path, stamp, last)
                last = stamp()
    except KeyboardInterrupt:
        return EXIT_OK


def _next_version(path: Path, stamp: Callable[[], tuple[float, int] | None], last: tuple[float, int] | None) -> str:
    """Wait until ``path`` changes from ``last`` and reads as source; its text."""
    while True:
        time.sleep(WATCH_POLL_SECONDS)
        now = stamp()
        if now is not None and now != last:
            last = now
            text = read_source(path)
            if text is not None:
                return text


def _checked_unchanged(drill: Drill, source: str, args: argparse.Namespace) -> bool:
    """Whether ``source`` is what the last recorded check of ``drill`` graded (so grading it
    again would show nothing new); False with --no-record or when progress cannot be read."""
    if args.no_record:
        return False
    from tokdrill.practice.own_editor import source_hash
    from tokdrill.progress.errors import StoreError

    practice = open_practice(args, "check")
    try:
        return practice.last_checked(drill.id) == source_hash(source)
    except StoreError:
        return False
    finally:
        close_practice(practice, "check")
