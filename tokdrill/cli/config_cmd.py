"""`tokdrill config [KEY [VALUE]]`: show or change settings (the app's Settings screen changes
the same ones). Values are checked by :mod:`tokdrill.progress.settings`; they live in the
progress database, so export and import carry them."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `tokdrill config`."""
    parser.add_argument("key", nargs="?", metavar="KEY", help="a setting (omit to list them all)")
    parser.add_argument(
        "value", nargs="?", metavar="VALUE", help="the new value (a number, true/false, a date, a name; none clears)"
    )
    parser.add_argument("--reset", action="store_true", help="put KEY back to its default")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    """List, show or set settings: 0 ok, 1 when the database cannot be used or the value is
    refused, 2 for an unknown key or a usage mistake."""
    import json

    from tokdrill.cli.check_cmd import open_practice
    from tokdrill.progress import settings as keys
    from tokdrill.progress.errors import StoreError

    key: str | None = args.key
    if key is not None and key not in keys.VALIDATORS:
        known = ", ".join(sorted(keys.VALIDATORS))
        print(f"tokdrill config: unknown setting {key!r} (known: {known})", file=sys.stderr)
        return 2
    if args.reset and (key is None or args.value is not None):
        print("tokdrill config: --reset takes a KEY and no VALUE", file=sys.stderr)
        return 2
    value: keys.SettingValue = None
    if key is not None and args.value is not None:
        try:
            value = keys.setting_from_text(key, args.value)
        except ValueError as exc:
            print(f"tokdrill config: {key}: {exc}", file=sys.stderr)
            return 1
    practice = open_practice(args, "config")  # a change is a write like any other: queued, journalled
    try:
        if key is not None and (args.value is not None or args.reset):
            practice.progress.set_setting(key, keys.DEFAULTS[key] if args.reset else value)
        names = sorted(keys.VALIDATORS) if key is None else [key]
        current = {name: practice.progress.setting(name) for name in names}
    except StoreError as exc:
        print(f"tokdrill config: {exc}\n{exc.advice}", file=sys.stderr)
        practice.close()
        return 1
    status = practice.close()
    if status.state != "saved":
        from tokdrill.grading.report import printable

        kept = "" if status.journal is None else f"; kept in {printable(str(status.journal))}"
        where = f"{kept} and saved by the next tokdrill run" if kept else ""
        print(f"tokdrill config: not saved yet: {status.message}{where}", file=sys.stderr)
        return 1
    if args.json:
        doc: object = current if key is None else {"key": key, "value": current[key]}
        print(json.dumps(doc, indent=2))
    elif key is not None:
        print(keys.setting_text(current[key]))
    else:
        width = max(map(len, names))
        for name in names:
            default = (
                "" if current[name] == keys.DEFAULTS[name] else f"  (default {keys.setting_text(keys.DEFAULTS[name])})"
            )
            print(f"{name:<{width}}  {keys.setting_text(current[name])}{default}")
            print(f"{'':<{width}}  {keys.DESCRIPTIONS[name]}")
    return 0
