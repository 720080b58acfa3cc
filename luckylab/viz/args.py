"""Checking widget arguments (releasing a widget's resources on ``close()`` is
:func:`luckylab.viz.base.release`).

Constructors call these first, so an odd argument is a :class:`~luckylab.errors.OptionError`
that names it and what is allowed (never a traitlets error, and never a slider that quietly
clamps a value it cannot show).

>>> whole("attack", 6, 1, 40, "FoilLab")
6
>>> whole("attack", 60, 1, 40, "FoilLab")
Traceback (most recent call last):
luckylab.errors.OptionError: FoilLab: attack must be a whole number from 1 to 40, not 60
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..errors import OptionError

__all__ = ["choice", "number", "whole"]


def whole(name: str, value: Any, low: int, high: int | None = None, owner: str = "") -> int:
    """``value`` if it is an int (not a bool) in ``low..high``, else an OptionError."""
    if (not isinstance(value, int) or isinstance(value, bool) or value < low
            or (high is not None and value > high)):
        allowed = f">= {low}" if high is None else f"from {low} to {high}"
        raise OptionError(f"{owner + ': ' if owner else ''}{name} must be a whole number "
                          f"{allowed}, not {value!r}")
    return value


def number(name: str, value: Any, low: float, high: float | None = None, owner: str = "",
           above: bool = False) -> float:
    """A finite real number in range (``above=True``: strictly more than ``low``)."""
    ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
          and math.isfinite(value) and (value > low if above else value >= low)
          and (high is None or value <= high))
    if not ok:
        allowed = (f"{'>' if above else '>='} {low}" if high is None
                   else f"from {low} to {high}")
        raise OptionError(f"{owner + ': ' if owner else ''}{name} must be a finite number "
                          f"{allowed}, not {value!r}")
    return float(value)


def choice(name: str, value: Any, allowed: Iterable[Any], owner: str = "") -> Any:
    """``value`` if it is one of ``allowed`` (compared as plain values, bools apart)."""
    options = list(allowed)
    if not any(type(value) is type(a) and value == a for a in options):
        raise OptionError(f"{owner + ': ' if owner else ''}{name} must be one of "
                          f"{', '.join(map(repr, options))}, not {value!r}")
    return value
