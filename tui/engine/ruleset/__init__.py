"""Rulesets as files: YAML loading with located errors, the schema, the checks, `extends`,
the plain-English rules text and the generated key reference."""
