"""``tokenizer.json`` files already in the local Hugging Face cache (nothing is ever downloaded)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

# A cache with more models than this is listed in part (the playground offers a short list).
MAX_LISTED = 200


@dataclass(frozen=True, slots=True)
class CachedTokenizer:
    """A model's tokenizer.json in the hub cache, named ``ORG/NAME`` as on the hub."""

    name: str
    path: Path


@dataclass(frozen=True, slots=True)
class CacheScan:
    """What a look into the cache found, and the folders it could not read."""

    tokenizers: list[CachedTokenizer]
    unreadable: list[str] = field(default_factory=list)


def cache_roots() -> list[Path]:
    """Where the hub cache may be, in the order ``huggingface_hub`` itself looks."""
    roots: list[Path] = []
    if os.environ.get("HF_HUB_CACHE"):
        roots.append(Path(os.environ["HF_HUB_CACHE"]))
    if os.environ.get("HF_HOME"):
        roots.append(Path(os.environ["HF_HOME"]) / "hub")
    xdg = os.environ.get("XDG_CACHE_HOME")
    roots.append((Path(xdg) if xdg else Path.home() / ".cache") / "huggingface" / "hub")
    unique: list[Path] = []
    for root in roots:
        if root not in unique:
            unique.append(root)
    return unique


def find_cached() -> CacheScan:
    """Every ``models--ORG--NAME/snapshots/*/tokenizer.json`` under the cache roots."""
    found: dict[str, CachedTokenizer] = {}
    unreadable: list[str] = []
    for root in cache_roots():
        try:
            models = sorted(p for p in root.iterdir() if p.name.startswith("models--"))
        except FileNotFoundError:
            continue
        except OSError as exc:
            unreadable.append(f"{root}: {exc.strerror or exc}")
            continue
        for model in models:
            name = model.name[len("models--") :].replace("--", "/")
            if name in found or len(found) >= MAX_LISTED:
                continue
            try:
                snapshots = sorted((model / "snapshots").iterdir(), key=_mtime, reverse=True)
            except FileNotFoundError:
                continue
            except OSError as exc:
                unreadable.append(f"{model}: {exc.strerror or exc}")
                continue
            for snapshot in snapshots:
                candidate = snapshot / "tokenizer.json"
                if candidate.is_file():
                    found[name] = CachedTokenizer(name, candidate)
                    break
    return CacheScan(sorted(found.values(), key=lambda c: c.name), unreadable)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
