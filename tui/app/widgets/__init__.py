"""The widgets of the card table, one job each."""
