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


README = REPO / "README.md"
TEST_COMMAND = ("python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && "
                ".venv/bin/ruff check tui tests && .venv/bin/mypy && "
                ".venv/bin/python -m pytest -n 3 -q")


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    """The README's test command is byte for byte the one promised, and `.ci/run` runs the
    same steps in the same order (quietly, after upgrading pip)."""
    text = README.read_text(encoding="utf-8")
    assert f"```sh\n{TEST_COMMAND}\n```" in text
    ci_lines = [line.replace(" --quiet", "")
                for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                if line.startswith((".venv/", "python3"))]
    ci_steps = [line for line in ci_lines if "--upgrade pip" not in line]
    assert ci_steps == TEST_COMMAND.split(" && ")


def test_the_readme_stays_a_players_guide() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 260  # "at most about 250" (issue 33)
    for promised in ("Python 3.11", "RUMMY_HOME", "70×20", "plain letters", "four-colour",
                     "--authorized-keys", "--password", "keeps the game", "rummy --version"):
        assert promised in text, promised


def test_every_doc_the_readme_points_at_exists() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    assert len(links) >= 8
    missing = [link for link in links if not (REPO / link).is_file()]
    assert not missing, missing


def test_every_figure_in_the_performance_doc_names_a_bench_that_exists() -> None:
    """Each figure comes with its command; a bench renamed or deleted breaks this."""
    text = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    scripts = set(re.findall(r"python (tests/bench/\w+\.py)", text))
    assert len(scripts) >= 8
    missing = sorted(s for s in scripts if not (REPO / s).is_file())
    assert not missing, missing
