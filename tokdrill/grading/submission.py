"""Turn a user's source text into the module the hidden tests receive as ``impl``.

A submission defines the drill's symbols; whatever else it needs comes from the reference. The
module's namespace starts as a copy of ``reference_impl``'s public names, then the user's code
runs on top of it. For a method symbol (``Class.method``) the user may write a class holding only
those methods: the result is a class whose MRO puts the user's class before the reference's, so
the user's methods win and everything else falls back to the reference.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

SUBMISSION_FILENAME = "editor"  # what messages call code that comes from the app's editor, not a file


@dataclass(frozen=True)
class MissingSymbol:
    """A symbol the drill asks for that the submission does not define itself."""

    symbol: str
    needs: tuple[str, ...] = ()
    """For a class the submission does not define at all: the drill's methods of it."""

    def __str__(self) -> str:
        if self.needs:
            methods = [f"`{m}`" for m in self.needs]
            listed = methods[0] if len(methods) == 1 else ", ".join(methods[:-1]) + " and " + methods[-1]
            return f"`{self.symbol}` is not defined in your code (a class with {listed})"
        if "." in self.symbol:
            cls, meth = self.symbol.split(".", 1)
            return f"`{meth}` is not defined in your class `{cls}`"
        return f"`{self.symbol}` is not defined in your code"


def reference_namespace() -> dict[str, object]:
    """A fresh copy of the reference package's public names."""
    import reference_impl

    return {name: getattr(reference_impl, name) for name in reference_impl.__all__}


def _refuse_nul(source: str, filename: str) -> None:
    """Raise the SyntaxError Python raises for a NUL character, with the place it omits (and
    older Pythons raise a ValueError without one)."""
    at = source.find("\0")
    if at < 0:
        return
    start = source.rfind("\n", 0, at) + 1
    line = source.count("\n", 0, at) + 1
    raise SyntaxError("source code string cannot contain null bytes", (filename, line, at - start + 1, None))


def build_module(
    source: str, symbols: Sequence[str], filename: str = SUBMISSION_FILENAME
) -> tuple[types.ModuleType, list[MissingSymbol]]:
    """Execute ``source`` over the reference namespace and return ``(module, missing)``.

    Raises whatever the user's code raises at import time (SyntaxError included); callers turn
    that into a verdict. ``missing`` lists the drill symbols the user did not define themselves.
    ``filename`` is what tracebacks call the code (the file name the user gave, if any); the
    module is named after it as Python would name it on import, so that reprs of the user's
    objects read ``<mine.Tokenizer object ...>``.
    """
    reference = reference_namespace()
    module = types.ModuleType(PurePath(filename).stem or SUBMISSION_FILENAME)
    module.__file__ = filename
    module.__dict__.update(reference)
    _refuse_nul(source, filename)
    code = compile(source, filename, "exec", dont_inherit=True)
    exec(code, module.__dict__)
    missing: list[MissingSymbol] = []
    absent: dict[str, tuple[int, list[str]]] = {}  # a class not defined at all: its place, its methods
    classes_done: set[str] = set()
    for symbol in symbols:
        top, _, method = symbol.partition(".")
        value = module.__dict__.get(top)
        if value is None or value is reference.get(top):
            if method and top in absent:
                absent[top][1].append(method)
            elif method:
                absent[top] = (len(missing), [method])
                missing.append(MissingSymbol(top))
            else:
                missing.append(MissingSymbol(symbol))
            continue
        if not method:
            continue
        if not isinstance(value, type) or not _defines(value, method, reference.get(top)):
            missing.append(MissingSymbol(symbol))
            continue
        base = reference.get(top)
        if top not in classes_done and isinstance(base, type):
            module.__dict__[top] = _with_reference_fallback(value, base)
            classes_done.add(top)
    for top, (at, methods) in absent.items():
        missing[at] = MissingSymbol(top, tuple(methods))
    return module, missing


def _defines(cls: type, method: str, reference_cls: object) -> bool:
    """True if ``method`` is defined by the user's class or a user-written base, not the reference."""
    for klass in cls.__mro__:
        if klass is reference_cls or klass is object:
            return False
        if method in vars(klass):
            return True
    return False


def _with_reference_fallback(user_cls: type, reference_cls: type) -> type:
    """``user_cls`` with the reference class behind it in the MRO (no-op if already a subclass)."""
    if issubclass(user_cls, reference_cls):
        return user_cls
    try:
        combined = type(user_cls.__name__, (user_cls, reference_cls), {"__module__": user_cls.__module__})
    except TypeError:
        return user_cls  # incompatible layouts (e.g. __slots__): the user's class stands alone
    combined.__qualname__ = user_cls.__qualname__
    combined.__doc__ = user_cls.__doc__
    return combined
