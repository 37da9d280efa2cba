"""`tokdrill mistakes [--json | --markdown]`: every concept a hidden test caught, how often and
when, on which drills, whether it is fixed (passed since), and its one-line lesson with the card
that teaches it. The same log as the app's Mistakes screen (``tokdrill.practice.mistakes``);
``--markdown`` is the page to print before an interview.

Exit codes: 0 printed (an empty log included), 1 the progress database cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokdrill.practice.mistakes import Mistake

EMPTY = "No mistakes logged yet: every hidden test a submission fails is logged with its concept."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill mistakes`."""
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print one JSON document")
    form.add_argument("--markdown", action="store_true", help="print a Markdown page (to print or keep)")


def render_text(log: list[Mistake], day_of: Callable[[datetime], date]) -> str:
    """The log as plain text, one block per concept."""
    if not log:
        return EMPTY
    lines = []
    for m in log:
        mark = "fixed" if m.fixed else "NOT FIXED"
        lines.append(f"{m.concept}: {m.title}  [{mark}]")
        lines.append(f"  {m.count} failure(s), last {day_of(m.last)}, drills: {', '.join(m.drills)}")
        if m.lesson:
            lines.append(f"  lesson: {m.lesson}")
        if m.card is not None:
            lines.append(f"  card: {m.card.card_id}: {m.card.question}")
        lines.append("")
    open_ones = sum(1 for m in log if not m.fixed)
    lines.append(f"{len(log)} concept(s) missed, {open_ones} not fixed yet.")
    return "\n".join(lines)


def render_markdown(log: list[Mistake], day_of: Callable[[datetime], date], today: date) -> str:
    """The log as a Markdown page: what to remember on the morning of the interview."""
    lines = [f"# Mistakes to remember ({today.isoformat()})", ""]
    if not log:
        return "\n".join([*lines, EMPTY, ""])
    open_ones = sum(1 for m in log if not m.fixed)
    lines += [f"{len(log)} concept(s) missed, {open_ones} not fixed yet. Not fixed first, newest first.", ""]
    for m in log:
        lines.append(f"## {'✓' if m.fixed else '✗'} `{m.concept}`: {m.title}")
        lines.append("")
        if m.lesson:
            lines.append(f"**Lesson.** {m.lesson}")
            lines.append("")
        fixed = f"fixed {day_of(m.fixed_at)}" if m.fixed and m.fixed_at else "not fixed yet"
        lines.append(f"- {m.count} failure(s), last {day_of(m.last)}, {fixed}")
        lines.append(f"- drills: {', '.join(m.drills)}")
        if m.tests:
            lines.append(f"- tests: {', '.join(f'`{t}`' for t in m.tests)}")
        if m.card is not None:
            point = f" (key point: {m.card.key_point})" if m.card.key_point else ""
            lines.append(f"- card: {m.card.question}{point}")
        lines.append("")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the mistake log; 1 when the database cannot be read."""
    import json

    from tokdrill import locations
    from tokdrill.content.loader import load_library
    from tokdrill.practice.mistakes import mistakes
    from tokdrill.progress.errors import StoreError
    from tokdrill.progress.store import Store
    from tokdrill.scheduling.planner import Planner

    library = load_library(
        locations.extra_content_dirs(getattr(args, "content", None), getattr(args, "data_dir", None)),
        cache_dir=locations.cache_dir(getattr(args, "data_dir", None)),
        check_symbols=False,
    )
    path = locations.database_path(getattr(args, "data_dir", None))
    try:
        with Store.open_for_reading(path) as store:
            log = mistakes(store, library)
            calendar = Planner(store).calendar()
            today = calendar.day_of(store.clock.now())
    except StoreError as exc:
        print(f"tokdrill mistakes: {exc}\n{exc.advice}", file=sys.stderr)
        return 1
    if args.json:
        doc = {"mistakes": [m.to_json() for m in log], "not_fixed": sum(1 for m in log if not m.fixed)}
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    elif args.markdown:
        print(render_markdown(log, calendar.day_of, today))
    else:
        print(render_text(log, calendar.day_of))
    return 0
