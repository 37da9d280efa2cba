"""Building the user's module: what the drill asks for and the code does not define is named in
words that match what the code lacks."""

from __future__ import annotations

import pytest

from tokdrill.grading.submission import build_module

SYMBOLS = ("apply_merges", "BPETokenizer.train", "BPETokenizer.tokenize")


@pytest.mark.parametrize(
    ("source", "said"),
    [
        (
            "x = 1\n",
            [
                "`apply_merges` is not defined in your code",
                "`BPETokenizer` is not defined in your code (a class with `train` and `tokenize`)",
            ],
        ),
        (
            "def apply_merges(symbols, ranks):\n    return symbols\n",
            ["`BPETokenizer` is not defined in your code (a class with `train` and `tokenize`)"],
        ),
        (
            "def apply_merges(symbols, ranks):\n    return symbols\n\n\nclass BPETokenizer:\n    def train(self, text, n):\n        pass\n",
            ["`tokenize` is not defined in your class `BPETokenizer`"],
        ),
    ],
)
def test_missing_symbols_are_named_as_the_code_lacks_them(source: str, said: list[str]) -> None:
    _, missing = build_module(source, SYMBOLS)
    assert [str(m) for m in missing] == said
