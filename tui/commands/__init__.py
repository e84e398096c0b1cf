"""One module per `rummy` subcommand (see `tui.cli`)."""
