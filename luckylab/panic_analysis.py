"""``luckylab.panic_analysis`` is :mod:`luckylab.analysis.memory` under its old name.

This module *is* that one (the same object in ``sys.modules``), so private names and
monkeypatching reach it. Silent on purpose: a warning would land in stored notebook outputs.
Nothing inside luckylab imports this path (``tests/test_layering.py`` checks).
"""

import sys

from .analysis import memory as _module

sys.modules[__name__] = _module
