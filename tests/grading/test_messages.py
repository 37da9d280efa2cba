"""Failure messages name hidden test files without the folder they are installed in."""

from __future__ import annotations

from tokdrill.grading.report import MESSAGE_LIMIT
from tokdrill.grading.report import short_message as _short


def test_absolute_test_file_paths_are_cut_to_the_file_name() -> None:
    text = (
        "/venv/lib/python3.11/site-packages/tokdrill/_content/drills/hidden/test_bpe_train.py:24: in test_x\n"
        '  File "/home/ada/tokdrill/drills/hidden/test_bpe_encode.py", line 3\n'
        "E   assert ('a',) == ('ab',)"
    )
    assert _short(text) == (
        "test_bpe_train.py:24: in test_x\n  File \"test_bpe_encode.py\", line 3\nE   assert ('a',) == ('ab',)"
    )


def test_user_paths_and_long_messages() -> None:
    assert _short('File "submission.py", line 2') == 'File "submission.py", line 2'
    long = _short("x" * (MESSAGE_LIMIT * 2))
    assert len(long) <= MESSAGE_LIMIT and long.endswith(f"(message cut at {MESSAGE_LIMIT} characters)")
