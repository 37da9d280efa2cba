"""A drill timer that counts active time against a target; paused time is not counted.

It waits for the first keystroke: until :meth:`DrillTimer.start` is first called it says so.
Once it runs it keeps room for the mark of a finished drill, so stopping it on a pass changes
no width on screen (nothing is laid out again).
"""

from __future__ import annotations

from textual.widgets import Static

from tokdrill.clock import Clock, clock_text

NEAR_FRACTION = 0.8  # the timer turns amber at 80% of the target, red past it
DONE = "  done"  # after the time of a finished drill


class DrillTimer(Static):
    """Shows ``elapsed / target``; CSS classes ``-near``, ``-over`` and ``-paused`` say the state."""

    DEFAULT_CSS = """
    DrillTimer { width: auto; padding: 0 1; color: $success; text-style: bold; }
    DrillTimer.-near { color: $warning; }
    DrillTimer.-over { color: $error; }
    DrillTimer.-paused { color: $text-muted; text-style: italic; }
    """

    elapsed = 0.0

    def __init__(self, clock: Clock, target_seconds: int, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.clock = clock
        self.target_seconds = target_seconds
        self._banked = 0.0
        self._started_at: float | None = None
        self.stopped = False
        self.waiting = True  # for the first keystroke
        self._shown_length = -1

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
            self.waiting = False
        self.tick()

    def pause(self) -> None:
        """Stop counting and keep the time so far."""
        self._bank()
        self.tick()

    def _bank(self) -> None:
        if self._started_at is not None:
            self._banked += self.clock.monotonic() - self._started_at
            self._started_at = None

    def toggle(self) -> bool:
        """Pause if running, else resume; returns whether it now runs."""
        if self.running:
            self.pause()
        else:
            self.start()
        return self.running

    def stop(self) -> float:
        """Stop for good (after a pass) and return the active seconds. The finished state is
        drawn at the next :meth:`tick` (twice a second, or called), so that the frame showing
        the verdict draws nothing up here."""
        self.stopped = True
        self._bank()
        return self._banked

    def active_seconds(self) -> float:
        """Seconds counted so far, paused spans excluded."""
        running = 0.0 if self._started_at is None else self.clock.monotonic() - self._started_at
        return self._banked + running

    def tick(self) -> None:
        """Show the time now (also called twice a second while mounted)."""
        self.elapsed = self.active_seconds()
        self.show_state()

    def show_state(self) -> None:
        """Write the time and state, and set the CSS classes that colour them."""
        elapsed = self.elapsed
        target = self.target_seconds
        self.set_class(elapsed > target, "-over")
        self.set_class(NEAR_FRACTION * target <= elapsed <= target, "-near")
        self.set_class(not self.running and not self.stopped and not self.waiting, "-paused")
        clock = f"{clock_text(elapsed)} / {clock_text(target)}"
        if self.stopped:
            text = clock + DONE
        elif self.waiting:
            text = clock + " · starts when you type"
        elif self.running:
            text = clock.ljust(len(clock) + len(DONE))  # room for the finished state: the time stays put
        else:
            text = clock + "  paused"
        self.update(text, layout=len(text) != self._shown_length)  # the width follows the text
        self._shown_length = len(text)
