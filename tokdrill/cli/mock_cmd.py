"""`tokdrill mock`: open the app on a mock interview round (the length is the ``mock_minutes``
setting: `tokdrill config mock_minutes 30`)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`tokdrill mock` takes only the common options."""


def run(args: argparse.Namespace) -> int:
    """Run the app, starting on the mock round."""
    from tokdrill.ui.launch import launch_app

    return launch_app(args, start="mock")
