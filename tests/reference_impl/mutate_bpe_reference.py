"""Mutation run over the BPE-family reference modules, graded by their drills' hidden tests.

Run by hand (not collected by pytest; it takes a few minutes):

    PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 python tests/reference_impl/mutate_bpe_reference.py [OUT.json]

Each mutant changes one AST node of one module (comparison flipped, ``+``/``-``/``*`` swapped,
an integer constant plus one, ``min``/``max`` swapped, ``and``/``or`` swapped, a ``not``
dropped, a key string literal altered, or an assignment or expression statement deleted). The mutant module is built like a submission (over the
reference namespace) and graded as ``impl`` while ``ref`` stays the real reference, so the
differential tests count. A mutant running longer than 5 s counts as killed, as the sandbox's
timeout would fail it. Survivors are printed with their changed line; judge each by hand
(equivalent or a gap in the tests).
"""

from __future__ import annotations

import ast
import contextlib
import copy
import gc
import io
import json
import signal
import sys
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HIDDEN = REPO / "drills" / "hidden"
MODULE_TESTS = {
    "bpe.py": ["test_bpe_train.py", "test_bpe_encode.py", "test_bpe_full.py"],
    "byte_level.py": ["test_bytes_to_unicode.py", "test_byte_level_bpe.py"],
    "dropout.py": ["test_bpe_dropout.py"],
    "tiktoken_ranks.py": ["test_tiktoken_ranks.py"],
}
SWAP_CMP = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add}
KEY_STRINGS = {"</w>", "<unk>", "utf-8", "replace"}


class MutantTimeout(Exception):
    """Raised by the alarm when a mutant runs too long."""


def mutation_kind(node: ast.AST) -> str | None:
    if isinstance(node, ast.Compare) and type(node.ops[0]) in SWAP_CMP:
        return "flip comparison"
    if isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
        return "swap operator"
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return "integer + 1"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
        return "swap min/max"
    if isinstance(node, ast.BoolOp):
        return "swap and/or"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return "drop not"
    if isinstance(node, ast.Constant) and node.value in KEY_STRINGS:
        return "alter string"
    if isinstance(node, ast.Assign | ast.AugAssign | ast.Expr) and not _is_docstring(node):
        return "delete statement"
    return None


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


class _Mutator(ast.NodeTransformer):
    """Applies the mutation to the node with walk index ``target`` (indexes of the original tree)."""

    def __init__(self, target: int, order: dict[int, int]) -> None:
        self.target, self.order = target, order

    def visit(self, node: ast.AST) -> ast.AST:
        node = self.generic_visit(node)
        if self.order.get(id(node)) != self.target:
            return node
        if isinstance(node, ast.Compare):
            node.ops[0] = SWAP_CMP[type(node.ops[0])]()
        elif isinstance(node, ast.BinOp):
            node.op = SWAP_BIN[type(node.op)]()
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            node.value += 1
        elif isinstance(node, ast.Call):
            node.func.id = "max" if node.func.id == "min" else "min"  # type: ignore[attr-defined]
        elif isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif isinstance(node, ast.UnaryOp):
            return node.operand
        elif isinstance(node, ast.Constant):
            node.value = node.value + "x"
        else:  # a statement
            return ast.Pass()
        return node


def mutants(source: str):
    """Yield ``(line, kind, mutated source)`` for every mutation site of ``source``."""
    tree = ast.parse(source)
    for index, node in enumerate(ast.walk(tree)):
        kind = mutation_kind(node)
        if kind is None:
            continue
        copy_tree = copy.deepcopy(tree)
        order = {id(n): i for i, n in enumerate(ast.walk(copy_tree))}
        mutated = ast.fix_missing_locations(_Mutator(index, order).visit(copy_tree))
        yield getattr(node, "lineno", 0), kind, ast.unparse(mutated)


def main(out_path: str | None) -> int:
    sys.path.insert(0, str(REPO))
    from reference_impl.tiktoken_ranks import load_ranks
    from tokdrill.grading.inprocess import run_hidden_tests
    from tokdrill.grading.submission import reference_namespace

    load_ranks("cl100k_base")
    gc.collect()
    gc.freeze()

    def on_alarm(signum: int, frame: object) -> None:
        raise MutantTimeout

    signal.signal(signal.SIGALRM, on_alarm)
    results = []
    for filename, tests in MODULE_TESTS.items():
        source = (REPO / "reference_impl" / filename).read_text(encoding="utf-8")
        original_lines = set(ast.unparse(ast.parse(source)).splitlines())
        files = [HIDDEN / t for t in tests]
        for line, kind, mutated in mutants(source):
            module = types.ModuleType("mutant")
            module.__dict__.update(reference_namespace())
            signal.alarm(5)
            try:
                exec(compile(mutated, "mutant.py", "exec"), module.__dict__)  # noqa: S102
                with contextlib.redirect_stdout(io.StringIO()):
                    outcome, errors = run_hidden_tests(files, module, ["-x", "-p", "no:unraisableexception"])
                killed = bool(errors) or any(r.outcome != "passed" for r in outcome)
            except Exception:  # noqa: BLE001 - a mutant that cannot even load, or times out, is killed
                killed = True
            finally:
                signal.alarm(0)
            changed = [ln for ln in mutated.splitlines() if ln not in original_lines]
            results.append({"file": filename, "line": line, "kind": kind, "killed": killed, "changed": changed})
            if not killed:
                print(f"SURVIVED {filename}:{line} {kind}: {' | '.join(changed)}")
    killed = sum(r["killed"] for r in results)
    print(f"{killed}/{len(results)} mutants killed")
    for filename in MODULE_TESTS:
        mine = [r for r in results if r["file"] == filename]
        print(f"  {filename}: {sum(r['killed'] for r in mine)}/{len(mine)}")
    if out_path:
        Path(out_path).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else None))
