"""`tokdrill show DRILL [--prompt | --starter | --reference]`: print a drill as the app shows it:
by default its title, difficulty, target, prompt and starter code; or only one of them, or the
reference code that retype mode shows.

Exit codes: 0 printed, 2 unknown drill.
"""

from __future__ import annotations

import argparse

EXIT_OK, EXIT_USAGE = 0, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill show`."""
    parser.add_argument("drill_id", metavar="DRILL", help="the drill to show (see `tokdrill list`)")
    part = parser.add_mutually_exclusive_group()
    part.add_argument("--prompt", action="store_true", help="only the prompt (Markdown)")
    part.add_argument("--starter", action="store_true", help="only the starter code")
    part.add_argument("--reference", action="store_true", help="the reference code (what retype mode shows)")


def run(args: argparse.Namespace) -> int:
    """Print the part of the drill asked for."""
    from tokdrill.cli.check_cmd import find_drill

    drill = find_drill(args, "show")
    if drill is None:
        return EXIT_USAGE
    from tokdrill.grading.report import printable

    if args.prompt:
        print(printable(drill.prompt.rstrip()))
    elif args.starter:
        print(drill.starter.rstrip())
    elif args.reference:
        from tokdrill.content.reference import reference_source

        print(reference_source(drill.symbols).rstrip())
    else:
        print(
            printable(f"{drill.title}  ({drill.id} · {drill.difficulty} · target {drill.target_seconds // 60} min)\n")
        )
        print(printable(drill.prompt.rstrip()))
        print("\nStarter:\n")
        print(drill.starter.rstrip())
    return EXIT_OK
