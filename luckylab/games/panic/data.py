"""Panic Island!'s facts: the data file's cards, obstacles and time costs, read and checked,
and the rulebook's score bands.

The island's facts live in ``luckylab/data/panic_island.toml`` (the same file holds the grid,
which :mod:`luckylab.boards.grid` reads). This module turns the file into plain frozen values:
:class:`PanicRules` (the card set, the obstacle list, the first trio and the seconds each act
costs), :class:`Obstacle` and :class:`PanicCard`; and :data:`BANDS`, the names the rulebook
gives a score (``P-END-1``). It decides no rule: what a card does is in
``rules.py``. It is its own module because a teacher who owns the game corrects a number in
the file, and the checks that name the field at fault (:func:`rules_from_data`) are a file
reader's work, not the rulebook's.

>>> rules = load_rules()
>>> len(rules.cards), rules.first_trio, rules.obstacles["Mirage"].effect
(19, ('Beehive', 'Mirage', 'Tornado'), 'mirage')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ...boards.board import Board
from ...boards.grid import board_from_data
from ...errors import BoardError, OptionError

__all__ = [
    "BANDS",
    "CARD_KINDS",
    "COLOURS",
    "DATA_FILE",
    "EFFECTS",
    "SCORING_KINDS",
    "TIME_KEYS",
    "TIMINGS",
    "Obstacle",
    "PanicCard",
    "PanicRules",
    "band",
    "load_rules",
    "rules_and_board",
    "rules_from_data",
    "seconds_ok",
]

DATA_FILE = "panic_island.toml"
SCORING_KINDS = ("native", "dodo", "egg")
"""The cards that score when saved (``P-END-1``)."""
COLOURS = ("red", "yellow")
CARD_KINDS = ("volcano", "raft", "paddle", "native", "dodo", "egg")
TIMINGS = ("immediate", "continuous")
EFFECTS = ("physical", "earthquake", "mirage", "totem", "rainbow", "landslide", "tsunami")
TIME_KEYS = ("budget", "reveal", "save", "wake_gouga", "gouga_call", "place")
BANDS = (
    (0, 0, "Catastrophe!"),
    (1, 4, "Beginners!"),
    (5, 7, "Good enough!"),
    (8, 11, "Experts!"),
    (12, 15, "Superb!"),
    (16, 16, "Divine!"),
)
"""``P-END-1``: the rulebook's score bands (low, high, name)."""


def band(score: int) -> str:
    """The rulebook's name for a score (``P-END-1``).

    >>> band(0), band(9), band(16)
    ('Catastrophe!', 'Experts!', 'Divine!')
    """
    for low, high, name in BANDS:
        if low <= score <= high:
            return name
    raise OptionError(f"a score runs from 0 to 16, not {score}")


@dataclass(frozen=True, slots=True)
class Obstacle:
    """One kind of obstacle as the data file describes it (``P-OBS-2``, ``P-OBS-3``)."""

    name: str
    timing: str
    effect: str
    seconds: float
    breath: float | None = None
    advanced: bool = False


@dataclass(frozen=True, slots=True)
class PanicCard:
    """One of the 25 island cards. ``obstacle`` is set for obstacle cards only."""

    id: int
    kind: str
    colour: str | None = None
    obstacle: Obstacle | None = None

    @property
    def name(self) -> str:
        if self.obstacle is not None:
            return self.obstacle.name
        return f"{self.colour} {self.kind}" if self.colour else self.kind

    @property
    def scores(self) -> bool:
        """Natives, dodos and eggs score a point when saved (``P-END-1``)."""
        return self.kind in SCORING_KINDS

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class PanicRules:
    """The card set, the obstacle list, the first trio and the time costs of one data file."""

    cards: tuple[tuple[str, str | None], ...]
    obstacles: Mapping[str, Obstacle]
    first_trio: tuple[str, ...]
    time: Mapping[str, float]
    source: str = DATA_FILE

    @property
    def basic_obstacles(self) -> tuple[str, ...]:
        """The obstacles of the basic game (not the locked advanced deck)."""
        return tuple(n for n, o in self.obstacles.items() if not o.advanced)


