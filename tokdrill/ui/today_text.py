"""What Today's queue says about each item: the lines the Today screen lists, built from the
backend's data (the backend holds no text a screen shows)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from msgspec import Struct

from tokdrill.backend import Today
from tokdrill.scheduling.planner import DueItem

PULL_WHERE = {"app": "attempt", "check": "check", "mock": "mock round"}


class QueueLine(Struct, frozen=True):
    """One line of Today's queue: a drill, a card pulled by a failed test (``kind='card'``,
    ``detail`` says why), or the batch of due cards (``kind='cards'``)."""

    kind: Literal["drill", "cards", "card"]
    item_id: str
    title: str
    detail: str


def pull_reason(item: DueItem) -> str:
    """Why a pulled card is due: "due because your bpe-encode attempt failed merge-order"."""
    failure = item.pulled_by
    if failure is None:
        return ""
    return f"due because your {failure.drill_id} {PULL_WHERE[failure.origin]} failed {failure.concept}"


def drill_detail(item: DueItem, target_seconds: int, now: datetime) -> str:
    """How a due drill is described: new with its target, or how late and how well recalled."""
    if item.is_new or item.due is None:
        detail = f"new · target {target_seconds // 60} min"
    else:
        late = (now - item.due).days
        detail = f"due{f' {late} d ago' if late > 0 else ''} · recall {item.recall_now * 100:.0f}%"
    return f"weak spot · {detail}" if item.weak else detail


def interleave(drills: list[QueueLine], cards: list[QueueLine]) -> list[QueueLine]:
    """Drills and cards taken in turn (a drill first), the longer list's rest at the end."""
    out: list[QueueLine] = []
    for i in range(max(len(drills), len(cards))):
        out.extend(group[i] for group in (drills, cards) if i < len(group))
    return out


def queue_lines(today: Today, now: datetime) -> tuple[QueueLine, ...]:
    """Today's queue as the screen lists it: drills and pulled cards in turn, a newcomer's first
    drill on top, then the batch of due cards."""
    drill_lines = [
        QueueLine("drill", drill.id, f"Drill: {drill.title}", drill_detail(item, drill.target_seconds, now))
        for item, drill in zip(today.drill_items, today.due_drills)
    ]
    card_lines = [QueueLine("card", i.item_id, f"Card: {title}", pull_reason(i)) for i, title in today.pulled]
    lines = interleave(drill_lines, card_lines)
    first = today.start_here
    if first is not None:  # a newcomer starts with the gentlest drill, due or not
        lines = [line for line in lines if line.item_id != first.id]
        start = QueueLine(
            "drill", first.id, f"Drill: {first.title}", f"start here · target {first.target_seconds // 60} min"
        )
        lines.insert(0, start)
    counts = today.due
    if counts.cards:
        listed = f" · {len(today.pulled)} listed above" if today.pulled else ""
        title = f"Review {counts.cards} card{'s' if counts.cards != 1 else ''}"
        lines.append(
            QueueLine("cards", "due", title, f"{counts.cards - counts.new_cards} due · {counts.new_cards} new{listed}")
        )
    return tuple(lines)
