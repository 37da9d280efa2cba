"""The Stats screen's charts: a bar naming the charts and the drill or deck shown, over a
plotext plot (``textual-plotext``) drawn by :mod:`tokdrill.ui.widgets.charts_figures`."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.containers import Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot

from tokdrill.backend import Backend
from tokdrill.practice.series import ChartSeries
from tokdrill.ui import keymap
from tokdrill.ui.text import rich_plain
from tokdrill.ui.widgets.charts_figures import Chart, draw

CHARTS = tuple(Chart)


class ChartPlot(PlotextPlot):
    """One chart, drawn afresh at the widget's size whenever it renders; a short message in
    place of empty axes when there is nothing to draw."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.chart = Chart.TIMES
        self.series: ChartSeries | None = None

    def show(self, chart: Chart, series: ChartSeries) -> None:
        """Draw ``chart`` from ``series``."""
        self.chart, self.series = chart, series
        self.refresh()

    def render(self) -> RenderResult:
        if self.series is None:
            return Text("")
        reason = draw(self.plt, self.chart, self.series, self.size.width)
        if reason is not None:
            return rich_plain(reason, "dim")
        return super().render()


class ChartsView(Vertical, can_focus=True):
    """The charts, one at a time: ←/→ step through them, n/p through the drills or decks."""

    BINDINGS = keymap.STATS_CHARTS

    def __init__(self, backend: Backend, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.backend = backend
        self.chart = Chart.TIMES
        self.drills: tuple[str, ...] = ()
        self.decks: tuple[str, ...] = ()
        self.drill_id: str | None = None
        self.deck_id: str | None = None
        self.series: ChartSeries | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="chart-bar")
        yield ChartPlot(id="chart-plot")

    def reload(self) -> None:
        """Read the series afresh (the drill and deck kept when they still have history)."""
        self.drills, self.decks = self.backend.chart_choices()
        self.series = self.backend.charts(
            self.drill_id if self.drill_id in self.drills else None,
            self.deck_id if self.deck_id in self.decks else None,
        )
        self.drill_id = self.series.drill.drill_id if self.series.drill else None
        self.deck_id = self.series.deck.deck_id if self.series.deck else None
        self._show()

    def _show(self) -> None:
        if self.series is None:
            return
        bar = Text()
        for chart in CHARTS:
            bar.append(f" {chart.label} ", style="reverse bold" if chart is self.chart else "dim")
        choice = self._choice()
        if choice is not None:
            items, current = choice
            kind = "drill" if self.chart is Chart.TIMES else "deck"
            position = items.index(current) + 1 if current in items else 0
            bar.append(f"  {kind} {position} of {len(items)}", style="cyan")
        self.query_one("#chart-bar", Static).update(bar)
        self.query_one(ChartPlot).show(self.chart, self.series)

    def _choice(self) -> tuple[tuple[str, ...], str] | None:
        """The drills or decks the current chart steps through, and the one shown."""
        if self.chart is Chart.TIMES and self.drill_id is not None:
            return self.drills, self.drill_id
        if self.chart is Chart.DECK and self.deck_id is not None:
            return self.decks, self.deck_id
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "step_item":
            return self._choice() is not None
        return True

    def action_step_chart(self, step: int) -> None:
        """Show the next (or previous) chart."""
        self.chart = CHARTS[(CHARTS.index(self.chart) + step) % len(CHARTS)]
        self._show()

    def action_step_item(self, step: int) -> None:
        """Show the next (or previous) drill or deck on the chart that has one."""
        choice = self._choice()
        if choice is None or not choice[0]:
            return
        items, current = choice
        index = (items.index(current) + step) % len(items) if current in items else 0
        if self.chart is Chart.TIMES:
            self.drill_id = items[index]
        else:
            self.deck_id = items[index]
        self.series = self.backend.charts(self.drill_id, self.deck_id)
        self._show()
