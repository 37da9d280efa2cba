"""The grading modules import one another in one direction only: no module reaches back, even
through a function-level import, to a module that imports it."""

from __future__ import annotations

import itertools

import pytest

grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter, a test extra")


def test_no_grading_module_imports_back_what_imports_it() -> None:
    graph = grimp.build_graph("tokdrill", exclude_type_checking_imports=True)
    modules = sorted(m for m in graph.modules if m.startswith("tokdrill.grading."))
    assert "tokdrill.grading.decide" in modules
    circles = [
        " -> ".join(graph.find_shortest_chain(importer=imported, imported=importer) or ()) + f" -> {imported}"
        for importer, imported in itertools.permutations(modules, 2)
        if graph.direct_import_exists(importer=importer, imported=imported)
        and graph.chain_exists(importer=imported, imported=importer)
    ]
    assert not circles, circles
