"""Collection rules for the whole checkout.

The old-path modules of luckylab (``luckylab/probability.py`` and the like, see
``tests/test_layering.py``) replace themselves in ``sys.modules`` with the module that moved;
``--doctest-modules`` would import them as files and find a different module there. Their
doctests run once, under the new paths. The interop adapters' doctests are skipped where their
optional library is not installed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ALIAS_MARK = "sys.modules[__name__] = "

INTEROP_NEEDS = {"openspiel.py": "pyspiel", "pettingzoo.py": "pettingzoo"}
"""The interop adapters' doctests need their optional library (the extras install them)."""


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if (collection_path.suffix == ".py" and collection_path.parent.name == "luckylab"
            and ALIAS_MARK in collection_path.read_text(encoding="utf-8")):
        return True
    if (collection_path.parent.name == "interop" and collection_path.name in INTEROP_NEEDS
            and importlib.util.find_spec(INTEROP_NEEDS[collection_path.name]) is None):
        return True
    return None


# Stored lesson outputs equal a fresh run: checked while nbval runs each lesson (one execution
# serves both checks); see luckylab/lessons/nbval_plugin.py.
pytest_plugins = ["luckylab.lessons.nbval_plugin"]
