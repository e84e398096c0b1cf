"""Rulesets as files: YAML loading with located errors, the schema, the checks, `extends`,
the plain-English rules text and the generated key reference.

This is its face: the rest of the code base (app, commands, service, records, saves)
imports only these names.
"""

from .differences import describe_differences, extended_ruleset
from .dump import standalone_yaml
from .errors import LocatedError, RulesetError
from .files import NewRulesetError, free_name, new_ruleset_file, schema_json
from .live import LiveCheck, check_text, save_checked
from .loader import (
    bundled_rulesets_dir,
    list_rulesets,
    load_ruleset,
    load_ruleset_text,
    ruleset_paths,
    ruleset_warnings,
)
from .reference import reference_markdown
from .text import describe_rules

__all__ = [
    "LiveCheck",
    "LocatedError",
    "NewRulesetError",
    "RulesetError",
    "bundled_rulesets_dir",
    "check_text",
    "describe_differences",
    "describe_rules",
    "extended_ruleset",
    "free_name",
    "list_rulesets",
    "load_ruleset",
    "load_ruleset_text",
    "new_ruleset_file",
    "reference_markdown",
    "ruleset_paths",
    "ruleset_warnings",
    "save_checked",
    "schema_json",
    "standalone_yaml",
]
