"""Checks against the texts tokdrill's content was researched from.

Those texts are not part of the repository. These tests run only when ``TOKDRILL_SOURCE_TEXTS``
names the folder holding them (``.ci/run`` sets it when the folder is present); the suite's
root conftest leaves this folder out of collection otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def source_texts() -> list[Path]:
    """Every ``*.txt`` file in the folder ``TOKDRILL_SOURCE_TEXTS`` names."""
    folder = Path(os.environ["TOKDRILL_SOURCE_TEXTS"])
    texts = sorted(folder.glob("*.txt"))
    assert texts, f"no *.txt source texts in {folder}"
    return texts
