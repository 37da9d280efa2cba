"""The boundary view compares a text's final tokens with and without its last character."""

from __future__ import annotations

from tokdrill.playground.boundary import boundary
from tokdrill.playground.encoders import TiktokenEncoding


def test_a_character_that_re_cuts_the_last_token() -> None:
    found = boundary(TiktokenEncoding("cl100k_base"), "hello world")
    assert found is not None
    assert found.added == "d"
    assert [t.text for t in found.before] == ["·wor", "l"]
    assert [t.text for t in found.after] == ["·world"]
    assert found.retokenized


def test_a_character_that_only_appends() -> None:
    found = boundary(TiktokenEncoding("cl100k_base"), "http:")
    assert found is not None
    assert [t.text for t in found.after] == [":"]
    assert found.before == ()
    assert not found.retokenized


def test_empty_text_has_no_boundary() -> None:
    assert boundary(TiktokenEncoding("o200k_base"), "") is None
