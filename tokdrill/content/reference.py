"""The reference code a drill shows in retype mode, read from ``reference_impl``'s own files.

One source of truth: drills name symbols, and the text comes from the reference package's source
files (read as text and located with :mod:`ast`), never from a copy in YAML. Names are resolved
on the imported package (``__all__``, and a class's MRO for ``Class.method``) so the check
matches what the grader sees; the text is cut from the files with ``ast`` line numbers.

Shape of :func:`reference_source`'s result: first the import lines the shown code needs (taken
from the reference files, limited to the names the code uses, so the text runs as typed); then a
function (or a whole class, or a constant) is its
full source; ``Class.method`` symbols become one ``class Name:`` block per class, holding the
class docstring (if any) and only the named methods, in symbol order. Blocks are separated by two
blank lines.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
import textwrap
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from types import ModuleType

from msgspec import Struct

REFERENCE_PACKAGE = "reference_impl"
SYMBOL_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")
_MAX_IMPORT_HOPS = 8


class SymbolError(LookupError):
    """A drill symbol that the reference package does not provide (message says why)."""


class _Parsed(Struct, frozen=True):
    lines: tuple[str, ...]
    tree: ast.Module


PARSED_KEPT = 2
"""Syntax trees kept at once: a symbol reads its package's ``__init__.py`` and the file that
defines it; a tree weighs far more than its file, so checking every drill never holds them all."""


@lru_cache(maxsize=PARSED_KEPT)
def _parse(path: str) -> _Parsed:
    text = Path(path).read_text(encoding="utf-8")
    return _Parsed(tuple(text.splitlines()), ast.parse(text, filename=path))


@cache
def _import(package: str) -> ModuleType:
    try:
        return importlib.import_module(package)
    except Exception as exc:  # noqa: BLE001 - any failure of the reference is reported, not raised
        raise SymbolError(f"cannot import {package}: {type(exc).__name__}: {exc}") from None


def release_parsed() -> None:
    """Drop the parsed reference files. Their syntax trees weigh more than every text cut from
    them, and once a drill's text is built nothing reads them again (a later call parses anew)."""
    _parse.cache_clear()


def clear_caches() -> None:
    """Forget parsed files, imported packages and extracted snippets (for tests and reloads)."""
    _parse.cache_clear()
    _import.cache_clear()
    _snippet.cache_clear()
    _reference_source.cache_clear()
    symbol_problem.cache_clear()


def _node_name(node: ast.stmt) -> list[str]:
    """The top-level names a statement defines."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    type_alias = getattr(ast, "TypeAlias", None)
    if type_alias is not None and isinstance(node, type_alias):
        return [node.name.id]
    return []


def _module_file(module_name: str) -> Path | None:
    module = sys.modules.get(module_name)
    file = getattr(module, "__file__", None)
    return Path(file) if file else None


def _find_definition(module_name: str, name: str) -> tuple[Path, ast.stmt] | None:
    """Follow ``from x import name`` chains from ``module_name`` to the statement defining ``name``."""
    for _ in range(_MAX_IMPORT_HOPS):
        path = _module_file(module_name)
        if path is None or path.suffix != ".py":
            return None
        parsed = _parse(str(path))
        next_hop: tuple[str, str] | None = None
        for node in parsed.tree.body:
            if name in _node_name(node):
                return path, node
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        next_hop = (_absolute(module_name, path, node), alias.name)
        if next_hop is None:
            return None
        module_name, name = next_hop
        if module_name not in sys.modules:
            try:
                importlib.import_module(module_name)
            except Exception:  # noqa: BLE001
                return None
    return None


def _absolute(module_name: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module_name if path.name == "__init__.py" else module_name.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _class_node(cls: type) -> tuple[Path, ast.ClassDef] | None:
    """The ``class`` statement that defines ``cls`` (nested classes included)."""
    path = _module_file(cls.__module__)
    if path is None or path.suffix != ".py" or "<" in cls.__qualname__:
        return None
    body: list[ast.stmt] = _parse(str(path)).tree.body
    found: ast.ClassDef | None = None
    for part in cls.__qualname__.split("."):
        found = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if found is None:
            return None
        body = found.body
    return (path, found) if found is not None else None


def _text(path: Path, node: ast.stmt | ast.expr) -> str:
    """The statement's source lines, decorators included, dedented."""
    lines = _parse(str(path)).lines
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
    end = node.end_lineno or node.lineno
    return textwrap.dedent("\n".join(lines[start - 1 : end]))


def _docstring_node(cls_node: ast.ClassDef) -> ast.stmt | None:
    first = cls_node.body[0] if cls_node.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first
    return None


def _resolve(package: str, symbol: str) -> tuple[ModuleType, object]:
    if not SYMBOL_PATTERN.fullmatch(symbol):
        raise SymbolError("not a symbol name (expected `name` or `Class.method`)")
    module = _import(package)
    top, _, method = symbol.partition(".")
    public = getattr(module, "__all__", None)
    if public is None or top not in public or not hasattr(module, top):
        raise SymbolError(f"`{top}` is not in {package}.__all__")
    value = getattr(module, top)
    if method:
        if not isinstance(value, type):
            raise SymbolError(f"`{top}` is not a class, so `{symbol}` cannot name a method")
        if _defining_class(value, method) is None:
            raise SymbolError(f"class `{top}` has no method `{method}`")
    return module, value


