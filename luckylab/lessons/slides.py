"""Slideshow metadata, so ``jupyter nbconvert --to slides`` turns a lesson into a usable deck.

Each cell gets ``metadata.slideshow.slide_type``:

- ``"slide"``: the title cell and every markdown cell that starts a ``##`` section;
- ``"subslide"``: a markdown cell starting a ``###`` part;
- ``"skip"``: cells tagged ``solution`` (never on the projector by accident);
- ``"fragment"``: cells tagged ``exercise`` (they appear under their exercise);
- ``"-"``: everything else (it joins the slide above it).

Running it twice changes nothing the second time.

>>> from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
>>> nb = new_notebook(cells=[new_markdown_cell("# 4. Title"), new_code_cell("import luckylab"),
...     new_markdown_cell("## Story\\nOnce"), new_markdown_cell("### Part"),
...     new_code_cell("answer = None", metadata={"tags": ["exercise"]}),
...     new_markdown_cell("Because.", metadata={"tags": ["solution"]})])
>>> add_slide_metadata(nb)
6
>>> [c.metadata.slideshow.slide_type for c in nb.cells]
['slide', '-', 'slide', 'subslide', 'fragment', 'skip']
>>> add_slide_metadata(nb)
0

``python -m luckylab.lessons.slides notebooks/`` writes the metadata into every lesson (only
files whose metadata changes are rewritten); ``--check`` only reports lessons that need it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .notebook import cell_tags, lesson_paths, read_notebook

if TYPE_CHECKING:
    from nbformat import NotebookNode

__all__ = ["add_slide_metadata", "slide_type", "slides_missing"]


def slide_type(cell: Any, index: int) -> str:
    """The slide type a cell should have (see the module docstring)."""
    tags = cell_tags(cell)
    if "solution" in tags:
        return "skip"
    if "exercise" in tags:
        return "fragment"
    if cell.cell_type == "markdown":
        first = cell.source.lstrip().split("\n", 1)[0]
        if index == 0 or first.startswith("## "):
            return "slide"
        if first.startswith("### "):
            return "subslide"
    return "-"


def slides_missing(nb: NotebookNode) -> list[int]:
    """Indexes of cells whose slide type is missing or not what :func:`slide_type` says."""
    return [i for i, cell in enumerate(nb.cells)
            if cell.get("metadata", {}).get("slideshow", {}).get("slide_type")
            != slide_type(cell, i)]


def add_slide_metadata(nb: NotebookNode) -> int:
    """Set every cell's slide type in place; return how many cells changed."""
    changed = slides_missing(nb)
    for index in changed:
        cell = nb.cells[index]
        slideshow = dict(cell.metadata.get("slideshow", {}))
        slideshow["slide_type"] = slide_type(cell, index)
        cell.metadata["slideshow"] = slideshow
    if changed:
        import nbformat

        nb.cells = [nbformat.from_dict(c) for c in nb.cells]
    return len(changed)


def main(argv: list[str] | None = None) -> int:
    """``python -m luckylab.lessons.slides FOLDER_OR_NOTEBOOK... [--check]``."""
    import nbformat

    parser = argparse.ArgumentParser(prog="python -m luckylab.lessons.slides",
                                     description="Add slideshow metadata to lessons.")
    parser.add_argument("paths", nargs="+", help="lessons folders or notebooks")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit with 1 if a lesson needs new metadata")
    args = parser.parse_args(argv)
    paths: list[Path] = []
    for name in args.paths:
        path = Path(name)
        paths += lesson_paths(path) if path.is_dir() else [path]
    needed = 0
    for path in paths:
        nb = read_notebook(path)
        if args.check:
            count = len(slides_missing(nb))
        else:
            count = add_slide_metadata(nb)
            if count:
                nbformat.write(nb, path)
        needed += bool(count)
        verb = "need" if args.check else "set on"
        print(f"{path}: slide types {verb} {count} cell(s)")
    return 1 if args.check and needed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
