"""The layers depend only downward, and no module reaches into another's private names.

    engine  ←  bots  ←  service  ←  app  ←  net, commands (cli)
    engine  ←  records  ←  service, app, commands

Like Harlequin's check that its core never imports Textual: a static look at every import
statement (those inside functions and under TYPE_CHECKING too), so a stray `import textual`
in the engine, an import cycle or a `from .x import _private` fails here, not in review.
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
    "app": ["tui.net", "tui.commands", "asyncssh"],
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_from(path: Path, node: ast.ImportFrom) -> str:
    """The absolute name of the module an `ImportFrom` reads from."""
    if not node.level:
        return node.module or ""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    package = package[:len(package) - node.level + 1]
    return ".".join(package + ([node.module] if node.module else []))


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.append(imported_from(path, node))
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


def _modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports, wherever in the file the import stands."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom):
                base = imported_from(path, node)
                for alias in node.names:
                    if f"{base}.{alias.name}" in modules:
                        deps.add(f"{base}.{alias.name}")
                    elif base in modules:
                        deps.add(base)
        deps.discard(name)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for dep in sorted(graph[node]):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles() -> None:
    """Screens hand results back with `dismiss()` instead of importing their opener; a
    cycle hidden in a function-level import is still a cycle."""
    assert not cycles(import_graph())


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_across_modules() -> None:
    """A name with a leading underscore belongs to its module: whoever needs it elsewhere
    makes it public (and so part of the module's face) first."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        bad.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: "
                                   f"{alias.name} from {imported_from(path, node)}")
    assert not bad, "\n".join(bad)
