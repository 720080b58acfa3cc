"""A pytest plugin: while nbval runs a lesson, every stored text output must equal the fresh one.

nbval executes every lesson cell by cell; with ``--nbval-lax`` it only checks that nothing
raises. Each of its cell items keeps what the kernel printed (``item.test_outputs``). This
plugin compares that text with the cell's stored outputs the way
:mod:`luckylab.lessons.outputs` does (stream text, ``text/plain`` results, errors; memory
addresses and install folders normalised; cells tagged ``timing`` or ``nbval-ignore-output``
skipped), and fails the cell with a short diff when a stored number is stale. A cell nbval
checks itself (tagged ``nbval-check-output``) is left to nbval. So one execution
of each lesson serves both checks. Streams are merged the way nbval merges them, on both sides.

The checkout's ``conftest.py`` loads it; elsewhere ``pytest -p luckylab.lessons.nbval_plugin
--nbval-lax notebooks/``. It only looks at lessons (``NN_name.ipynb``); nbval and pytest are
imported only when a cell is checked. ``python -m luckylab.lessons.outputs LESSON`` does the
same check without nbval.
"""

from __future__ import annotations

import copy
from typing import Any

from .notebook import is_lesson
from .outputs import compare_cell_outputs

__all__ = ["pytest_runtest_makereport", "stale_output"]


def stale_output(item: Any) -> str | None:
    """The diff between an executed nbval cell item's stored and fresh text, or None."""
    cell = getattr(item, "cell", None)
    fresh = getattr(item, "test_outputs", None)
    if cell is None or fresh is None or cell.get("cell_type") != "code":
        return None
    if not is_lesson(str(item.path)):
        return None
    if getattr(item, "options", {}).get("check"):
        return None  # nbval compared this cell itself (and merged its stored streams in place)
    from nbval.plugin import coalesce_streams

    stored = coalesce_streams(copy.deepcopy(list(cell.get("outputs", []))))
    return compare_cell_outputs(cell, stored, fresh)


def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    """Fail an nbval cell whose stored text output is not what it prints now."""
    if call.when != "call" or call.excinfo is not None or not hasattr(item, "test_outputs"):
        return None
    difference = stale_output(item)
    if difference is None:
        return None
    from _pytest.reports import TestReport

    report = TestReport.from_item_and_call(item, call)
    report.outcome = "failed"
    report.longrepr = (f"{item.path.name}: stale stored output (re-execute the lesson and read "
                       f"its text against the new numbers):\n{difference}")
    return report
