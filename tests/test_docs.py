"""The docs point at real things: every test `docs/rules.md` names exists, so a rule's
test cannot be renamed or deleted without its line in the rules reference."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")


def functions_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_test_the_rules_reference_names_exists() -> None:
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    refs = TEST_REF.findall(text)
    assert len(refs) > 50  # the table is read, not skipped by a broken pattern
    missing = [f"{file}::{name}" for file, name in refs
               if not (REPO / file).is_file() or name not in functions_in(REPO / file)]
    assert not missing, "\n".join(missing)
