"""Stored outputs against a fresh run: every text a lesson shows must be what it prints today.

:func:`check_outputs` executes a copy of a notebook from the top in a fresh kernel (nbclient)
and compares, cell by cell, every stored *text* output with the fresh one: stream text (stdout
and stderr), ``text/plain`` results and errors (name and message). A stale number in a stored
output, the kind a sentence of the lesson may quote, is a difference.

Not compared: cells tagged ``timing`` (they print timings) or ``nbval-ignore-output`` (their
output legitimately varies); outputs holding a widget view or an image (a figure's
``<Figure size ...>`` text goes with its image); execution counts and metadata. Memory
addresses (``0x7f3a...``) are normalised to ``0x...``, and the folders where luckylab and the
installed packages live (named by warnings) are left out, so a lesson executed in one checkout
compares equal in another.

>>> from nbformat.v4 import new_code_cell, new_notebook, new_output
>>> stored = new_notebook(cells=[new_code_cell("print(0.1 + 0.2)",
...     outputs=[new_output("stream", name="stdout", text="0.3\\n")])])
>>> fresh = new_notebook(cells=[new_code_cell("print(0.1 + 0.2)",
...     outputs=[new_output("stream", name="stdout", text="0.30000000000000004\\n")])])
>>> [d.cell for d in compare_outputs(stored, fresh)]
[0]
>>> compare_outputs(stored, stored)
[]

``python -m luckylab.lessons.outputs notebooks/04_probability_of_foiling.ipynb`` prints the
differences (exit status 1 if there are any).
"""

from __future__ import annotations

import argparse
import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .notebook import LessonError, cell_tags, read_notebook

if TYPE_CHECKING:
    from nbformat import NotebookNode

__all__ = [
    "SKIP_TAGS",
    "OutputDifference",
    "check_outputs",
    "compare_cell_outputs",
    "compare_outputs",
    "execute_fresh",
    "text_outputs",
]

SKIP_TAGS = frozenset({"timing", "nbval-ignore-output"})
"""Cells with one of these tags are not compared."""

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# Where the package and the environment live differs between machines (a warning names its file).
_SITE_PACKAGES = re.compile(r"[^\s\"'(]*[/\\]site-packages[/\\]")
_PACKAGE_PATH = re.compile(r"[^\s\"'(]*[/\\](?=luckylab[/\\])")
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_MAX_DIFF_LINES = 20


@dataclass(frozen=True, slots=True)
class OutputDifference:
    """One cell whose stored text output is not what a fresh run prints."""

    cell: int
    source: str
    diff: str

    def __str__(self) -> str:
        first = self.source.strip().splitlines()[0] if self.source.strip() else ""
        return f"cell {self.cell} ({first[:60]!r}):\n{self.diff}"


def text_outputs(cell: Any) -> list[str]:
    """The text outputs of a code cell, normalised for comparison (see the module docstring).

    Consecutive stream outputs of the same stream are joined (a kernel may split one print
    into several messages).

    >>> from nbformat.v4 import new_code_cell, new_output
    >>> cell = new_code_cell("", outputs=[new_output("stream", name="stdout", text="a\\n"),
    ...     new_output("stream", name="stdout", text="b at 0x7f00ab\\n"),
    ...     new_output("display_data", {"image/png": "iVBO", "text/plain": "<Figure>"})])
    >>> text_outputs(cell)
    ['stdout: a\\nb at 0x...\\n']
    """
    items: list[str] = []
    last_stream = None
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            name = output.get("name", "stdout")
            text = _text(output.get("text", ""))
            if last_stream == name:
                items[-1] += text
            else:
                items.append(f"{name}: {text}")
            last_stream = name
            continue
        last_stream = None
        if kind in ("execute_result", "display_data"):
            data = output.get("data", {})
            if _WIDGET_VIEW in data or any(k.startswith("image/") for k in data):
                continue
            if "text/plain" in data:
                items.append(f"{kind}: {_text(data['text/plain'])}")
        elif kind == "error":
            items.append(f"error: {output.get('ename', '')}: {output.get('evalue', '')}")
    return [_normalise(item) for item in items]


