"""A YAML text area that colours ruleset files and marks the lines holding mistakes.

Colours come from `tui.app.yaml_tokens` (no tree-sitter needed, so it looks the same over
SSH); each kind of token is a component class, so themes and TCSS can restyle it.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import TextArea

from tui.terminal_text import masked

from ..yaml_tokens import KINDS, Span, line_spans


class YamlEditor(TextArea):
    """`TextArea` for YAML: two-space indents, Tab indents, Esc leaves, mistakes marked."""

    COMPONENT_CLASSES = TextArea.COMPONENT_CLASSES | {
        *(f"yaml-editor--{kind}" for kind in KINDS),
        "yaml-editor--error-line",
        "yaml-editor--error-spot",
    }
    DEFAULT_CSS = """
    YamlEditor > .yaml-editor--key { color: $accent; text-style: bold; }
    YamlEditor > .yaml-editor--comment { color: $text-muted; text-style: italic; }
    YamlEditor > .yaml-editor--string { color: $success; }
    YamlEditor > .yaml-editor--number { color: $warning; }
    YamlEditor > .yaml-editor--constant { color: $secondary; text-style: bold; }
    YamlEditor > .yaml-editor--anchor { color: $secondary; }
    YamlEditor > .yaml-editor--punctuation { color: $text-muted; }
    YamlEditor > .yaml-editor--error-line { background: $error 25%; }
    YamlEditor > .yaml-editor--error-spot { background: $error; color: $text; }
    """

    def __init__(self, text: str = "", *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(
            text,
            id=id,
            soft_wrap=False,
            tab_behavior="indent",
            show_line_numbers=True,
        )
        self.indent_type = "spaces"  # YAML forbids tabs
        self.indent_width = 2
        self._spans: list[list[Span]] = []
        self._spans_for: str | None = None
        self._marks: dict[int, set[int]] = {}  # 0-based line -> 0-based columns

    @property
    def error_lines(self) -> set[int]:
        """0-based lines marked as holding a mistake."""
        return set(self._marks)

    def mark_errors(self, spots: list[tuple[int, int]]) -> None:
        """Mark these (line, column) spots, 1-based as in error messages; [] clears."""
        marks: dict[int, set[int]] = {}
        for line, column in spots:
            if line > 0:
                marks.setdefault(line - 1, set()).add(max(column - 1, 0))
        if marks != self._marks:
            self._marks = marks
            self.notify_style_update()  # drops the rendered-line cache
            self.refresh()

    def _current_spans(self) -> list[list[Span]]:
        text = self.text
        if text != self._spans_for:
            self._spans = line_spans(text.split("\n"))
            self._spans_for = text
        return self._spans

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"yaml-editor--{name}", partial=True)

    def get_line(self, line_index: int) -> Text:
        line = super().get_line(line_index)
        # The file is its author's text: a control character in it is drawn as a mark in
        # its place (columns stay put), never sent to the terminal.
        line.plain = masked(line.plain)
        spans = self._current_spans()
        if line_index < len(spans):
            for start, end, kind in spans[line_index]:
                line.stylize(self._style(kind), start, end)
        columns = self._marks.get(line_index)
        if columns is not None:
            line.stylize(self._style("error-line"))
            for column in columns:
                if column < len(line.plain):
                    line.stylize(self._style("error-spot"), column, column + 1)
        return line
