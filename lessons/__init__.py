"""The lessons (guided deals), as package data: see `tui.service.lessons`."""
