"""Read one YAML file into plain values that remember the line each value came from.

Parsing and composing run in libyaml (``yaml.CSafeLoader``) when it is available, else in
PyYAML's pure-Python ``SafeLoader``; only the standard YAML tags are accepted (safe loading).
Instead of PyYAML's constructor, a small walker turns the composed node tree into
:class:`YamlMap` / :class:`YamlList` (a ``dict`` / ``list`` carrying 1-based line numbers) and
plain scalars. The walker is what keeps the line numbers, and it is faster than the stock
constructor. Duplicate keys, non-string keys and unsupported tags become :class:`ContentError`s
instead of being silently accepted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tokdrill.content.model import ContentError

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_FLOAT = "tag:yaml.org,2002:float"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP = "tag:yaml.org,2002:map"
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


class YamlMap(dict[str, Any]):
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


class YamlList(list[Any]):
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
    a string scalar, costs one attribute check.
    """

    def __init__(self, path: Path, loader: Any) -> None:
        self.path = path
        self.loader = loader
        self.errors: list[ContentError] = []
        self.memo: dict[int, Any] = {}

    def error(self, line: int, field: str, message: str) -> None:
        self.errors.append(ContentError(self.path, line, field, message))

    def build(self, node: Node, parent: str, name: str | int) -> Any:
        cls = node.__class__
        if cls is ScalarNode:
            tag = node.tag
            if tag == _STR:
                return node.value
            return self._scalar(node, _join(parent, name))
        key = id(node)
        if key in self.memo:  # an alias: share the value (and never loop on a cycle)
            return self.memo[key]
        field = _join(parent, name) if name != "" else parent
        line = node.start_mark.line + 1
        if cls is MappingNode and node.tag == _MAP:
            mapping = YamlMap(line)
            self.memo[key] = mapping
            key_lines, value_lines = mapping.key_lines, mapping.value_lines
            for key_node, value_node in node.value:
                key_line = key_node.start_mark.line + 1
                if key_node.__class__ is not ScalarNode or key_node.tag != _STR:
                    shown = key_node.value if key_node.__class__ is ScalarNode else "a collection"
                    self.error(key_line, field or "key", f"keys must be plain names, got {shown!r}")
                    mapping.broken = True
                    continue
                entry = key_node.value
                if entry in mapping:
                    self.error(key_line, _join(field, entry), f"duplicate key (first given on line {key_lines[entry]})")
                    mapping.broken = True
                    continue
                if value_node.__class__ is ScalarNode and value_node.tag == _STR:
                    mapping[entry] = value_node.value
                else:
                    mapping[entry] = self.build(value_node, field, entry)
                key_lines[entry] = key_line
                value_lines[entry] = value_node.start_mark.line + 1
            return mapping
        if cls is SequenceNode and node.tag == _SEQ:
            items = YamlList(line)
            self.memo[key] = items
            lines = items.item_lines
            for index, item in enumerate(node.value):
                items.append(self.build(item, field, index))
                lines.append(item.start_mark.line + 1)
            return items
        self.error(line, field, f"unsupported YAML tag {node.tag}")
        return INVALID

    def _scalar(self, node: Node, field: str) -> Any:
        tag = node.tag
        method = _SCALAR_BUILDERS.get(tag)
        if method is None:
            self.error(node.start_mark.line + 1, field, f"unsupported YAML tag {tag}")
            return INVALID
        try:
            return getattr(self.loader, method)(node)
        except (ValueError, yaml.YAMLError) as exc:  # e.g. an impossible date
            self.error(node.start_mark.line + 1, field, f"bad {tag.rsplit(':', 1)[-1]} value: {exc}")
            return INVALID


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


def read_yaml(path: Path) -> tuple[Any, list[ContentError]]:
    """Parse ``path``; return ``(value, errors)``. ``value`` is None when the file is unusable.

    Never raises for bad input: unreadable files, YAML syntax errors (with the YAML's own line),
    several documents in one file, and unsupported tags all come back as errors.
    """
    try:
        text = path.read_bytes()
    except OSError as exc:
        return None, [ContentError(path, 1, "file", f"cannot read: {exc.strerror or exc}")]
    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            return None, [_syntax_error(path, exc)]
        except yaml.YAMLError as exc:  # e.g. bad encoding
            return None, [ContentError(path, 1, "yaml", str(exc).strip().splitlines()[0])]
    finally:
        loader.dispose()
    if node is None:
        return None, [ContentError(path, 1, "file", "the file is empty")]
    walker = _Walker(path, loader)
    value = walker.build(node, "", "")
    return value, walker.errors
