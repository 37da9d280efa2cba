"""`tokdrill check DRILL_ID FILE [--json] [--watch]`: grade a file against a drill's hidden tests.

Exit codes: 0 every hidden test passed, 1 the submission failed (or the grader failed: the
output then says "internal error"), 2 usage error (unknown drill, unreadable file).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
MESSAGE_LINES = 12  # lines of each failure message shown in the human output
WATCH_POLL_SECONDS = 0.25
MARKS = {"passed": "PASS", "failed": "FAIL", "error": "ERROR", "timeout": "TIMEOUT"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill check`."""
    parser.add_argument("drill_id", metavar="DRILL_ID", help="the drill to grade against (see `tokdrill list`)")
    parser.add_argument("file", metavar="FILE", help="your implementation (Python source)")
    parser.add_argument("--json", action="store_true", help="print the verdict as one JSON document")
    parser.add_argument("--watch", action="store_true", help="re-grade every time FILE is saved (Ctrl-C to stop)")


def run(args: argparse.Namespace) -> int:
    """Entry point of `tokdrill check`."""
    drill = _find_drill(args)
    if drill is None:
        return EXIT_USAGE
    path = Path(args.file)
    source = _read_source(path)
    if source is None:
        return EXIT_USAGE
    if args.watch:
        return _watch(drill, path, source, as_json=args.json)
    from tokdrill.grading.api import grade

    verdict = grade(drill, source)
    _print_verdict(verdict, as_json=args.json)
    return EXIT_OK if verdict.passed else EXIT_FAIL


def _find_drill(args: argparse.Namespace) -> Any | None:
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
    drill = library.drills.get(args.drill_id)
    if drill is None:
        known = ", ".join(sorted(library.drills)) or "none loaded"
        print(f"tokdrill check: unknown drill {args.drill_id!r} (known drills: {known})", file=sys.stderr)
    return drill


def _read_source(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        print(f"tokdrill check: no such file: {path}", file=sys.stderr)
    except IsADirectoryError:
        print(f"tokdrill check: {path} is a folder, not a Python file", file=sys.stderr)
    except UnicodeDecodeError as exc:
        print(f"tokdrill check: {path} is not UTF-8 text (byte {exc.start}): {exc.reason}", file=sys.stderr)
    except OSError as exc:
        print(f"tokdrill check: cannot read {path}: {exc.strerror}", file=sys.stderr)
    return None


def _print_verdict(verdict: Any, as_json: bool) -> None:
    if as_json:
        print(json.dumps(verdict.to_json()), flush=True)
    else:
        print(render_text(verdict), flush=True)


def render_text(verdict: Any) -> str:
    """Each test with a mark and its message, then the problem (if any) and a summary line."""
    lines: list[str] = []
    not_run = 0
    for test in verdict.tests:
        lines.append(f"{MARKS.get(test.outcome, test.outcome.upper()):>7}  {test.name}")
        if test.message.startswith("not run: ") and verdict.problem:
            not_run += 1  # the reason is the problem printed below; say it once
        elif test.outcome != "passed" and test.message:
            lines += ["           " + line for line in _clip(test.message.splitlines())]
    if not_run:
        lines.append(f"({not_run} test{'s' if not_run != 1 else ''} not run: see the problem below)")
    if verdict.output.strip():
        lines.append("")
        lines.append("your code printed:")
        lines += ["    " + line for line in _clip(verdict.output.rstrip().splitlines(), keep_tail=True)]
    if verdict.problem:
        lines.append("")
        lines.append("problem: " + verdict.problem)
    lines.append("")
    lines.append(summary_line(verdict))
    return "\n".join(lines)


def summary_line(verdict: Any) -> str:
    total = len(verdict.tests)
    passed = sum(1 for t in verdict.tests if t.outcome == "passed")
    counts = {o: sum(1 for t in verdict.tests if t.outcome == o) for o in ("failed", "error", "timeout")}
    detail = ", ".join(f"{n} {o}" for o, n in counts.items() if n)
    if getattr(verdict, "internal", False):
        head = "INTERNAL ERROR"
    else:
        head = "PASSED" if verdict.passed else "FAILED"
    tail = f" ({detail})" if detail else ""
    return f"{head} {verdict.drill}: {passed}/{total} tests passed{tail} in {verdict.seconds:.2f} s"


def _clip(lines: list[str], keep_tail: bool = False) -> list[str]:
    if len(lines) <= MESSAGE_LINES:
        return lines
    cut = len(lines) - MESSAGE_LINES
    note = f"... ({cut} more line{'s' if cut != 1 else ''} not shown; --json has the full message)"
    return [note, *lines[-MESSAGE_LINES:]] if keep_tail else [*lines[:MESSAGE_LINES], note]


def _watch(drill: Any, path: Path, source: str, as_json: bool) -> int:
    """Grade now and after every change of ``path``'s mtime or size; Ctrl-C ends with exit 0."""
    from tokdrill.grading.api import WarmGrader

    def stamp() -> tuple[float, int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        return (st.st_mtime, st.st_size)

    try:
        with WarmGrader() as grader:
            last = stamp()
            while True:
                if not as_json:
                    print(f"\n--- grading {path} ({time.strftime('%H:%M:%S')}) ---", flush=True)
                _print_verdict(grader.grade(drill, source), as_json)
                if not as_json:
                    print("watching for changes; Ctrl-C to stop", flush=True)
                while True:
                    time.sleep(WATCH_POLL_SECONDS)
                    now = stamp()
                    if now is not None and now != last:
                        last = now
                        text = _read_source(path)
                        if text is not None:
                            source = text
                            break
    except KeyboardInterrupt:
        return EXIT_OK
