"""The command line, one module per subcommand.

Each module listed in ``COMMANDS`` defines ``add_parser(subparsers)``, which adds its
subcommand and sets ``func`` (a function of the parsed arguments returning an exit code).
"""

import json
import math
from typing import Any

COMMANDS = [
    "luckylab.cli.board",
    "luckylab.cli.foil",
    "luckylab.cli.lab",
    "luckylab.cli.lite",
    "luckylab.cli.simulate",
    "luckylab.cli.student_copy",
    "luckylab.cli.lesson_stats",
    "luckylab.cli.tournament",
]


def dumps(data: Any, **kwargs: Any) -> str:
    """Strict JSON for ``--json``: a non-finite number (never valid JSON) becomes null."""
    return json.dumps(_finite(data), allow_nan=False, **kwargs)


def check_whole(name: str, value: int, low: int, high: int | None = None) -> int:
    """A command-line number in range, else a luckylab error naming the option."""
    from ..errors import OptionError

    if value < low or (high is not None and value > high):
        allowed = f">= {low}" if high is None else f"from {low} to {high}"
        raise OptionError(f"{name} must be {allowed}, not {value}")
    return value


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value
