"""Fixtures for scheduling tests: a fixed clock, a store in UTC days and a small catalog."""

from __future__ import annotations

from store_fixtures import catalog, clock, planner, store

__all__ = ["catalog", "clock", "planner", "store"]
