"""The screens of the app: menu, new game, table, summaries, rules, settings, help."""
