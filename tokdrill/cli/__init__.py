"""The `tokdrill` command line: with no subcommand it opens the TUI.

Each subcommand lives in its own module under ``tokdrill.cli`` and exposes ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``. Those modules import only the standard
library at import time, so ``tokdrill --help`` stays fast; heavy imports happen inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tokdrill import __version__

# subcommand name -> module under tokdrill.cli
SUBCOMMANDS: dict[str, str] = {
    "list": "list_cmd",
    "validate": "validate_cmd",
    "check": "check_cmd",
    "stats": "stats_cmd",
    "export": "export_cmd",
    "import": "import_cmd",
    "bench": "bench_cmd",
}

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, every subcommand included."""
    parser = argparse.ArgumentParser(
        prog="tokdrill",
        description="Timed coding drills, flashcards and progress tracking for tokenization "
        "interviews. Run with no subcommand to open the app.",
    )
    parser.add_argument("--version", action="version", version=f"tokdrill {__version__}")
    add_common_arguments(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in SUBCOMMANDS.items():
        module = importlib.import_module(f"tokdrill.cli.{module_name}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        add_common_arguments(p, suppress_defaults=True)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


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
    args = build_parser().parse_args(argv)
    run = getattr(args, "_run", None)
    try:
        if run is None:
            from tokdrill.ui.launch import launch_app

            return launch_app(args)
        return int(run(args))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
