"""A drill timer that counts active time against a target; paused time is not counted."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from tokdrill.clock import Clock
from tokdrill.ui.formatting import clock_text

NEAR_FRACTION = 0.8  # the timer turns amber at 80% of the target, red past it


class DrillTimer(Static):
    """Shows ``elapsed / target``; CSS classes ``-near``, ``-over`` and ``-paused`` say the state."""

    DEFAULT_CSS = """
    DrillTimer { width: 26; padding: 0 1; color: $success; text-style: bold; }
    DrillTimer.-near { color: $warning; }
    DrillTimer.-over { color: $error; }
    DrillTimer.-paused { color: $text-muted; text-style: italic; }
    """

    elapsed: reactive[float] = reactive(0.0)

    def __init__(self, clock: Clock, target_seconds: int, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.clock = clock
        self.target_seconds = target_seconds
        self._banked = 0.0
        self._started_at: float | None = None
        self.stopped = False

    def on_mount(self) -> None:
        self.set_interval(0.5, self.tick)
        self.tick()

    @property
    def running(self) -> bool:
        return self._started_at is not None

    def bank(self, seconds: float) -> None:
        """Count ``seconds`` as already spent (a restored draft keeps its time)."""
        self._banked = max(0.0, seconds)
        self.tick()

    def start(self) -> None:
        """Start or resume counting."""
        if self._started_at is None and not self.stopped:
            self._started_at = self.clock.monotonic()
        self.tick()

    def pause(self) -> None:
        """Stop counting and keep the time so far."""
        if self._started_at is not None:
            self._banked += self.clock.monotonic() - self._started_at
            self._started_at = None
        self.tick()

    def toggle(self) -> bool:
        """Pause if running, else resume; returns whether it now runs."""
        if self.running:
            self.pause()
        else:
            self.start()
        return self.running

    def stop(self) -> float:
        """Stop for good (after a pass) and return the active seconds."""
        self.pause()
        self.stopped = True
        self.watch_elapsed(self.elapsed)
        return self._banked

    def active_seconds(self) -> float:
        """Seconds counted so far, paused spans excluded."""
        running = 0.0 if self._started_at is None else self.clock.monotonic() - self._started_at
        return self._banked + running

    def tick(self) -> None:
        self.elapsed = self.active_seconds()

    def watch_elapsed(self, elapsed: float) -> None:
        target = self.target_seconds
        self.set_class(elapsed > target, "-over")
        self.set_class(NEAR_FRACTION * target <= elapsed <= target, "-near")
        self.set_class(not self.running and not self.stopped and elapsed > 0, "-paused")
        state = ""
        if self.stopped:
            state = "  done"
        elif not self.running and elapsed > 0:
            state = "  paused"
        self.update(f"⏱ {clock_text(elapsed)} / {clock_text(target)}{state}", layout=False)
