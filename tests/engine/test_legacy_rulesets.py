"""Whatever an earlier version accepted still loads (issue 32: a move budget refused files
that an earlier version accepted and that play to the end in seconds).

`fixtures/legacy/` holds every ruleset the tests loaded at commit 685bf80 (see its README);
a check that starts refusing one of them is a broken promise to the family that wrote it.
"""

from __future__ import annotations

from pathlib import Path

from tui.engine.ruleset import RulesetError, load_ruleset_text

HERE = Path(__file__).resolve().parent
LEGACY = sorted((HERE / "fixtures" / "legacy").glob("*.yaml"))
COOKBOOK = HERE.parents[1] / "rulesets" / "cookbook"


def test_there_are_legacy_rulesets_to_check() -> None:
    assert len(LEGACY) > 200


def test_every_ruleset_an_earlier_version_accepted_still_loads() -> None:
    refused = {}
    for path in LEGACY:
        try:
            load_ruleset_text(path.read_text(encoding="utf-8"), file=path.name,
                              base_dir=COOKBOOK)
        except RulesetError as exc:
            refused[path.name] = str(exc)
    assert not refused, refused
