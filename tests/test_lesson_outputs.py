"""Every text a lesson shows is what it prints today (issue 10: numbers cannot drift from prose).

The checker (:mod:`luckylab.lessons.outputs`) compares every stored text output (stream text,
``text/plain`` results, errors) with a fresh run's, cell by cell; cells tagged ``timing`` or
``nbval-ignore-output`` are skipped. The lessons themselves are checked while nbval runs them
(``luckylab.lessons.nbval_plugin``, see tests/test_nbval_outputs.py): one execution serves both
checks. The tests here show that the checker fails on a deliberately stale output, passes on a
fresh one and skips what it should.
"""

from __future__ import annotations

import copy

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from luckylab.lessons.notebook import LessonError
from luckylab.lessons.outputs import (
    check_outputs,
    compare_outputs,
    execute_fresh,
    text_outputs,
)


def stdout(text):
    return new_output("stream", name="stdout", text=text)


def small_notebook(stored_answer="42\n", timing_output="took 0.123 s\n", tags=("timing",)):
    nb = new_notebook(cells=[
        new_markdown_cell("# 1. Small"),
        new_code_cell("x = 6 * 7\nprint(x)", outputs=[stdout(stored_answer)]),
        new_code_cell("import time\nprint(f'took {time.perf_counter() % 1:.3f} s')",
                      metadata={"tags": list(tags)}, outputs=[stdout(timing_output)]),
        new_code_cell("x / 2", outputs=[new_output("execute_result", {"text/plain": "21.0"},
                                                   execution_count=3)]),
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def test_checker_fails_on_a_deliberately_stale_output(tmp_path):
    path = tmp_path / "01_small.ipynb"
    nbformat.write(small_notebook(stored_answer="41\n"), path)
    differences = check_outputs(path)
    assert [d.cell for d in differences] == [1]
    assert "-stdout: 41" in differences[0].diff and "+stdout: 42" in differences[0].diff
    assert "cell 1" in str(differences[0])


def test_checker_passes_on_a_fresh_notebook_and_skips_timing_cells(tmp_path):
    path = tmp_path / "01_small.ipynb"
    nbformat.write(small_notebook(timing_output="took 99.999 s\n"), path)
    assert check_outputs(path) == []


@pytest.mark.parametrize("tag", ["timing", "nbval-ignore-output"])
def test_skipped_tags_are_skipped_and_only_they(tag):
    stored = small_notebook(timing_output="something else\n", tags=(tag,))
    fresh = small_notebook(timing_output="took 0.5 s\n", tags=(tag,))
    assert compare_outputs(stored, fresh) == []
    untagged_stored = small_notebook(timing_output="something else\n", tags=())
    untagged_fresh = small_notebook(timing_output="took 0.5 s\n", tags=())
    assert [d.cell for d in compare_outputs(untagged_stored, untagged_fresh)] == [2]


def test_every_kind_of_text_output_is_compared():
    base = new_notebook(cells=[new_code_cell("", outputs=[
        stdout("a\n"),
        new_output("stream", name="stderr", text="warning\n"),
        new_output("execute_result", {"text/plain": "1"}, execution_count=1),
        new_output("error", ename="ValueError", evalue="bad", traceback=["..."]),
    ])])
    for index, change in enumerate([
        lambda o: o.update(text="b\n"),
        lambda o: o.update(text="other warning\n"),
        lambda o: o["data"].update({"text/plain": "2"}),
        lambda o: o.update(evalue="worse"),
    ]):
        fresh = copy.deepcopy(base)
        change(fresh.cells[0].outputs[index])
        assert len(compare_outputs(base, fresh)) == 1, index
    missing = copy.deepcopy(base)
    del missing.cells[0].outputs[2]
    assert len(compare_outputs(base, missing)) == 1


def test_widget_views_images_counts_metadata_and_addresses_are_ignored():
    stored = new_notebook(cells=[new_code_cell("", execution_count=1, outputs=[
        new_output("display_data", {"application/vnd.jupyter.widget-view+json":
                                    {"model_id": "aaa"}, "text/plain": "VBox()"}),
        new_output("display_data", {"image/png": "iVBORw0", "text/plain": "<Figure size 1>"}),
        stdout("<Board at 0x7f00deadbeef>\n"),
    ])])
    fresh = new_notebook(cells=[new_code_cell("", execution_count=7, metadata={"x": 1},
                                              outputs=[
        new_output("display_data", {"application/vnd.jupyter.widget-view+json":
                                    {"model_id": "bbb"}, "text/plain": "HBox()"}),
        new_output("display_data", {"image/png": "AAAA", "text/plain": "<Figure size 2>"}),
        stdout("<Board at 0x55aa>\n"),
    ])])
    assert compare_outputs(stored, fresh) == []


def test_split_stream_messages_compare_equal():
    one = new_notebook(cells=[new_code_cell("", outputs=[stdout("a\nb\n")])])
    two = new_notebook(cells=[new_code_cell("", outputs=[stdout("a\n"), stdout("b\n")])])
    assert compare_outputs(one, two) == []
    assert text_outputs(two.cells[0]) == ["stdout: a\nb\n"]


def test_notebooks_with_different_cells_are_refused():
    with pytest.raises(LessonError, match="fresh run has"):
        compare_outputs(small_notebook(), new_notebook(cells=[]))


def test_an_error_in_a_cell_becomes_its_output(tmp_path):
    nb = new_notebook(cells=[new_code_cell("1 / 0"), new_code_cell("print('after')")])
    fresh = execute_fresh(nb, tmp_path)
    assert text_outputs(fresh.cells[0]) == ["error: ZeroDivisionError: division by zero"]
    assert text_outputs(fresh.cells[1]) == ["stdout: after\n"]


def test_where_luckylab_and_the_packages_live_does_not_matter():
    def warning(text):
        return new_notebook(cells=[new_code_cell("", outputs=[
            new_output("stream", name="stderr", text=text)])])

    here = warning("/work/wt/lessonsA/luckylab/viz/draw.py:12: UserWarning: careful\n"
                   "/usr/lib/python3/site-packages/matplotlib/axes.py:3: note\n")
    there = warning("/home/runner/work/luckylab/luckylab/luckylab/viz/draw.py:12: UserWarning: "
                    "careful\nC:\\venv\\Lib\\site-packages\\matplotlib/axes.py:3: note\n")
    assert compare_outputs(here, there) == []
    other = warning("/work/wt/lessonsA/luckylab/viz/draw.py:13: UserWarning: careful\n"
                    "/usr/lib/python3/site-packages/matplotlib/axes.py:3: note\n")
    assert len(compare_outputs(here, other)) == 1
