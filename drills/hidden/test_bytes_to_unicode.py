"""Hidden tests for the `bytes-to-unicode` drill: GPT-2's byte -> printable character table."""

from __future__ import annotations

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


def table(impl) -> dict[int, str]:
    return dict(impl.bytes_to_unicode())


def test_table_has_exactly_the_256_byte_values_as_keys(impl):
    got = sorted(table(impl))
    assert got == list(range(256)), f"expected keys 0..255, got {len(got)} keys: {got[:5]}...{got[-5:]}"


def test_every_value_is_one_character(impl):
    bad = {b: c for b, c in table(impl).items() if not (isinstance(c, str) and len(c) == 1)}
    assert not bad, f"expected one-character strings, got {bad}"


def test_table_is_a_bijection(impl):
    values = list(table(impl).values())
    assert len(set(values)) == 256, f"expected 256 distinct characters, got {len(set(values))}"


def test_every_character_is_printable_and_not_whitespace(impl):
    bad = {b: c for b, c in table(impl).items() if not c.isprintable() or c.isspace()}
    assert not bad, f"expected printable, non-space characters, got {bad}"


def test_printable_latin1_bytes_map_to_themselves(impl):
    t = table(impl)
    wrong = {b: t[b] for b in KEPT if t[b] != chr(b)}
    assert not wrong, f"expected these bytes to map to themselves, got {wrong}"


def test_other_bytes_shift_to_256_and_up_in_byte_order(impl):
    t = table(impl)
    moved = [b for b in range(256) if b not in KEPT]
    assert len(moved) == 68, f"the test's own list is wrong: {len(moved)}"
    expected = {b: chr(256 + n) for n, b in enumerate(moved)}
    got = {b: t[b] for b in moved}
    assert got == expected, f"expected {expected}\ngot {got}"


def test_well_known_entries(impl):
    t = table(impl)
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
        assert t[byte] == char, f"byte {byte:#04x}: expected {char!r} (U+{ord(char):04X}), got {t[byte]!r}"


def test_exact_gpt2_table(impl):
    t = table(impl)
    wrong = [f"{b:#04x}: expected {GPT2_TABLE[b]!r}, got {t.get(b)!r}" for b in range(256) if t.get(b) != GPT2_TABLE[b]]
    assert not wrong, f"{len(wrong)} entries differ:\n" + "\n".join(wrong[:20])


def test_table_is_the_same_on_every_call(impl):
    first, second = table(impl), table(impl)
    assert first == second, "two calls returned different tables"
