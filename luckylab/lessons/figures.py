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

__all__ = [
    "END",
    "START",
    "Figure",
    "alt_text",
    "describe_figures",
    "guide_section",
    "is_figure",
    "lesson_figures",
    "update_guide",
]

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
            following.source.lstrip().startswith("*Figure:")
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


#: The markers around the guide's figure descriptions (regenerated, never edited by hand).
START = ("<!-- figure descriptions: start (python -m luckylab.lessons.figures notebooks/ "
         "--guide docs/teaching.md) -->")
END = "<!-- figure descriptions: end -->"


def guide_section(text: str) -> str | None:
    """The figure descriptions kept in a guide's text between :data:`START` and :data:`END`."""
    if START not in text or END not in text:
        return None
    return text.split(START, 1)[1].split(END, 1)[0].strip("\n") + "\n"


def update_guide(folder: str | Path, guide: str | Path) -> bool:
    """Write :func:`describe_figures` of ``folder`` between the markers in ``guide``.

    Returns whether the file changed. Raises :class:`~luckylab.errors.LessonError` when the
    guide has no markers.
    """
    from ..errors import LessonError

    path = Path(guide)
    text = path.read_text(encoding="utf-8")
    if guide_section(text) is None:
        raise LessonError(f"{path}: no figure descriptions section; add the two lines\n{START}\n"
                          f"{END}\nwhere it should go")
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    new = f"{before}{START}\n\n{describe_figures(folder)}\n{END}{after}"
    if new == text:
        return False
    path.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    """``python -m luckylab.lessons.figures FOLDER [--guide FILE]``: print or update."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m luckylab.lessons.figures",
                                     description="Each lesson figure's caption and alt text.")
    parser.add_argument("folder", help="the lessons folder (notebooks/)")
    parser.add_argument("--guide", help="update this guide's figure descriptions section")
    args = parser.parse_args(argv)
    if args.guide:
        changed = update_guide(args.folder, args.guide)
        print(f"{args.guide}: {'updated' if changed else 'already up to date'}")
    else:
        print(describe_figures(args.folder), end="")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