def _normalise(text: str) -> str:
    text = _ADDRESS.sub("0x...", text)
    text = _SITE_PACKAGES.sub("<site-packages>/", text)
    return _PACKAGE_PATH.sub("", text)


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _skipped(cell: Any) -> bool:
    if cell_tags(cell) & SKIP_TAGS:
        return True
    return "NBVAL_IGNORE_OUTPUT" in cell.source  # a lesson not yet moved to tags


def compare_outputs(stored: NotebookNode, fresh: NotebookNode) -> list[OutputDifference]:
    """Cells whose stored text outputs differ from the fresh run's, with a short diff each.

    The two notebooks must have the same cells (``fresh`` is ``stored`` re-executed).
    """
    if len(stored.cells) != len(fresh.cells):
        raise LessonError(f"the fresh run has {len(fresh.cells)} cells, the stored notebook "
                          f"{len(stored.cells)}: compare a notebook with its own re-execution")
    differences = []
    for index, (old, new) in enumerate(zip(stored.cells, fresh.cells, strict=True)):
        if old.cell_type != "code":
            continue
        diff = compare_cell_outputs(old, old.get("outputs", []), new.get("outputs", []))
        if diff is not None:
            differences.append(OutputDifference(index, old.source, diff))
    return differences


def compare_cell_outputs(cell: Any, stored: list, fresh: list) -> str | None:
    """A short diff when the text of ``fresh`` outputs differs from ``stored``, else None.

    ``cell`` is the stored cell (its tags say whether it is compared at all). The nbval run of
    the lessons calls this for every cell it executes (see the checkout's ``conftest.py``).

    >>> from nbformat.v4 import new_code_cell, new_output
    >>> cell = new_code_cell("print(6 * 7)")
    >>> print(compare_cell_outputs(cell, [new_output("stream", name="stdout", text="41\\n")],
    ...                            [new_output("stream", name="stdout", text="42\\n")]))
    --- stored
    +++ fresh
    @@ -1 +1 @@
    -stdout: 41
    +stdout: 42
    """
    if _skipped(cell):
        return None
    before, after = text_outputs({"outputs": stored}), text_outputs({"outputs": fresh})
    if before == after:
        return None
    lines = list(difflib.unified_diff(
        "".join(s if s.endswith("\n") else s + "\n" for s in before).splitlines(),
        "".join(s if s.endswith("\n") else s + "\n" for s in after).splitlines(),
        "stored", "fresh", lineterm="", n=1))
    if len(lines) > _MAX_DIFF_LINES:
        lines = lines[:_MAX_DIFF_LINES] + [f"... ({len(lines) - _MAX_DIFF_LINES} more lines)"]
    return "\n".join(lines)


def execute_fresh(nb: NotebookNode, cwd: str | Path, timeout: int = 600) -> NotebookNode:
    """A re-executed copy of ``nb`` (fresh kernel, working directory ``cwd``).

    An error in a cell does not stop the run: it becomes that cell's output, as it would be
    compared with the stored one.
    """
    import copy

    from nbclient import NotebookClient

    fresh = copy.deepcopy(nb)
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    kernel = nb.metadata.get("kernelspec", {}).get("name", "python3")
    client = NotebookClient(fresh, timeout=timeout, kernel_name=kernel, allow_errors=True,
                            resources={"metadata": {"path": str(cwd)}})
    client.execute()
    return fresh


def check_outputs(path: str | Path, timeout: int = 600) -> list[OutputDifference]:
    """Execute the notebook at ``path`` fresh (in its folder) and compare every text output."""
    path = Path(path)
    stored = read_notebook(path)
    return compare_outputs(stored, execute_fresh(stored, path.parent, timeout))


def main(argv: list[str] | None = None) -> int:
    """``python -m luckylab.lessons.outputs NOTEBOOK...``: 1 when a stored output is stale."""
    parser = argparse.ArgumentParser(prog="python -m luckylab.lessons.outputs",
                                     description="Compare stored text outputs with a fresh run.")
    parser.add_argument("notebooks", nargs="+", help="notebooks to execute and compare")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell (600)")
    args = parser.parse_args(argv)
    stale = 0
    for name in args.notebooks:
        differences = check_outputs(name, args.timeout)
        print(f"{name}: {len(differences) or 'no'} stale output(s)")
        for difference in differences:
            print(difference)
        stale += len(differences)
    return 1 if stale else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
