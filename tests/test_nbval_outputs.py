"""The nbval run of the lessons also checks their stored text outputs (one execution, two checks).

``luckylab.lessons.nbval_plugin`` (loaded by the checkout's conftest.py) fails a lesson cell
whose stored text is not what it prints now. These tests run pytest with nbval on small lessons
in a separate process: a stale number fails its cell with a diff; a fresh lesson, a cell tagged
``timing``, a cell nbval checks itself and a notebook that is not a lesson pass.
"""

from __future__ import annotations

import subprocess
import sys

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output


def _lesson(printed: str, *, tags: tuple[str, ...] = ()) -> nbformat.NotebookNode:
    nb = new_notebook(cells=[
        new_markdown_cell("# 1. Small"),
        new_code_cell("x = 6 * 7\nprint('the answer')\nprint(x)", execution_count=1,
                      metadata={"tags": list(tags)},
                      outputs=[new_output("stream", name="stdout", text="the answer\n"),
                               new_output("stream", name="stdout", text=printed)]),
        new_code_cell("x / 2", execution_count=2, outputs=[
            new_output("execute_result", {"text/plain": "21.0"}, execution_count=2)]),
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def _run(tmp_path, notebooks: dict[str, nbformat.NotebookNode]) -> tuple[int, str]:
    for name, nb in notebooks.items():
        nbformat.write(nb, tmp_path / name)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "luckylab.lessons.nbval_plugin", "-p",
         "no:cacheprovider", "--nbval-lax", "--nbval-current-env", "-rA", "-q", *notebooks],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout + done.stderr


def test_a_stale_number_fails_its_cell_and_the_rest_pass(tmp_path):
    code, out = _run(tmp_path, {
        "01_stale.ipynb": _lesson("41\n"),
        "02_fresh.ipynb": _lesson("42\n"),
        "03_timing.ipynb": _lesson("41\n", tags=("timing",)),
        # nbval compares a cell it is told to check itself (and merges its streams in place)
        "04_checked.ipynb": _lesson("42\n", tags=("nbval-check-output",)),
        "scratch.ipynb": _lesson("41\n"),
    })
    assert code == 1, out
    failed = [line for line in out.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and "01_stale.ipynb::Cell 0" in failed[0], out
    assert " stdout: the answer\n-41\n+42" in out, out
    assert "stale stored output" in out and "1 failed, 9 passed" in out, out
