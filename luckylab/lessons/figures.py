"""The figures of the lessons and their alt text, for the style check and the teacher's guide.

A figure is an output with an image, or an HTML ``<img>`` (what :func:`luckylab.viz.show`
displays). Its alt text is read from the output's metadata (``"alt"``) or the ``alt``
attribute of its ``<img>``; a bare ``image/png`` has none.

:func:`describe_figures` turns a lessons folder into the "Figure descriptions" section of the
teacher's guide: for every lesson, each figure's caption and alt text, so a teacher can read a
figure out to a student who cannot see it.

>>> from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
>>> nb = new_notebook(cells=[
...     new_code_cell("show(fig, alt)", outputs=[new_output("display_data",
...         {"text/html": '<img alt="Bars of 3 and 5." src="data:image/png;base64,AA"/>'},
...         metadata={"alt": "Bars of 3 and 5."})]),
...     new_markdown_cell("*Figure:* two bars."),
...     new_code_cell("plt.plot()", outputs=[new_output("display_data", {"image/png": "AA"})])])
>>> [(f.cell, f.alt, f.caption) for f in lesson_figures(nb)]
[(0, 'Bars of 3 and 5.', '*Figure:* two bars.'), (2, None, None)]
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .notebook import lesson_paths, read_notebook

__all__ = ["Figure", "alt_text", "describe_figures", "is_figure", "lesson_figures"]

_ALT = re.compile(r'<img\b[^>]*\balt="([^"]*)"')


@dataclass(frozen=True)
class Figure:
    """One figure of a lesson: its code cell, its alt text (None when it has none), its caption."""

    cell: int
    alt: str | None
    caption: str | None


def _html(output: Any) -> str:
    value = output.get("data", {}).get("text/html", "")
    return "".join(value) if isinstance(value, list) else str(value)


def is_figure(output: Any) -> bool:
    """Whether an output is a figure: an image, or an HTML ``<img>``."""
    data = output.get("data", {})
    return any(k.startswith("image/") for k in data) or _html(output).lstrip().startswith("<img")


def alt_text(output: Any) -> str | None:
    """A figure output's alt text (its metadata's ``alt`` or its ``<img alt>``), or None."""
    alt = output.get("metadata", {}).get("alt")
    if isinstance(alt, str) and alt.strip():
        return alt
    match = _ALT.search(_html(output))
    if match and match[1].strip():
        return html.unescape(match[1])
    return None


def lesson_figures(nb: Any) -> list[Figure]:
    """Every figure of a notebook, in order, with its alt text and the caption under it."""
    figures = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        following = nb.cells[index + 1] if index + 1 < len(nb.cells) else None
        caption = None
        if following is not None and following.cell_type == "markdown" and (
            following.source.lstrip().startswith("*Figure")
        ):
            caption = following.source.strip()
        for output in cell.get("outputs", []):
            if is_figure(output):
                figures.append(Figure(index, alt_text(output), caption))
    return figures


def describe_figures(folder: str | Path) -> str:
    """The guide's "Figure descriptions" text for every lesson in ``folder`` (markdown)."""
    lines = []
    for path in lesson_paths(folder):
        figures = lesson_figures(read_notebook(path))
        if not figures:
            continue
        lines.append(f"**{path.name}**")
        lines.append("")
        for number, figure in enumerate(figures, start=1):
            caption = (figure.caption or "").strip("*").removeprefix("Figure:").strip(" *")
            lines.append(f"{number}. {caption} *Alt text:* {figure.alt or '(none)'}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
