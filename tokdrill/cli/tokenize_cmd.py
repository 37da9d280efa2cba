"""`tokdrill tokenize [TEXT | -] [--encoding NAME ...]`: a text's tokens in real tokenizers, side by
side, with counts, bytes per token and cost (the Playground screen's numbers)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tokdrill.playground.encoders import Encoder
    from tokdrill.playground.tokens import Figures, Token


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill tokenize`."""
    parser.add_argument("text", nargs="?", metavar="TEXT", help="the text (- or nothing: read standard input)")
    parser.add_argument(
        "--encoding",
        "-e",
        action="append",
        metavar="NAME",
        help="cl100k_base, o200k_base, bpe:CORPUS[@VOCAB], hf:ORG/NAME, or a tokenizer.json path "
        "(repeatable; default: cl100k_base and o200k_base)",
    )
    parser.add_argument("--ids", action="store_true", help="print token ids under each token list")
    parser.add_argument("--pieces", action="store_true", help="print the pre-tokenizer's pieces before merging")
    parser.add_argument(
        "--boundary", action="store_true", help="print how the last tokens change with the text's last character"
    )
    parser.add_argument(
        "--price",
        type=float,
        metavar="P",
        help="price per million tokens (default: the token_price_per_million setting)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    """Tokenize and print: 0 ok, 2 for text or an encoding that cannot be used."""
    import json

    from tokdrill.playground.boundary import boundary
    from tokdrill.playground.encoders import DEFAULT_ENCODINGS, EncoderError, open_encoder
    from tokdrill.playground.glyphs import visible
    from tokdrill.playground.tokens import TextRefused, check_text, figures, text_from_bytes

    try:
        if args.text is None or args.text == "-":
            text = text_from_bytes(sys.stdin.buffer.read(), "standard input")
        else:
            text = check_text(args.text, "TEXT")
    except TextRefused as exc:
        print(f"tokdrill tokenize: {exc}", file=sys.stderr)
        return 2
    if args.price is not None and not 0 <= args.price <= 100_000:
        print("tokdrill tokenize: --price must be from 0 to 100000 per million tokens", file=sys.stderr)
        return 2
    price = args.price if args.price is not None else _price_setting(args)
    encoders: list[Encoder] = []
    for spec in args.encoding or DEFAULT_ENCODINGS:
        try:
            encoders.append(open_encoder(spec))
        except EncoderError as exc:
            print(f"tokdrill tokenize: {exc}", file=sys.stderr)
            return 2
    results = []
    for encoder in encoders:
        tokenized = encoder.tokenize(text)
        entry: dict[str, Any] = {"encoding": encoder.name, "tokenized": tokenized, "figures": figures(tokenized, price)}
        if args.pieces:
            entry["pieces"] = encoder.pieces(text)
        if args.boundary:
            entry["boundary"] = boundary(encoder, text)
        results.append(entry)
    if args.json:
        print(json.dumps({"price_per_million": price, "encodings": [_json(e) for e in results]}, indent=2))
        return 0
    colour = sys.stdout.isatty() and not _no_color()
    for number, entry in enumerate(results):
        if number:
            print()
        print(f"{entry['encoding']}: {_figures_line(entry['figures'], price)}")
        print(_token_line(entry["tokenized"].tokens, colour))
        if args.ids:
            print("ids: " + " ".join(str(t.id) for t in entry["tokenized"].tokens))
        if args.pieces:
            print("pieces: " + " | ".join(visible(p) for p in entry["pieces"]))
        if args.boundary and entry["boundary"] is not None:
            b = entry["boundary"]
            print(f"boundary (adding {visible(b.added)!r}): after {b.shared} shared token(s)")
            print("  without it: " + (_token_line(b.before, colour) or "(nothing)"))
            print("  with it:    " + _token_line(b.after, colour))
    return 0


def _figures_line(numbers: Figures, price: float | None) -> str:
    per = "-" if numbers.bytes_per_token is None else f"{numbers.bytes_per_token:.2f}"
    line = (
        f"{_count(numbers.tokens, 'token')}, {_count(numbers.characters, 'character')}, "
        f"{_count(numbers.utf8_bytes, 'byte')}, "
        f"{per} bytes/token"
    )
    if numbers.cost is not None:
        line += f", cost {numbers.cost:.6f} at {price:g} per 1M tokens"
    return line


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _token_line(tokens: tuple[Token, ...], colour: bool) -> str:
    if not colour:
        return "│".join(t.text if not t.special else f"⟦{t.text}⟧" for t in tokens)
    shades = ("\x1b[30;46m", "\x1b[30;43m")
    parts = [
        ("\x1b[1;37;45m" if t.special else shades[i % 2]) + _printable(t.text) + "\x1b[0m" for i, t in enumerate(tokens)
    ]
    return "".join(parts)


def _printable(text: str) -> str:
    # Visible forms never hold control characters, so nothing here can act on the terminal.
    return "".join(ch for ch in text if ch.isprintable())


def _json(entry: dict[str, Any]) -> dict[str, Any]:
    numbers = entry["figures"]
    doc: dict[str, Any] = {
        "encoding": entry["encoding"],
        "ids": [t.id for t in entry["tokenized"].tokens],
        "tokens": [{"id": t.id, "text": t.text, "special": t.special} for t in entry["tokenized"].tokens],
        "count": numbers.tokens,
        "characters": numbers.characters,
        "bytes": numbers.utf8_bytes,
        "bytes_per_token": numbers.bytes_per_token,
        "cost": numbers.cost,
    }
    if "pieces" in entry:
        doc["pieces"] = entry["pieces"]
    if entry.get("boundary") is not None:
        b = entry["boundary"]
        doc["boundary"] = {
            "added": b.added,
            "shared": b.shared,
            "without": [t.id for t in b.before],
            "with": [t.id for t in b.after],
        }
    return doc


def _price_setting(args: argparse.Namespace) -> float | None:
    """The price set with `tokdrill config` (None when unset or the store cannot be read)."""
    from tokdrill import locations
    from tokdrill.progress import settings as keys
    from tokdrill.progress.errors import StoreError
    from tokdrill.progress.store import Store

    path = locations.database_path(getattr(args, "data_dir", None))
    if not path.exists():
        return None
    try:
        with Store.open(path) as store:
            value = store.get_setting(keys.TOKEN_PRICE)
    except (StoreError, OSError):
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _no_color() -> bool:
    import os

    return bool(os.environ.get("NO_COLOR"))
