"""The content formats in docs/content.md are true: every YAML example there loads cleanly."""

from __future__ import annotations

import re
from pathlib import Path

from content_helpers import load_only

DOC = Path(__file__).resolve().parents[2] / "docs" / "content.md"
BLOCK = re.compile(r"```yaml\n(.*?)```", re.DOTALL)


def test_every_yaml_example_in_the_content_guide_is_valid_content(tmp_path: Path) -> None:
    blocks = BLOCK.findall(DOC.read_text(encoding="utf-8"))
    assert len(blocks) == 3  # drill, deck, concepts
    for index, block in enumerate(blocks):
        (tmp_path / f"example-{index}.yaml").write_text(block, encoding="utf-8")
    # the guide's hidden test example, in hidden/ beside the drill (found before the shipped one)
    example = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert example is not None
    (tmp_path / "hidden").mkdir()
    (tmp_path / "hidden" / "test_bpe_train.py").write_text("import pytest\n\n" + example[1], encoding="utf-8")
    library = load_only(tmp_path)
    assert [str(e) for e in library.errors] == []
    assert list(library.drills) == ["bpe-train"] and list(library.decks) == ["bpe-core"]
    card = library.card("bpe-why-rank-order")
    assert card.concepts == ("merge-order",) and card.key_points[0] == "rank order | learned order"
    drill = library.drill("bpe-train")
    assert drill.references[0].year == 2016
    assert drill.concepts_of("test_bpe_train.py::test_merges_follow_rank_order_not_frequency") == ("merge-order",)
