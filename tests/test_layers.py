"""The layers depend only downward: engine ← bots ← service ← app ← net/cli.

Like Harlequin's check that its core never imports Textual: a static look at every import
statement, so a stray `import textual` in the engine fails here, not in a user's bug report.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tui"

# layer -> packages it must never import
FORBIDDEN = {
    "engine": ["textual", "tui.bots", "tui.service", "tui.app", "tui.net", "tui.records",
               "tui.commands", "asyncssh"],
    "bots": ["textual", "tui.service", "tui.app", "tui.net", "tui.commands", "asyncssh"],
    "service": ["textual", "tui.app", "tui.net", "tui.commands", "asyncssh"],
    "records": ["textual", "tui.service", "tui.app", "tui.net", "tui.commands", "asyncssh"],
}


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level:
            package = ".".join(path.relative_to(PACKAGE.parent).parts[:-node.level])
            names.append(f"{package}.{node.module}" if node.module else package)
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_downward(layer: str) -> None:
    bad = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for name in imports_of(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN[layer]):
                bad.append(f"{path.relative_to(PACKAGE.parent)} imports {name}")
    assert not bad, "\n".join(bad)


def test_no_game_named_in_code() -> None:
    """Differences between games are ruleset keys, never `if name == ...` in code."""
    names = ["three_thirteen", "contract_rummy", "liverpool", "Three Thirteen", "Liverpool",
             "Contract Rummy"]
    hits = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parts[-2] == "commands":
            continue  # help texts and examples may name a bundled game
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if "example" in code:
                continue  # documentation may show a bundled game's key as an example
            if any(f'"{n}"' in code or f"'{n}'" in code for n in names):
                hits.append(f"{path.relative_to(PACKAGE.parent)}:{lineno}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_importing_the_engine_loads_no_textual() -> None:
    code = ("import sys, tui.engine.game, tui.engine.save, tui.service.table, tui.bots.arena; "
            "assert not [m for m in sys.modules if m.startswith('textual')]")
    subprocess.run([sys.executable, "-c", code], check=True)
