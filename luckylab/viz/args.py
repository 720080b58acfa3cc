"""Checking widget arguments, and releasing a widget's resources on ``close()``.

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
import sys
from collections.abc import Iterable
from typing import Any

import ipywidgets as W
from matplotlib.figure import Figure

from ..errors import OptionError

__all__ = ["choice", "number", "release", "whole"]


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


def release(widget: W.Widget) -> None:
    """Close ``widget``'s child widgets (ipywidgets keeps every open widget alive in its
    registry, and their callbacks keep the owner alive) and clear its matplotlib figures, so
    that re-running a cell does not pile up memory."""
    if sys.meta_path is None:  # called from __del__ while Python shuts down: nothing to free
        return
    seen: set[int] = set()
    stack: list[Any] = [widget]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, W.Widget):
            stack.extend(getattr(item, "children", ()))
            stack.extend(v for v in (getattr(item, "layout", None), getattr(item, "style", None))
                         if isinstance(v, W.Widget))
            if item is not widget:
                item.close()
        if item is widget or not isinstance(item, W.Widget):
            values = vars(item).values() if hasattr(item, "__dict__") else ()
            for value in list(values):
                if isinstance(value, Figure):
                    value.clear()
                elif isinstance(value, W.Widget):
                    stack.append(value)
                elif isinstance(value, (list, tuple)):
                    stack.extend(v for v in value if isinstance(v, W.Widget))
                elif isinstance(value, dict):
                    stack.extend(v for v in value.values() if isinstance(v, W.Widget))
