"""Collection rules for the whole checkout.

The interop adapters' doctests are skipped where their optional library is not installed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

INTEROP_NEEDS = {"openspiel.py": "pyspiel", "pettingzoo.py": "pettingzoo"}
"""The interop adapters' doctests need their optional library (the extras install them)."""


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if (collection_path.parent.name == "interop" and collection_path.name in INTEROP_NEEDS
            and importlib.util.find_spec(INTEROP_NEEDS[collection_path.name]) is None):
        return True
    return None


# Stored lesson outputs equal a fresh run: checked while nbval runs each lesson (one execution
# serves both checks); see luckylab/lessons/nbval_plugin.py.
pytest_plugins = ["luckylab.lessons.nbval_plugin"]
