"""Open the TUI from the command line (``tokdrill`` with no subcommand)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokdrill.ui.app import TokdrillApp


def build_app(args: argparse.Namespace) -> TokdrillApp:
    """The app for ``--data-dir`` / ``--content``, ready to run (the bench starts it the same way)."""
    from tokdrill.backend import Backend
    from tokdrill.ui.app import TokdrillApp

    backend = Backend.open(data_dir=getattr(args, "data_dir", None), content_dirs=getattr(args, "content", None))
    return TokdrillApp(backend)


def launch_app(args: argparse.Namespace) -> int:
    """Run the app until the user quits; returns the exit code (0)."""
    build_app(args).run()
    return 0
