"""The bundled rulesets, installed as package data of `tui.rulesets` (see pyproject.toml).

This folder holds YAML files for players to read; this file only makes it a package.
"""
