"""Read one YAML file into plain values that remember the line each value came from.

Parsing and composing run in libyaml (``yaml.CSafeLoader``) when it is available, else in
PyYAML's pure-Python ``SafeLoader``; only the standard YAML tags are accepted (safe loading).
Instead of PyYAML's constructor, a small walker turns the composed node tree into
:class:`YamlMap` / :class:`YamlList` (a ``dict`` / ``list`` carrying 1-based line numbers) and
plain scalars. The walker is what keeps the line numbers, and it is faster than the stock
constructor. Anchors, aliases and merge keys (``<<: *base``) work as in YAML 1.1. Duplicate keys,
non-string keys, unsupported tags, bad tagged values, control characters written with escapes and
absurd nesting become :class:`ContentError`s instead of being silently accepted or raised.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any, Union

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tokdrill.content.files import UnreadableFile, read_bounded
from tokdrill.content.model import ContentError

MAX_DEPTH = 64
"""How deeply collections may nest; content needs a handful of levels."""
UNSAFE_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
"""Characters content text may not hold: C0/C1 controls (bar tab and line breaks) and lone surrogates."""
_UNSAFE_MESSAGE = "holds a control character or an unpaired surrogate (from an escape such as \\e or \\x1b)"

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_FLOAT = "tag:yaml.org,2002:float"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP = "tag:yaml.org,2002:map"
_MERGE = "tag:yaml.org,2002:merge"
_SEQ = "tag:yaml.org,2002:seq"
_SCALAR_BUILDERS = {
    _INT: "construct_yaml_int",
    _BOOL: "construct_yaml_bool",
    _NULL: "construct_yaml_null",
    _FLOAT: "construct_yaml_float",
    _TIMESTAMP: "construct_yaml_timestamp",
}


_PLAIN_TAGS: dict[str, str] = {}
_PLAIN_CACHE_LIMIT = 50_000


class _Loader(_BaseLoader):  # type: ignore[misc]
    """The safe loader with a faster tag resolver.

    Same tags as PyYAML's: quoted and block scalars are strings, plain ones go through the
    standard implicit resolvers once per distinct short value (keys repeat a lot), and path
    resolvers (never used here) are skipped.
    """

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode:
            if not implicit[0]:
                return _STR
            tag = _PLAIN_TAGS.get(value)
            if tag is None:
                tag = yaml.resolver.BaseResolver.resolve(self, kind, value, implicit)  # type: ignore[no-untyped-call]
                if len(value) <= 40 and len(_PLAIN_TAGS) < _PLAIN_CACHE_LIMIT:
                    _PLAIN_TAGS[value] = tag
            return tag
        return _SEQ if kind is SequenceNode else _MAP

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


class _Invalid:
    """Stands for a value the walker could not build (its error is already recorded)."""

    def __repr__(self) -> str:
        return "INVALID"


INVALID = _Invalid()

YamlValue = Union[str, int, float, bool, None, date, "YamlMap", "YamlList", _Invalid]
"""What a YAML value becomes: a scalar (dates for YAML timestamps), a mapping, a list, or
:data:`INVALID` for a value whose problem is already reported."""


class YamlMap(dict[str, YamlValue]):
    """A mapping from the file: ``line`` is where it starts, ``key_lines``/``value_lines`` per key.

    ``broken`` is True when the reader already reported a key problem here (a repeated or
    non-string key): the item it holds must not be used.
    """

    __slots__ = ("broken", "key_lines", "line", "value_lines")

    def __init__(self, line: int) -> None:
        super().__init__()
        self.line = line
        self.key_lines: dict[str, int] = {}
        self.value_lines: dict[str, int] = {}
        self.broken = False

    def list_lines(self, key: str) -> list[int]:
        """The line of each item of the list under ``key`` (``[]`` when it holds no list)."""
        value = self.get(key)
        return value.item_lines if isinstance(value, YamlList) else []


class YamlList(list[YamlValue]):
    """A sequence from the file: ``line`` is where it starts, ``item_lines`` per item."""

    __slots__ = ("item_lines", "line")

    def __init__(self, line: int) -> None:
        super().__init__()
        self.line = line
        self.item_lines: list[int] = []


def _join(parent: str, name: str | int) -> str:
    if isinstance(name, int):
        return f"{parent or 'item'}[{name}]"
    return f"{parent}.{name}" if parent else name


class _Walker:
    """Turns a composed node tree into YamlMap/YamlList/scalars, collecting errors.

    Field names (``cards[3].answer``) are only built for collections and errors: the common case,
    a string scalar, costs one attribute check (two when it is double-quoted, the only style in
    which escapes can write control characters).
    """

    def __init__(self, path: Path, loader: Any) -> None:
        self.path = path
        self.loader = loader
        self.errors: list[ContentError] = []
        self.memo: dict[int, YamlValue] = {}
        self.depth = 0

    def error(self, line: int, field: str, message: str) -> None:
        """Record a problem; the document itself (no field) is called ``file``."""
        self.errors.append(ContentError(self.path, line, field or "file", message))

    def build(self, node: Node, parent: str, name: str | int) -> YamlValue:
        cls = type(node)
        if type(node) is ScalarNode:
            if node.tag == _STR:
                return node.value if node.style != '"' else self._quoted(node, parent, name)
            return self._scalar(node, _join(parent, name))
        key = id(node)
        if key in self.memo:  # an alias: share the value (and never loop on a cycle)
            return self.memo[key]
        field = _join(parent, name) if name != "" else parent
        line = node.start_mark.line + 1
        if self.depth >= MAX_DEPTH:
            self.error(line, field or "yaml", f"nested more than {MAX_DEPTH} levels deep")
            self.memo[key] = INVALID
            return INVALID
        self.depth += 1
        try:
            if cls is MappingNode and node.tag == _MAP:
                return self._mapping(node, key, field, line)
            if cls is SequenceNode and node.tag == _SEQ:
                items = YamlList(line)
                self.memo[key] = items
                lines = items.item_lines
                for index, item in enumerate(node.value):
                    items.append(self.build(item, field, index))
                    lines.append(item.start_mark.line + 1)
                return items
        finally:
            self.depth -= 1
        self.error(line, field, f"unsupported YAML tag {node.tag}")
        return INVALID

    def _mapping(self, node: Node, key: int, field: str, line: int) -> YamlMap:
        mapping = YamlMap(line)
        self.memo[key] = mapping
        key_lines, value_lines = mapping.key_lines, mapping.value_lines
        merges: list[tuple[Node, int]] = []
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if key_node.__class__ is ScalarNode and key_node.tag == _MERGE:
                merges.append((value_node, key_line))
                continue
            if key_node.__class__ is not ScalarNode or key_node.tag != _STR:
                shown = _short(key_node.value) if key_node.__class__ is ScalarNode else "a collection"
                self.error(key_line, field or "key", f"keys must be plain names, got {shown}")
                mapping.broken = True
                continue
            entry = key_node.value
            if key_node.style == '"' and UNSAFE_TEXT.search(entry):
                self.error(key_line, field or "key", f"key {_short(entry)} {_UNSAFE_MESSAGE}")
                mapping.broken = True
                continue
            if entry in mapping:
                self.error(key_line, _join(field, entry), f"duplicate key (first given on line {key_lines[entry]})")
                mapping.broken = True
                continue
            if value_node.__class__ is ScalarNode and value_node.tag == _STR and value_node.style != '"':
                mapping[entry] = value_node.value
            else:
                mapping[entry] = self.build(value_node, field, entry)
            key_lines[entry] = key_line
            value_lines[entry] = value_node.start_mark.line + 1
        for value_node, key_line in merges:
            self._merge(mapping, value_node, key_line, field)
        return mapping

    def _merge(self, mapping: YamlMap, value_node: Node, key_line: int, field: str) -> None:
        """``<<: *base`` (or a list of them): the keys of each merged mapping that ``mapping``
        does not set itself, earlier merges first, with the lines where the merged keys are."""
        merged = self.build(value_node, field, "<<")
        sources = merged if isinstance(merged, YamlList) else [merged]
        for source in sources:
            if source is INVALID:
                mapping.broken = True
                continue
            if not isinstance(source, YamlMap):
                self.error(key_line, _join(field, "<<"), "`<<` merges a mapping, or a list of mappings, into this one")
                mapping.broken = True
                continue
            mapping.broken = mapping.broken or source.broken
            for entry, value in list(source.items()):
                if entry not in mapping:
                    mapping[entry] = value
                    mapping.key_lines[entry] = source.key_lines[entry]
                    mapping.value_lines[entry] = source.value_lines[entry]

    def _quoted(self, node: Node, parent: str, name: str | int) -> YamlValue:
        value: str = node.value
        if UNSAFE_TEXT.search(value) is None:
            return value
        self.error(node.start_mark.line + 1, _join(parent, name) or "yaml", f"text {_UNSAFE_MESSAGE}")
        return INVALID

    def _scalar(self, node: Node, field: str) -> YamlValue:
        tag = node.tag
        method = _SCALAR_BUILDERS.get(tag)
        if method is None:
            self.error(node.start_mark.line + 1, field, f"unsupported YAML tag {tag}")
            return INVALID
        try:
            value: YamlValue = getattr(self.loader, method)(node)
            return value
        # PyYAML's constructors fail on bad explicitly tagged values in several ways: ValueError
        # (an impossible date, a huge integer), KeyError (`!!bool maybe`), AttributeError
        # (`!!timestamp garbage`), OverflowError.
        except (ValueError, KeyError, AttributeError, TypeError, OverflowError, yaml.YAMLError):
            kind = tag.rsplit(":", 1)[-1]
            self.error(node.start_mark.line + 1, field, f"not a valid {kind}: {_short(node.value)}")
            return INVALID


def _short(value: object, limit: int = 60) -> str:
    """A value for an error message: its repr, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _syntax_error(path: Path, exc: yaml.MarkedYAMLError) -> ContentError:
    """The YAML's own message, at the line where the parser gave up (context line in the text)."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else 1
    message = exc.problem or "invalid YAML"
    if exc.context:
        where = ""
        if exc.context_mark is not None and exc.context_mark.line + 1 != line:
            where = f" started on line {exc.context_mark.line + 1}"
        message = f"{message} ({exc.context}{where})"
    return ContentError(path, line, "yaml", message)


def read_yaml(path: Path) -> tuple[YamlValue, list[ContentError]]:
    """Parse ``path``; return ``(value, errors)``. ``value`` is :data:`INVALID` when the file is
    unusable (the errors say why).

    Never raises for bad input: unreadable, oversized or binary files, bad encodings, YAML syntax
    errors (with the YAML's own line), several documents in one file, nesting deeper than
    :data:`MAX_DEPTH` and unsupported tags all come back as errors.
    """
    try:
        text = read_bounded(path)
    except UnreadableFile as exc:
        return INVALID, [ContentError(path, 1, "file", str(exc))]
    loader: Any = None
    try:
        loader = _Loader(text)
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        return INVALID, [_syntax_error(path, exc)]
    except yaml.YAMLError as exc:  # e.g. bad encoding
        lines = str(exc).strip().splitlines()
        return INVALID, [ContentError(path, 1, "yaml", lines[0] if lines else "not readable as YAML")]
    except RecursionError:  # the pure-Python parser on deep nesting (libyaml stops at a depth limit)
        return INVALID, [ContentError(path, 1, "yaml", f"nested more than {MAX_DEPTH} levels deep")]
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        return INVALID, [ContentError(path, 1, "file", "the file is empty")]
    walker = _Walker(path, loader)
    value = walker.build(node, "", "")
    return value, walker.errors