def rules_from_data(data: Mapping[str, Any], source: str = "<data>") -> PanicRules:
    """Read and check the cards, obstacles and time costs of a Panic Island data file.

    Raises :class:`~luckylab.errors.BoardError` naming the file and the field.
    """
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise BoardError(source, "cards", "must be a non-empty list of [[cards]] tables")
    cards: list[tuple[str, str | None]] = []
    for i, entry in enumerate(raw):
        where = f"cards[{i}]"
        if not isinstance(entry, dict):
            raise BoardError(source, where, f"must be a table, not {entry!r}")
        extra = set(entry) - {"kind", "colour", "copies"}
        if extra:
            raise BoardError(source, where, f"unknown field(s) {sorted(extra)}; allowed: "
                                            "kind, colour, copies")
        kind = entry.get("kind")
        if not isinstance(kind, str) or kind not in CARD_KINDS:
            raise BoardError(source, f"{where}.kind", f"unknown kind {kind!r}; allowed: "
                                                      f"{', '.join(CARD_KINDS)}")
        colour = entry.get("colour")
        if (kind in SCORING_KINDS) != (colour is not None):
            raise BoardError(source, f"{where}.colour", "natives, dodos and eggs have a colour; "
                                                        "the volcano, raft and paddle have none")
        if colour is not None and (not isinstance(colour, str) or colour not in COLOURS):
            raise BoardError(source, f"{where}.colour", f"must be one of {COLOURS}, not {colour!r}")
        copies = entry.get("copies", 1)
        if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= 100:
            raise BoardError(source, f"{where}.copies",
                             f"must be a whole number from 1 to 100, not {copies!r}")
        if len(cards) + copies > 100:
            raise BoardError(source, "cards", "more than 100 cards: a grid has at most 100 "
                                              "places")
        cards.extend([(kind, colour)] * copies)
    for kind in ("volcano", "raft", "paddle"):
        n = sum(1 for k, _ in cards if k == kind)
        if n != 1:
            raise BoardError(source, "cards", f"the island has exactly one {kind} (P-SETUP-1), "
                                              f"not {n}")

    obstacles: dict[str, Obstacle] = {}
    raw_obstacles = data.get("obstacles", [])
    if not isinstance(raw_obstacles, list):
        raise BoardError(source, "obstacles", "must be a list of [[obstacles]] tables")
    for i, entry in enumerate(raw_obstacles):
        where = f"obstacles[{i}]"
        if not isinstance(entry, dict):
            raise BoardError(source, where, f"must be a table, not {entry!r}")
        extra = set(entry) - {"name", "timing", "effect", "seconds", "breath", "advanced"}
        if extra:
            raise BoardError(source, where, f"unknown field(s) {sorted(extra)}; allowed: name, "
                                            "timing, effect, seconds, breath, advanced")
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            raise BoardError(source, f"{where}.name", "must be a non-empty string")
        if name in obstacles:
            raise BoardError(source, f"{where}.name", f"duplicate obstacle {name!r}")
        timing, effect = entry.get("timing"), entry.get("effect")
        if not isinstance(timing, str) or timing not in TIMINGS:
            raise BoardError(source, f"{where}.timing", f"must be one of {TIMINGS}, not {timing!r}")
        if not isinstance(effect, str) or effect not in EFFECTS:
            raise BoardError(source, f"{where}.effect", f"must be one of {EFFECTS}, not {effect!r}")
        seconds = entry.get("seconds", 0.0)
        if not seconds_ok(seconds):
            raise BoardError(source, f"{where}.seconds", f"must be a finite number >= 0, not "
                                                         f"{seconds!r}")
        breath = entry.get("breath")
        if breath is not None and not (seconds_ok(breath) and breath > 0):
            raise BoardError(source, f"{where}.breath", f"must be seconds > 0, not {breath!r}")
        if effect == "tsunami" and breath is None:
            raise BoardError(source, f"{where}.breath", "a tsunami needs breath = seconds > 0")
        if not isinstance(entry.get("advanced", False), bool):
            raise BoardError(source, f"{where}.advanced", "must be true or false")
        obstacles[name] = Obstacle(name, timing, effect, float(seconds),
                                   None if breath is None else float(breath),
                                   bool(entry.get("advanced", False)))

    raw_trio = data.get("first_trio", [])
    trio = tuple(raw_trio) if isinstance(raw_trio, list) else ()
    if len(trio) != 3 or any(not isinstance(n, str) or n not in obstacles for n in trio):
        raise BoardError(source, "first_trio", f"must name three obstacles of the file, not {trio}")

    raw_time = data.get("time", {})
    if not isinstance(raw_time, dict):
        raise BoardError(source, "time", "must be a table of seconds")
    time: dict[str, float] = {}
    for key in TIME_KEYS:
        value = raw_time.get(key)
        if not seconds_ok(value):
            raise BoardError(source, f"time.{key}", f"must be a finite number >= 0, not "
                                                    f"{value!r}")
        time[key] = float(value)
    extra = set(raw_time) - set(TIME_KEYS)
    if extra:
        raise BoardError(source, "time", f"unknown field(s) {sorted(extra)}; allowed: {TIME_KEYS}")
    if time["budget"] <= 0:
        raise BoardError(source, "time.budget", "must be more than 0 seconds")

    rows, cols = data.get("rows", 5), data.get("cols", 5)
    if isinstance(rows, int) and isinstance(cols, int) and len(cards) + 6 != rows * cols:
        raise BoardError(source, "cards", f"{len(cards)} cards + 6 obstacles do not fill the "
                                          f"{rows}x{cols} grid")
    return PanicRules(tuple(cards), obstacles, trio, time, source)


def seconds_ok(value: Any) -> bool:
    """Whether ``value`` is a number of seconds: finite, at least 0, not a bool.

    >>> seconds_ok(2.5), seconds_ok(-1), seconds_ok(True), seconds_ok(float("inf"))
    (True, False, False, False)
    """
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)


@lru_cache(maxsize=16)
def rules_and_board(text: str, name: str) -> tuple[PanicRules, Board]:
    """A rules file's rules and grid, cached by the file's content (not its path)."""
    from ...boards.files import _parse

    data = _parse(text, name)
    return rules_from_data(data, name), board_from_data(data, name, "panic")


@cache
def _builtin_rules() -> PanicRules:
    text = (resources.files("luckylab") / "data" / DATA_FILE).read_text(encoding="utf-8")
    return rules_and_board(text, DATA_FILE)[0]


def load_rules(path: str | Path | None = None) -> PanicRules:
    """The card set, obstacles and time costs (the built-in file, or the file at ``path``).

    >>> rules = load_rules()
    >>> len(rules.cards), rules.first_trio, rules.time["budget"]
    (19, ('Beehive', 'Mirage', 'Tornado'), 120.0)
    """
    from ...boards import read_data_text

    if path is None:
        return _builtin_rules()
    return rules_and_board(read_data_text(path), Path(path).name)[0]
