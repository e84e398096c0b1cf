"""`python -m tui` is the `rummy` command."""

from tui.cli import main

raise SystemExit(main())
