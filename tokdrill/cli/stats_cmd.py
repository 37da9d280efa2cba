"""`tokdrill stats`: drills, decks, streak, due forecast and readiness, as text or JSON; with
``--plot``, the app's charts printed to the terminal."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokdrill.practice.series import ChartSeries
    from tokdrill.practice.stats import Stats
    from tokdrill.scheduling.catalog import Catalog

PLOT_HEIGHT = 20
"""Rows of each chart `tokdrill stats --plot` prints (fewer on a shorter terminal)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill stats`."""
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON document")
    output.add_argument(
        "--plot", action="store_true", help="print the charts of the app's Stats screen (colour only on a terminal)"
    )
    parser.add_argument("--drill", metavar="ID", help="with --plot: the drill whose times to chart (default: latest)")
    parser.add_argument("--deck", metavar="ID", help="with --plot: the deck whose reviews to chart (default: latest)")


def load_catalog(args: argparse.Namespace) -> Catalog:
    """The current content as a scheduling Catalog; content problems are warned about on stderr
    (their items then show as retired) but do not stop the stats.

    Fast on a warm start: content comes from the cache under ``--data-dir``, and drill symbols
    are not checked against ``reference_impl`` (stats only needs ids, titles and targets, so a
    drill whose reference code broke keeps showing its history; `tokdrill validate` reports it).
    """
    from tokdrill import locations
    from tokdrill.content.loader import load_library
    from tokdrill.scheduling.catalog import catalog_from_library

    library = load_library(
        locations.extra_content_dirs(getattr(args, "content", None), getattr(args, "data_dir", None)),
        cache_dir=locations.cache_dir(getattr(args, "data_dir", None)),
        check_symbols=False,  # stats needs ids, titles and targets; importing the reference costs ~30 ms
    )
    if library.errors:
        print(
            f"warning: {len(library.errors)} content problem(s); run `tokdrill validate` for details", file=sys.stderr
        )
    return catalog_from_library(library)


def _seconds(value: float | None) -> str:
    from tokdrill.clock import clock_text

    return "-" if value is None else clock_text(value)


def render_text(stats: Stats, database: Path | None = None) -> str:
    """The human-readable stats report; ``database`` (the progress file) is named at the end."""
    from tokdrill.scheduling.readiness import READINESS_EXPLANATION

    lines = [
        f"Streak: {stats.streak_days} day(s)    Attempts: {stats.total_attempts}    Reviews: {stats.total_reviews}",
        f"Due now: {stats.due.describe()}",
        "Next 14 days: " + " ".join(str(n) for n in stats.forecast),
        f"Last {len(stats.activity)} days: " + " ".join(str(n) for _day, n in stats.activity),
        "",
        "(times are m:ss of active time; x = that attempt failed)",
        f"{'Drill':<28} {'tries':>5} {'pass':>5} {'best':>6} {'median':>6} {'latest':>6} {'target':>6}",
    ]
    for d in stats.drills:
        name = d.drill_id + (" (retired)" if d.retired else "")
        latest = _seconds(d.latest_seconds) + ("" if d.latest_passed in (None, True) else "x")
        lines.append(
            f"{name:<28} {d.attempts:>5} {d.passes:>5} {_seconds(d.best_seconds):>6} "
            f"{_seconds(d.median_seconds):>6} {latest:>6} {_seconds(d.target_seconds):>6}"
        )
    lines += ["", f"{'Deck':<28} {'seen':>9} {'reviews':>7} {'retain':>6} {'due':>4}"]
    for k in stats.decks:
        retention = "-" if k.retention is None else f"{k.retention:.0%}"
        seen = f"{k.cards_seen:>4}/{k.cards_total:<4}"
        lines.append(f"{k.deck_id:<28} {seen} {k.reviews:>7} {retention:>6} {k.due_now:>4}")
    if stats.retired.cards:
        lines.append(f"Retired cards with history: {len(stats.retired.cards)}")
    r = stats.readiness
    lines.append("")
    if r is None:
        lines.append("Readiness: set an interview date in the app to see it")
    else:
        lines.append(f"Readiness for {r.interview_date} ({r.days_left} day(s) left): {r.overall:.0%}")
        for item in r.weakest:
            lines.append(f"  weakest: {item.kind} {item.item_id} ({item.score:.0%})")
    lines += textwrap.wrap(READINESS_EXPLANATION, width=88)
    if database is not None:
        lines += ["", f"Progress is kept in {database.parent} (file {database.name})."]
    return "\n".join(lines)


def use_colour(stream: object) -> bool:
    """Colour only on a terminal, and not when NO_COLOR is set (https://no-color.org) or TERM is dumb."""
    import os

    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def render_plots(series: ChartSeries, width: int, height: int = PLOT_HEIGHT, colour: bool = False) -> str:
    """Every chart of the Stats screen, ``width`` columns wide and ``height`` rows high each,
    one after another; plain text unless ``colour``."""
    from textual_plotext.plot import Plot

    from tokdrill.ui.widgets.charts_figures import Chart, draw

    parts = []
    for chart in Chart:
        plot = Plot()
        reason = draw(plot, chart, series, width)
        if reason is not None:
            parts.append(f"{chart.label}: {reason}")
            continue
        plot.plotsize(width, height)
        plot.theme("clear")
        text = plot.build()
        parts.append(text if colour else plot.uncolorize(text))
    return "\n\n".join(part.rstrip() for part in parts)


def _plot(args: argparse.Namespace, path: Path, catalog: Catalog) -> int:
    import shutil

    from tokdrill.practice.series import chart_series
    from tokdrill.progress.store import Store
    from tokdrill.scheduling.planner import Planner

    for kind, wanted, known in (("drill", args.drill, catalog.drill_targets), ("deck", args.deck, catalog.decks)):
        if wanted is not None and wanted not in known:
            print(
                f"tokdrill stats: --{kind} {wanted!r} is not a {kind} in the content (`tokdrill list`)", file=sys.stderr
            )
            return 2
    with Store.open_for_reading(path) as store:
        series = chart_series(store, catalog, Planner(store), args.drill, args.deck)
    size = shutil.get_terminal_size()
    height = max(10, min(PLOT_HEIGHT, size.lines - 2))
    print(render_plots(series, max(40, size.columns), height, use_colour(sys.stdout)))
    return 0


def run(args: argparse.Namespace) -> int:
    """Print the stats; 1 when the database cannot be used."""
    import json

    from tokdrill import locations
    from tokdrill.practice.mock import MOCK_ROUNDS_SHOWN, round_line
    from tokdrill.practice.stats import compute_stats
    from tokdrill.progress.errors import StoreError
    from tokdrill.progress.store import Store
    from tokdrill.scheduling.planner import Planner

    path = locations.database_path(getattr(args, "data_dir", None))
    try:
        catalog = load_catalog(args)
        if getattr(args, "plot", False):
            return _plot(args, path, catalog)
        with Store.open_for_reading(path) as store:
            stats = compute_stats(store, catalog)
            calendar = Planner(store).calendar()
            rounds = [round_line(m, calendar.day_of(m.started_at)) for m in store.mock_rounds(MOCK_ROUNDS_SHOWN)]
    except StoreError as exc:
        print(f"tokdrill stats: {exc}\n{exc.advice}", file=sys.stderr)
        return 1
    if args.json:
        from tokdrill.scheduling.readiness import READINESS_EXPLANATION

        doc = stats.to_json() | {
            "readiness_explanation": READINESS_EXPLANATION,
            "data_dir": str(path.parent),
            "database": str(path),
            "mock_rounds": rounds,
        }
        print(json.dumps(doc, indent=2))
    else:
        print(render_text(stats, path))
        print("\nMock rounds (newest first): " + ("none yet" if not rounds else ""))
        for line in rounds:
            print(f"  {line}")
    return 0
