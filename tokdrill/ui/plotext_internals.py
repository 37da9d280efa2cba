"""textual-plotext's private names the charts rely on, in one place; tests/ui/test_textual_internals.py
checks them against the installed release (pyproject.toml pins textual-plotext to the one tested).

``Figure`` is the figure class that ``textual_plotext.plot.Plot`` extends and that its subplots
are made of: the chart functions draw on it, so the app's chart widget and ``tokdrill stats
--plot`` draw the same picture. textual-plotext keeps it in a private module.
"""

from __future__ import annotations

from textual_plotext.plotext._figure import _figure_class as Figure

__all__ = ["Figure"]
