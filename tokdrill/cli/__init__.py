"""The `tokdrill` command line: with no subcommand it opens the TUI.

Each subcommand lives in its own module under ``tokdrill.cli`` and exposes
``add_arguments(parser)`` and ``run(args) -> int``; its one-line help is in :data:`SUBCOMMANDS`.
Only the module of the subcommand being run is imported (``tokdrill --help`` imports none), and
those modules import only the standard library at import time; heavy imports happen in ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from tokdrill import __version__

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing for `tokdrill --help`
if TYPE_CHECKING:
    from typing import Any, TextIO

# subcommand name -> (module under tokdrill.cli, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "list": (
        "list_cmd",
        "list the drills and card decks (invalid ones are named on stderr)",
    ),
    "validate": (
        "validate_cmd",
        "check drills and decks (shipped, or the given files/folders) and list every problem",
    ),
    "check": (
        "check_cmd",
        "grade FILE against a drill's hidden tests and record it (--watch re-grades on every save, --no-record)",
    ),
    "start": (
        "start_cmd",
        "write a drill's starter (or --retype text) to FILE with the prompt as a comment, and start its clock",
    ),
    "show": (
        "show_cmd",
        "print a drill as the app shows it, or only its --prompt, --starter or --reference",
    ),
    "mistakes": (
        "mistakes_cmd",
        "every concept a hidden test caught: how often, when, fixed or not, and its lesson (--markdown to print)",
    ),
    "mock": (
        "mock_cmd",
        "open the app on a mock interview round: a drill from memory, then questions with follow-ups",
    ),
    "stats": (
        "stats_cmd",
        "show progress: drill times, deck retention, streak, what is due, interview readiness",
    ),
    "export": (
        "export_cmd",
        "write all progress to a JSON file (lossless), or attempts to CSV with --csv",
    ),
    "import": (
        "import_cmd",
        "read progress from an export file: merge it in, or --replace everything with it",
    ),
    "config": (
        "config_cmd",
        "show or change settings: new items per day, retention, auto-indent, interview date, ...",
    ),
    "repair": (
        "repair_cmd",
        "continue from what can be read of a damaged progress database (a copy of it is kept)",
    ),
    "export-anki": (
        "export_anki_cmd",
        "write decks to an Anki package (.apkg); re-exporting updates the notes already in Anki",
    ),
    "import-anki": (
        "import_anki_cmd",
        "turn an Anki package or text export into a deck in your content folder",
    ),
    "tokenize": (
        "tokenize_cmd",
        "show a text's tokens in cl100k_base, o200k_base, your own trained BPE or a tokenizer.json, side by side",
    ),
    "bench": (
        "bench_cmd",
        "measure performance figures against their baselines (a benchmark, not a test)",
    ),
}

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser. With ``argv``, only the subcommand it names gets its arguments,
    the common ones included (the others, which that command line cannot reach, are listed by
    name and help); without, every subcommand is complete."""
    wanted = None if argv is None else _named_subcommand(argv)
    parser = argparse.ArgumentParser(
        prog="tokdrill",
        description="Timed coding drills, flashcards and progress tracking for tokenization "
        "interviews. Run with no subcommand to open the app.",
    )
    parser.add_argument("--version", action="version", version=f"tokdrill {__version__}")
    add_common_arguments(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        complete = argv is None or name == wanted
        p = sub.add_parser(name, help=help_text, description=help_text, add_help=complete)
        if complete:
            add_common_arguments(p, suppress_defaults=True)
            module = importlib.import_module(f"tokdrill.cli.{module_name}")
            module.add_arguments(p)
            p.set_defaults(_run=module.run)
    return parser


_OPTIONS_WITH_VALUE = ("--data-dir", "--content")


def _named_subcommand(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option or an option's value."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word in _OPTIONS_WITH_VALUE:
            skip = True
        elif word == "--":
            return None
        elif not word.startswith("-"):
            return word
    return None


def add_common_arguments(parser: argparse.ArgumentParser, suppress_defaults: bool = False) -> None:
    """Options accepted both before and after the subcommand name."""
    default = argparse.SUPPRESS if suppress_defaults else None
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        default=default,
        help="where progress is stored (default: $TOKDRILL_HOME or the platform's user data dir)",
    )
    parser.add_argument(
        "--content",
        metavar="DIR",
        action="append",
        default=default,
        help="an extra folder of drills/decks to load (repeatable; also $TOKDRILL_CONTENT)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tokdrill` console script; returns the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv).parse_args(argv)
    run = getattr(args, "_run", None)
    terminal = sys.stderr
    try:
        if run is None:
            from tokdrill.ui.launch import launch_app

            return launch_app(args)
        sys.stderr = Messages(terminal)
        return int(run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # a path the system refuses (too long, a loop of links, ...): one line, no traceback
        name = f"tokdrill {args.command}" if getattr(args, "command", None) else "tokdrill"
        print(f"{name}: {os_error_text(exc)}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        sys.stderr = terminal


class Messages:
    """Standard error as the commands write their messages to it: every control character
    (escape sequences, carriage returns, bidirectional overrides) in a message is written as a
    visible escape, so a file name, a title or an Anki field quoted in a message never acts on
    the terminal. Standard output (data: JSON, CSV, listings) is left exactly as written."""

    def __init__(self, stream: TextIO) -> None:
        from tokdrill.grading.report import printable

        self._stream = stream
        self._printable = printable

    def write(self, text: str) -> int:
        self._stream.write(self._printable(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


NAME_SHOWN = 120  # characters of a file name shown in a message (a longer one is shortened in the middle)


def shown_name(name: str | bytes | int) -> str:
    """A file name as a one-line message shows it: control characters escaped, and a name longer
    than :data:`NAME_SHOWN` cut in the middle with its length given."""
    from tokdrill.grading.report import printable

    text = printable(os.fsdecode(name) if isinstance(name, bytes) else str(name))
    if len(text) <= NAME_SHOWN:
        return text
    half = NAME_SHOWN // 2
    return f"{text[:half]}…{text[-half:]} (a name of {len(text):,} characters)"


def os_error_text(exc: OSError) -> str:
    """``cannot use NAME: File name too long`` (both names of a rename), or the error's own words."""
    reason = exc.strerror or str(exc)
    names = [shown_name(n) for n in (exc.filename, exc.filename2) if n is not None]
    return f"cannot use {' or '.join(names)}: {reason}" if names else reason
