"""Stats: per drill times against target with a trend, per deck retention and forecast, activity;
``c`` switches to charts of the same history.

The numbers come from ``tokdrill.practice.stats.compute_stats``, the same as ``tokdrill stats``;
the charts are the ones ``tokdrill stats --plot`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Sparkline, Static

from tokdrill.backend import Backend
from tokdrill.clock import clock_text
from tokdrill.content.model import Drill
from tokdrill.practice.service import TypingPoint
from tokdrill.practice.stats import Stats
from tokdrill.ui import keymap
from tokdrill.ui.formatting import percent, plural, shorten, sparkline
from tokdrill.ui.text import markup, printable, rich_plain
from tokdrill.ui.widgets.charts import ChartsView
from tokdrill.ui.widgets.footer import FittingFooter

_HEAT = " ░▒▓█"
TITLE_WIDTH = 30  # the drill column, so that the times fit an 80-column terminal


def _seconds(value: float | None, target: int) -> Text:
    if value is None:
        return Text("-", style="dim")
    return Text(clock_text(value), style="green" if value <= target else "yellow")


def heat_row(counts: list[int]) -> str:
    """One shade character per day: blank for none, darker for more."""
    top = max(counts) if counts else 0
    if top == 0:
        return "·" * len(counts)
    return "".join("·" if n == 0 else _HEAT[min(4, 1 + (n * 3) // top)] for n in counts)


def typing_text(points: list[TypingPoint], drills: Mapping[str, Drill]) -> Text:
    """Latest and best WPM, latest accuracy and a WPM trend, overall and per drill typed."""
    if not points:
        return Text("No typing figures yet: they are measured in retype mode.", style="dim")
    out = Text()
    latest = points[-1]
    out.append(f"latest {latest.wpm:.0f} wpm", style="bold")
    if latest.accuracy is not None:
        out.append(f" · accuracy {percent(latest.accuracy)}")
    out.append(f" · best {max(p.wpm for p in points):.0f} wpm · trend ")
    out.append(sparkline([p.wpm for p in points]), style="magenta")
    costs: dict[str, int] = {}
    for point in points[-5:]:
        for key, count in point.costly_keys:
            costs[key] = costs.get(key, 0) + count
    if costs:
        top = sorted(costs.items(), key=lambda kv: (-kv[1], kv[0]))[:4]
        out.append("\ncostliest lately: " + printable(", ".join(f"`{key}` ×{n}" for key, n in top)), style="dim")
    for drill_id in dict.fromkeys(p.drill_id for p in reversed(points)):
        mine = [p for p in points if p.drill_id == drill_id]
        drill = drills.get(drill_id)
        title = drill.title if drill is not None else f"{drill_id} (retired)"
        out.append(f"\n{shorten(printable(title), TITLE_WIDTH):<{TITLE_WIDTH}} ")
        out.append(f"{mine[-1].wpm:3.0f} wpm  best {max(p.wpm for p in mine):.0f}  ")
        out.append(sparkline([p.wpm for p in mine]), style="magenta")
    return out


def mock_rounds_text(backend: Backend) -> Text:
    """The recent mock rounds, newest first, one line each."""
    from tokdrill.practice.mock import MOCK_ROUNDS_SHOWN, round_line

    rounds = backend.mock_rounds(MOCK_ROUNDS_SHOWN)
    if not rounds:
        return Text("No mock rounds yet: k on Today starts one.", style="dim")
    return rich_plain("\n".join(round_line(m, backend.local_day(m.started_at)) for m in rounds))


class StatsScreen(Screen[None]):
    """Progress in numbers; refreshed whenever it is shown."""

    BINDINGS = keymap.STATS

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend
        self.stats: Stats | None = None
        self.typing: list[TypingPoint] = []
        self._just_mounted = False

    def compose(self) -> ComposeResult:
        yield Static("[b]Stats[/b] · same numbers as `tokdrill stats`", id="stats-title")
        with VerticalScroll(id="stats-body"):
            yield Static("", id="totals")
            yield Static("Drills", classes="section")
            yield DataTable(id="drill-table", cursor_type="row", zebra_stripes=True)
            yield Static("", id="trend-label")
            yield Sparkline([], id="trend")
            yield Static("Typing (retype mode)", classes="section")
            yield Static("", id="typing")
            yield Static("Decks", classes="section")
            yield DataTable(id="deck-table", cursor_type="row", zebra_stripes=True)
            yield Static("Activity", classes="section")
            yield Static("", id="activity")
            yield Static("Mock rounds", classes="section")
            yield Static("", id="mock-rounds")
        yield ChartsView(self.backend, id="charts")
        yield FittingFooter()

    def on_mount(self) -> None:
        drills = self.query_one("#drill-table", DataTable)
        drills.add_columns("drill", "tries", "pass", "best", "median", "latest", "target", "trend")
        decks = self.query_one("#deck-table", DataTable)
        decks.add_columns("deck", "seen", "reviews", "retention", "due now", "next 14 days", "")
        self.refresh_stats()
        self._just_mounted = True
        drills.focus()

    def on_screen_resume(self) -> None:
        if self._just_mounted:  # shown for the first time: on_mount has just read everything
            self._just_mounted = False
            return
        self.refresh_stats()
        charts = self.query_one(ChartsView)
        if charts.display:
            charts.reload()

    def action_toggle_charts(self) -> None:
        """Switch between the numbers and the charts."""
        charts = self.query_one(ChartsView)
        charts.display = not charts.display
        self.query_one("#stats-body").display = not charts.display
        if charts.display:
            charts.reload()
            charts.focus()
        else:
            self.query_one("#drill-table", DataTable).focus()

    def refresh_stats(self) -> None:
        backend = self.backend
        stats = backend.stats()
        self.stats = stats
        totals = Text()
        totals.append(
            f"{plural(stats.total_attempts, 'attempt')} · {plural(stats.total_reviews, 'review')} · ", style="bold"
        )
        totals.append(f"streak {plural(stats.streak_days, 'day')}\n")
        totals.append(f"due now: {stats.due.describe()}")
        if stats.readiness is not None:
            r = stats.readiness
            totals.append(
                f" · readiness {percent(r.overall)} for {r.interview_date.isoformat()} ({r.days_left} days)",
                style="cyan",
            )
        self.query_one("#totals", Static).update(totals)
        table = self.query_one("#drill-table", DataTable)
        table.clear()
        for d in stats.drills:
            latest = _seconds(d.latest_seconds, d.target_seconds)
            if d.latest_passed is False:
                latest = Text(f"{clock_text(d.latest_seconds or 0)} ✗", style="red")
            title = shorten(printable(d.title) + (" (retired)" if d.retired else ""), TITLE_WIDTH)
            table.add_row(
                Text(title),
                str(d.attempts),
                str(d.passes),
                _seconds(d.best_seconds, d.target_seconds),
                _seconds(d.median_seconds, d.target_seconds),
                latest,
                clock_text(d.target_seconds),
                sparkline(d.trend),
                key=d.drill_id,
            )
        decks = self.query_one("#deck-table", DataTable)
        decks.clear()
        for k in stats.decks:
            decks.add_row(
                rich_plain(k.title),
                f"{k.cards_seen}/{k.cards_total}",
                str(k.reviews),
                percent(k.retention),
                str(k.due_now),
                sparkline(k.forecast) if any(k.forecast) else "-",
                " ".join(str(n) for n in k.forecast[:7]),
                key=k.deck_id,
            )
        self.typing = backend.typing_history()
        self.query_one("#typing", Static).update(typing_text(self.typing, backend.library.drills))
        activity = backend.activity()
        counts = [n for _day, n in activity]
        text = Text()
        text.append(f"last {len(activity)} days  ", style="dim")
        text.append(heat_row(counts), style="green")
        text.append(f"  {sum(counts)} attempts+reviews, active on {sum(1 for n in counts if n)} days\n", style="dim")
        text.append("forecast (all items, next 14 days): ", style="dim")
        text.append(" ".join(str(n) for n in stats.forecast))
        self.query_one("#activity", Static).update(text)
        self.query_one("#mock-rounds", Static).update(mock_rounds_text(backend))
        practised = [d for d in stats.drills if d.trend]
        if practised:  # start on a drill that has a trend to show
            table.move_cursor(row=table.get_row_index(practised[0].drill_id))
        self._show_trend(practised[0].drill_id if practised else None)

    def typing_trend(self, drill_id: str) -> list[float]:
        """The WPM of the drill's recent retype attempts, oldest first."""
        return [p.wpm for p in self.typing if p.drill_id == drill_id]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "drill-table" and event.row_key is not None:
            self._show_trend(event.row_key.value)

    def _show_trend(self, drill_id: str | None) -> None:
        label = self.query_one("#trend-label", Static)
        spark = self.query_one("#trend", Sparkline)
        row = next((d for d in self.stats.drills if d.drill_id == drill_id), None) if self.stats and drill_id else None
        if row is None or not row.trend:
            label.update("Trend: no passing attempts yet for the highlighted drill.")
            spark.data = []
            spark.display = False
            return
        spark.display = True
        label.update(
            markup(
                "Trend of $title: last $count passing times (lower is better), target $target",
                title=row.title,
                count=len(row.trend),
                target=clock_text(row.target_seconds),
            )
        )
        spark.data = list(row.trend)

    def action_leave(self) -> None:
        self.app.pop_screen()
