"""`tokdrill bench`: every performance figure beside its baseline, measured in one run."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument(
        "--markdown", action="store_true", help="print the benchmark page (docs/benchmarks.md) in Markdown"
    )
    parser.add_argument(
        "--quick", action="store_true", help="fewer repetitions (a few minutes instead of about half an hour)"
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="GROUP",
        help="measure only this group (repeatable): startup, content, grading, store, ui, interactions, playground",
    )
    parser.add_argument(
        "--growth",
        action="store_true",
        help="also measure each interaction figure at 1x, 10x and 100x of its data (table, chart, exponent)",
    )


def run(args: argparse.Namespace) -> int:
    import sys
    import time

    from tokdrill.bench.growth import render_growth
    from tokdrill.bench.run import GROUPS, render_json, render_table, run_groups, run_growth, wall_figure

    names = args.only or list(GROUPS)
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        print(f"tokdrill bench: unknown group {', '.join(unknown)}; choose from {', '.join(GROUPS)}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    figures, problems = run_groups(names, quick=args.quick)
    growth = None
    if args.growth:
        growth, trouble = run_growth(quick=args.quick)
        problems += trouble
    every_group = set(names) == set(GROUPS)
    figures.append(wall_figure(time.perf_counter() - started, args.quick, args.growth, every_group))
    if args.json:
        print(render_json(figures, problems, growth))
        return 0
    if args.markdown:
        import json

        from tokdrill.bench.markdown import render_markdown

        print(
            render_markdown(json.loads(render_json(figures, problems, growth)), f"one run of `{_command_line(args)}`"),
            end="",
        )
        return 0
    print(render_table(figures, problems))
    if growth is not None:
        print()
        print(render_growth(growth))
    return 0


def _command_line(args: argparse.Namespace) -> str:
    """The measuring part of the command that was run (without the output option)."""
    words = ["tokdrill", "bench"]
    words += ["--quick"] if args.quick else []
    words += [word for name in args.only or () for word in ("--only", name)]
    words += ["--growth"] if args.growth else []
    return " ".join(words)
