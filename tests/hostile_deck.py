"""A downloaded deck folder whose code tries to act as the user the moment it is imported: its
hidden test module, its conftest and its reference builder each write a file into a witness
folder anyone may write to, copying a private file of the user's home if they can read it.
Run only inside the sandbox, none of them leaves anything behind. (Imported by name.)"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

DRILL_ID = "deck-pairs"
GOOD = """\
def count_pairs(word_freqs):
    counts = {}
    for word, freq in word_freqs.items():
        for pair in zip(word, word[1:]):
            counts[pair] = counts.get(pair, 0) + freq
    return counts
"""
WRONG = "def count_pairs(word_freqs):\n    return {}\n"
TESTS = (  # as the verdict lists them: a parametrized test once, its cases folded into it
    "test_deck_pairs.py::test_pairs_match_the_reference_cases",
    "test_deck_pairs.py::test_pairs_are_weighted",
    "test_deck_pairs.py::TestEdges::test_one_symbol_words_have_no_pairs",
)

# Every piece of the deck's code runs this at import: write a file outside the sandbox's scratch,
# with the user's secret in it when it can be read.
_ACT = """
import os as _os


def _act(who):
    try:
        with open({secret!r}) as fh:
            found = fh.read()
    except OSError:
        found = "secret unreadable"
    try:
        with open(_os.path.join({witness!r}, who), "w") as fh:
            fh.write(found)
    except OSError:
        pass
"""

CONFTEST = """
import pytest
{act}
_act("conftest")


@pytest.fixture(scope="session")
def impl(request):
    return request.config.pluginmanager.get_plugin("tokdrill-submission").module


@pytest.fixture(scope="session")
def ref():
    import reference_impl

    return reference_impl


def pytest_configure(config):
    config.addinivalue_line("markers", "concept(*ids): what a test checks")


def pytest_collection_finish(session):
    # The reference's side of the checks, built once at the end of collection (as the shipped
    # hidden tests do): the builders are the deck's code as well.
    import reference_impl

    for module in {{id(i.module): i.module for i in session.items}}.values():
        for builder in getattr(module, "REFERENCE_CASES", ()):
            module.ANSWERS[builder.__name__] = builder(reference_impl)
"""

TEST_MODULE = """
import pytest
{act}
_act("test-module")
ANSWERS = {{}}


def build_cases(ref):
    _act("reference")
    words = {{("a", "b", "c"): 2, ("b", "c"): 1, ("x",): 5}}
    return words, dict(ref.count_pairs(words))


REFERENCE_CASES = [build_cases]


@pytest.mark.concept("deck-pair-counting")
def test_pairs_match_the_reference_cases(impl):
    words, expected = ANSWERS["build_cases"]
    assert dict(impl.count_pairs(words)) == expected


@pytest.mark.concept("deck-pair-weighting")
@pytest.mark.parametrize("freq", [2, 3])
def test_pairs_are_weighted(impl, freq):
    assert dict(impl.count_pairs({{("a", "b"): freq}})) == {{("a", "b"): freq}}


class TestEdges:
    @pytest.mark.concept("deck-pair-counting")
    def test_one_symbol_words_have_no_pairs(self, impl):
        assert dict(impl.count_pairs({{("a",): 4}})) == {{}}
"""

DRILL = f"""\
id: {DRILL_ID}
title: Count adjacent pairs (a downloaded deck)
symbols: [count_pairs]
target_seconds: 60
difficulty: easy
hidden_tests: [test_deck_pairs.py]
prompt: |
  Write `count_pairs(word_freqs)`: count each adjacent pair of symbols, weighted by frequency.
starter: |
  def count_pairs(word_freqs):
      ...
"""

CONCEPTS = """\
concepts:
  - id: deck-pair-counting
    title: Pairs are counted between adjacent symbols
    lesson: Every adjacent pair inside a word is counted; a word of one symbol has none.
  - id: deck-pair-weighting
    title: Pair counts are weighted by word frequency
    lesson: A pair inside a word seen twice counts twice.
"""


class HostileDeck:
    """The deck folder, the witness folder its code writes to, and the secret it tries to read.
    Everything is readable by any account (the tests also run as an ordinary one); the witness
    folder is writable by any account, so only the sandbox can keep it empty."""

    def __init__(self, secret: Path) -> None:
        base = "/var/tmp" if os.access("/var/tmp", os.W_OK) else None
        self.root = Path(tempfile.mkdtemp(prefix="tokdrill-deck-", dir=base))
        self.folder = self.root / "deck"
        self.witness = self.root / "witness"
        self.secret = secret
        hidden = self.folder / "drills" / "hidden"
        hidden.mkdir(parents=True)
        self.witness.mkdir()
        act = _ACT.format(secret=str(secret), witness=str(self.witness))
        (self.folder / "concepts.yaml").write_text(CONCEPTS)
        (self.folder / "drills" / f"{DRILL_ID}.yaml").write_text(DRILL)
        (hidden / "conftest.py").write_text(CONFTEST.format(act=act))
        (hidden / "test_deck_pairs.py").write_text(TEST_MODULE.format(act=act))
        for path in [self.root, *self.root.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        os.chmod(self.witness, 0o777)

    def plant_modules(self) -> None:
        """Modules named as those tokdrill imports, at the deck's top, for a run from inside it."""
        act = _ACT.format(secret=str(self.secret), witness=str(self.witness))
        for name in ("reference_impl", "pytest", "regex", "yaml"):
            path = self.folder / f"{name}.py"
            path.write_text(f"{act}\n_act({name!r})\n")
            os.chmod(path, 0o644)

    def written(self) -> dict[str, str]:
        """What the deck's code managed to write outside the sandbox (empty when confined)."""
        return {p.name: p.read_text() for p in sorted(self.witness.iterdir())}

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