def _defining_class(cls: type, method: str) -> type | None:
    for klass in cls.__mro__:
        if klass is object:
            return None
        if method in vars(klass):
            return klass
    return None


@cache
def _snippet(package: str, symbol: str) -> tuple[str, str, Path]:
    """``(block key, text, file)`` for one symbol: a top-level definition, or one method's text."""
    module, value = _resolve(package, symbol)
    top, _, method = symbol.partition(".")
    if method:
        assert isinstance(value, type)
        owner = _defining_class(value, method)
        located = _class_node(owner) if owner is not None else None
        node = None
        if located is not None:
            node = next(
                (n for n in located[1].body if method in _node_name(n)),
                None,
            )
        if located is None or node is None:
            raise SymbolError(f"no source found for `{symbol}` in {package}")
        return top, _text(located[0], node), located[0]
    if callable(value):
        qualname = getattr(value, "__qualname__", "")
        home = getattr(value, "__module__", None)
        if home and qualname and "." not in qualname and "<" not in qualname:
            found = _find_definition(home, qualname)
            if found is not None:
                return symbol, _text(*found), found[0]
    found = _find_definition(module.__name__, top)
    if found is None:
        raise SymbolError(f"no source found for `{symbol}` in {package}")
    return symbol, _text(*found), found[0]


@lru_cache(maxsize=4096)
def symbol_problem(symbol: str, package: str = REFERENCE_PACKAGE) -> str | None:
    """Why ``symbol`` is not a usable drill symbol (None when it is).

    Usable: ``name`` in the package's ``__all__``, or ``Class.method`` where the class is there
    and defines (or inherits from a non-builtin base) that method, and its source can be found.
    """
    try:
        _snippet(package, symbol)
    except SymbolError as exc:
        return str(exc)
    except (OSError, SyntaxError, UnicodeDecodeError) as exc:
        return f"cannot read the source of {package}: {exc}"
    return None


def _class_block(package: str, cls_name: str, methods: list[str]) -> str:
    """``class Name:``, the class docstring if it has one, then ``methods`` (dedented texts)."""
    cls = getattr(_import(package), cls_name)
    head = [f"class {cls_name}:"]
    located = _class_node(cls)
    doc = _docstring_node(located[1]) if located is not None else None
    if located is not None and doc is not None:
        head.append(_indent(_text(located[0], doc)) + "\n")
    body = "\n\n".join(_indent(text) for text in methods)
    return "\n".join(head) + "\n" + body


def _indent(text: str) -> str:
    return textwrap.indent(text, "    ", lambda line: bool(line.strip()))


def reference_source(symbols: Sequence[str], package: str = REFERENCE_PACKAGE) -> str:
    """The retype text for a drill's ``symbols`` (see the module docstring for its shape).

    Raises :class:`SymbolError` for a symbol the package does not provide; the loader has
    already rejected such drills, so for a loaded drill this does not happen.
    """
    try:
        return _reference_source(tuple(symbols), package)
    finally:
        release_parsed()


@lru_cache(maxsize=1024)
def _reference_source(symbols: tuple[str, ...], package: str) -> str:
    blocks: dict[str, list[str]] = {}
    files: list[Path] = []
    for symbol in symbols:
        key, text, path = _snippet(package, symbol)
        if path not in files:
            files.append(path)
        if key == symbol:
            blocks.setdefault(symbol, []).append(text)
        else:
            methods = blocks.setdefault(f"{key}.", [])
            if text not in methods:
                methods.append(text)
    rendered: list[str] = []
    for key, texts in blocks.items():
        if not key.endswith("."):
            rendered.append(texts[0])
            continue
        rendered.append(_class_block(package, key[:-1], texts))
    imports = _imports_needed(files, "\n\n".join(rendered), package)
    if imports:
        rendered.insert(0, "\n".join(imports))
    return "\n\n\n".join(rendered) + "\n"


def _names_used(code: str) -> set[str]:
    """Every bare name the code reads (attribute roots included)."""
    return {n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name)}


def _imports_needed(files: Sequence[Path], code: str, package: str) -> list[str]:
    """Import lines from ``files`` that bind names ``code`` uses, trimmed to those names.

    ``from __future__`` lines and imports from the reference package itself are left out: a
    submission's namespace already holds the reference's public names.
    """
    used = _names_used(code)
    lines: list[str] = []
    for path in files:
        for node in _parse(str(path)).tree.body:
            if isinstance(node, ast.Import):
                names = [a for a in node.names if (a.asname or a.name.split(".")[0]) in used]
                line = "import " + ", ".join(_alias(a) for a in names) if names else ""
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level or module == "__future__" or module.split(".")[0] == package:
                    continue
                names = [a for a in node.names if (a.asname or a.name) in used]
                line = f"from {module} import " + ", ".join(_alias(a) for a in names) if names else ""
            else:
                continue
            if line and line not in lines:
                lines.append(line)
    return lines


def _alias(alias: ast.alias) -> str:
    return f"{alias.name} as {alias.asname}" if alias.asname else alias.name
