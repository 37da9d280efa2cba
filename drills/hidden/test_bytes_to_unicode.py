"""Hidden tests for the `bytes-to-unicode` drill: GPT-2's byte -> printable character table.

The table must be a dict (int -> one-character str); nothing is converted before it is checked.
"""

from __future__ import annotations

import pytest

# The whole GPT-2 table: character i is the image of byte i (32 bytes a line).
GPT2_TABLE = (
    "ĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğ"
    "Ġ!\"#$%&'()*+,-./0123456789:;<=>?"
    "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_"
    "`abcdefghijklmnopqrstuvwxyz{|}~ġ"
    "ĢģĤĥĦħĨĩĪīĬĭĮįİıĲĳĴĵĶķĸĹĺĻļĽľĿŀŁ"
    "ł¡¢£¤¥¦§¨©ª«¬Ń®¯°±²³´µ¶·¸¹º»¼½¾¿"
    "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß"
    "àáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ"
)
KEPT = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]  # '!'..'~', '¡'..'¬', '®'..'ÿ'


def table(impl, returns) -> dict[int, str]:
    return returns(impl.bytes_to_unicode(), dict, "bytes_to_unicode()")


@pytest.mark.concept("return-types")
def test_the_table_is_a_dict_of_ints_to_strings(impl, returns):
    got = table(impl, returns)
    wrong_keys = [k for k in got if type(k) is not int]
    assert not wrong_keys, f"keys must be the byte values as ints, got {wrong_keys[:5]}"
    wrong_values = {k: v for k, v in got.items() if not isinstance(v, str)}
    assert not wrong_values, f"values must be str, got {dict(list(wrong_values.items())[:5])}"


@pytest.mark.concept("byte-table")
def test_table_has_exactly_the_256_byte_values_as_keys(impl, returns):
    got = sorted(table(impl, returns))
    assert got == list(range(256)), (
        f"table has exactly the 256 byte values as keys: expected keys 0..255, got {len(got)} keys: {got[:5]}...{got[-5:]}"
    )


@pytest.mark.concept("byte-table")
def test_every_value_is_one_character(impl, returns):
    bad = {b: c for b, c in table(impl, returns).items() if not (isinstance(c, str) and len(c) == 1)}
    assert not bad, f"every value is one character: expected one-character strings, got {bad}"


@pytest.mark.concept("byte-table")
def test_table_is_a_bijection(impl, returns):
    values = list(table(impl, returns).values())
    assert len(set(values)) == 256, f"table is a bijection: expected 256 distinct characters, got {len(set(values))}"


@pytest.mark.concept("byte-table")
def test_every_character_is_printable_and_not_whitespace(impl, returns):
    bad = {
        b: c
        for b, c in table(impl, returns).items()
        if not (isinstance(c, str) and c.isprintable() and not c.isspace())
    }
    assert not bad, (
        f"every character is printable and not whitespace: expected printable, non-space characters, got {bad}"
    )


@pytest.mark.concept("byte-table")
def test_printable_latin1_bytes_map_to_themselves(impl, returns):
    t = table(impl, returns)
    wrong = {b: t.get(b) for b in KEPT if t.get(b) != chr(b)}
    assert not wrong, (
        f"printable latin1 bytes map to themselves: expected these bytes to map to themselves, got {wrong}"
    )


@pytest.mark.concept("byte-table")
def test_other_bytes_shift_to_256_and_up_in_byte_order(impl, returns):
    t = table(impl, returns)
    moved = [b for b in range(256) if b not in KEPT]
    assert len(moved) == 68, f"the test's own list is wrong: {len(moved)}"
    expected = {b: chr(256 + n) for n, b in enumerate(moved)}
    got = {b: t.get(b) for b in moved}
    assert got == expected, f"other bytes shift to 256 and up in byte order: expected {expected}\ngot {got}"


@pytest.mark.concept("byte-table")
def test_well_known_entries(impl, returns):
    t = table(impl, returns)
    for byte, char in [
        (0x20, "Ġ"),
        (0x0A, "Ċ"),
        (0x09, "ĉ"),
        (0x0D, "č"),
        (0x00, "Ā"),
        (0x7F, "ġ"),
        (0xA0, "ł"),
        (0xAD, "Ń"),
        (0x41, "A"),
        (0xFF, "ÿ"),
    ]:
        assert t.get(byte) == char, f"byte {byte:#04x}: expected {char!r} (U+{ord(char):04X}), got {t.get(byte)!r}"


@pytest.mark.concept("byte-table")
def test_exact_gpt2_table(impl, returns):
    t = table(impl, returns)
    wrong = [f"{b:#04x}: expected {GPT2_TABLE[b]!r}, got {t.get(b)!r}" for b in range(256) if t.get(b) != GPT2_TABLE[b]]
    assert not wrong, f"{len(wrong)} entries differ:\n" + "\n".join(wrong[:20])
    again = table(impl, returns)
    assert again == t, "a second call returned a different table"
