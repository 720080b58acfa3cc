"""Panic Island!: the cooperative memory game as a seeded state machine (rules ``P-*``).

Twenty-five cards lie face down on a 5x5 grid; the volcano's place is known (``P-SETUP-2``). The
players take turns revealing two cards (``P-TURN-1``): natives save dodos and dodos save eggs of
the same colour (``P-SAVE-1``), the raft and the paddle must be found (``P-SAVE-2``), obstacles
cost time or change the island (``P-OBS-*``), and once per game the players may wake Gouga
(``P-GOUGA-1``). The two-minute hourglass is a budget of seconds that every act spends
(``P-TIME-1``, a modelling choice; the costs live in ``luckylab/data/panic_island.toml``).

Every decision is an action: :class:`Reveal` a card, :class:`WakeGouga`, a :class:`GougaCall`
(name a kind and reveal one card), and :class:`Place` a card on an empty place (for the Totem
pole and the Landslide). :class:`TimeUp` is not a player's decision: it is how a real hourglass
(``clock="external"``, used by the widget) tells the game that the sand has run out; a game on
that clock that nobody ends ends by itself after ``budget x 2`` turns
(:data:`EXTERNAL_TURNS_PER_SECOND`).

The game keeps the protocol of :mod:`luckylab.games.protocol`: it is cooperative, so
``returns()`` gives every seat the team's won score (``score / 16``, 0.0 for a loss); nobody
sees a face-down card, and everybody sees what is turned up, so ``observation(seat)`` holds
every card seen face up where it lies now, and ``determinize`` deals anew the face-down cards
nobody has seen.

This module owns the rules (the "grid" board format is :mod:`luckylab.boards.grid`); it knows
nothing of agents or drawing.

>>> from luckylab import new_game
>>> game = new_game("panic", players=3, seed=9)
>>> game.board.start["volcano"], len(game.board)
('r3c3', 25)
>>> for event in game.apply(Reveal("r1c1")) + game.apply(Reveal("r1c2")):
...     print(event)
P1 reveals the red dodo on r1c1.
P1 reveals the red native on r1c2.
The red dodo is saved by the red native!
>>> game.score, game.turn, game.current_player, game.time_left
(1, 1, 1, 114.0)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from ..boards.board import Board
from ..boards.grid import board_from_data, place_name
from ..errors import BoardError, IllegalAction, OptionError
from .actions import ActionSpace, Block, Choice
from .base import (
    Event,
    GameAction,
    GameBase,
    GameResult,
    action_from_data,
    check_seed,
    foreign_action,
)
from .copying import light_copy
from .protocol import Observation

__all__ = [
    "BANDS",
    "EXTERNAL_TURNS_PER_SECOND",
    "GOUGA_KINDS",
    "GougaCall",
    "Obstacle",
    "PanicCard",
    "PanicGame",
    "PanicRules",
    "Place",
    "Reveal",
    "TimeUp",
    "WakeGouga",
    "band",
    "board_from_data",
    "load_rules",
    "place_name",
    "rules_from_data",
]

DATA_FILE = "panic_island.toml"
SAVER = {"native": "dodo", "dodo": "egg"}
"""``P-SAVE-1``: a native saves a dodo, a dodo saves an egg (natives never save eggs)."""
SCORING_KINDS = ("native", "dodo", "egg")
GOUGA_KINDS = SCORING_KINDS
"""What the players may name while Gouga is awake (``P-GOUGA-1``)."""
COLOURS = ("red", "yellow")
CARD_KINDS = ("volcano", "raft", "paddle", "native", "dodo", "egg")
TIMINGS = ("immediate", "continuous")
EFFECTS = ("physical", "earthquake", "mirage", "totem", "rainbow", "landslide", "tsunami")
TIME_KEYS = ("budget", "reveal", "save", "wake_gouga", "gouga_call", "place")
CLOCKS = ("budget", "external")
BANDS = (
    (0, 0, "Catastrophe!"),
    (1, 4, "Beginners!"),
    (5, 7, "Good enough!"),
    (8, 11, "Experts!"),
    (12, 15, "Superb!"),
    (16, 16, "Divine!"),
)
"""``P-END-1``: the rulebook's score bands (low, high, name)."""
TIRED_GOUGA_SAVES = 5  # P-GOUGA-1 variant "tired Gouga": at most five saves


def band(score: int) -> str:
    """The rulebook's name for a score (``P-END-1``).

    >>> band(0), band(9), band(16)
    ('Catastrophe!', 'Experts!', 'Divine!')
    """
    for low, high, name in BANDS:
        if low <= score <= high:
            return name
    raise OptionError(f"a score runs from 0 to 16, not {score}")


# -- cards, obstacles and time costs ------------------------------------------------------------


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
        if not _seconds_ok(seconds):
            raise BoardError(source, f"{where}.seconds", f"must be a finite number >= 0, not "
                                                         f"{seconds!r}")
        breath = entry.get("breath")
        if breath is not None and not (_seconds_ok(breath) and breath > 0):
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
        if not _seconds_ok(value):
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


MAX_ACTS = 100_000  # a budget may hold at most this many reveals (so every game ends)
EXTERNAL_TURNS_PER_SECOND = 2
"""``clock="external"``: the bound that ends a game no real hourglass ends. Acts cost nothing
on that clock (the real sand keeps time, and :class:`TimeUp` says when it has run out), so a
game played by bots, with nobody to apply TimeUp, would never end. No hand turns a card and
resolves it in under half a second, so after ``budget x 2`` turns (and Gouga calls), 240 for
the two-minute hourglass, the real sand has surely run out: the game ends as TimeUp ends it
(end "time"), whoever plays. Never more than :data:`MAX_ACTS` turns."""


def _seconds_ok(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value >= 0)


@lru_cache(maxsize=16)
def _rules_and_board(text: str, name: str) -> tuple[PanicRules, Board]:
    """A rules file's rules and grid, cached by the file's content (not its path)."""
    from ..boards.files import _parse

    data = _parse(text, name)
    return rules_from_data(data, name), board_from_data(data, name, "panic")


@cache
def _builtin_rules() -> PanicRules:
    text = (resources.files("luckylab") / "data" / DATA_FILE).read_text(encoding="utf-8")
    return _rules_and_board(text, DATA_FILE)[0]


def load_rules(path: str | Path | None = None) -> PanicRules:
    """The card set, obstacles and time costs (the built-in file, or the file at ``path``).

    >>> rules = load_rules()
    >>> len(rules.cards), rules.first_trio, rules.time["budget"]
    (19, ('Beehive', 'Mirage', 'Tornado'), 120.0)
    """
    from ..boards import read_data_text

    if path is None:
        return _builtin_rules()
    return _rules_and_board(read_data_text(path), Path(path).name)[0]


def _card_set(rules: PanicRules, names: tuple[str, ...]) -> tuple[PanicCard, ...]:
    """``P-SETUP-1``: the fixed cards of ``rules``, then one obstacle card per name; ids 0..24
    in that order. The cards are frozen values, so games with the same rules and obstacles
    share one tuple (made once, not 25 new cards per game)."""
    key = (id(rules), names)
    hit = _CARD_SETS.get(key)
    if hit is None:  # the entry keeps ``rules`` alive, so its id names it while cached
        cards = [PanicCard(i, kind, colour) for i, (kind, colour) in enumerate(rules.cards)]
        for name in names:
            cards.append(PanicCard(len(cards), "obstacle", None, rules.obstacles[name]))
        if len(_CARD_SETS) >= 256:
            _CARD_SETS.clear()
        hit = _CARD_SETS[key] = (rules, tuple(cards))
    return hit[1]


_CARD_SETS: dict[tuple[int, tuple[str, ...]], tuple[PanicRules, tuple[PanicCard, ...]]] = {}


# -- actions ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reveal(GameAction):
    """Turn over the card at ``place`` (``P-TURN-1``: two per turn, one at a time)."""

    type_name: ClassVar[str] = "reveal"
    group: ClassVar[str] = "reveal"
    group_label: ClassVar[str] = "Turn a card face up"

    place: str

    def __str__(self) -> str:
        return f"reveal {self.place}"


@dataclass(frozen=True, slots=True)
class WakeGouga(GameAction):
    """Everyone shouts "Gouga!" (``P-GOUGA-1``: once per game, at the start of a turn)."""

    type_name: ClassVar[str] = "wake_gouga"
    group: ClassVar[str] = "gouga"
    group_label: ClassVar[str] = "Wake Gouga"

    def __str__(self) -> str:
        return "wake Gouga"


@dataclass(frozen=True, slots=True)
class GougaCall(GameAction):
    """While Gouga is awake: name ``kind`` ("native", "dodo", "egg"), then reveal ``place``."""

    type_name: ClassVar[str] = "gouga_call"
    group: ClassVar[str] = "gouga_call"
    group_label: ClassVar[str] = "Name a kind for Gouga and turn one card"

    kind: str
    place: str

    def __str__(self) -> str:
        return f'"{self.kind}!" and reveal {self.place}'


@dataclass(frozen=True, slots=True)
class Place(GameAction):
    """Put the card in hand (Totem pole's saved card, or a Landslide) face down on ``place``."""

    type_name: ClassVar[str] = "place"
    group: ClassVar[str] = "place"
    group_label: ClassVar[str] = "Put the card face down on an empty place"

    place: str

    def __str__(self) -> str:
        return f"place on {self.place}"


@dataclass(frozen=True, slots=True)
class TimeUp(GameAction):
    """The real hourglass has run out (``clock="external"`` only; not a player's decision)."""

    type_name: ClassVar[str] = "time_up"
    group: ClassVar[str] = "time"
    group_label: ClassVar[str] = "The sand has run out"

    def __str__(self) -> str:
        return "time is up"


_ACTIONS = (Reveal, WakeGouga, GougaCall, Place, TimeUp)


def _action_space(spaces: tuple[str, ...]) -> ActionSpace:
    """Every action of a game on a grid with these places, numbered once per grid: a
    :class:`Reveal` per place, :class:`WakeGouga`, a :class:`GougaCall` per kind and place, a
    :class:`Place` per place, and :class:`TimeUp` (127 ids on the 5x5 island).

    >>> space = _action_space(("r1c1", "r1c2"))
    >>> space.size, space.action_id(GougaCall("dodo", "r1c2")), space.action_from_id(8)
    (12, 7, GougaCall(kind='egg', place='r1c2'))
    """
    space = _SPACES.get(spaces)
    if space is None:
        where = Choice(spaces)
        if len(_SPACES) >= 64:  # grids come from files: keep the cache small
            _SPACES.clear()
        space = _SPACES[spaces] = ActionSpace([
            Block(Reveal, place=where), Block(WakeGouga),
            Block(GougaCall, kind=Choice(GOUGA_KINDS), place=where),
            Block(Place, place=where), Block(TimeUp)])
    return space


_SPACES: dict[tuple[str, ...], ActionSpace] = {}


class _Made(dict):  # type: ignore[type-arg]
    """Frozen actions made once per field value and handed out again (legal_actions() lists
    the same values every turn; place names are at most 100, ``r1c1`` .. ``r10c10``)."""

    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(*key) if isinstance(key, tuple) else self.make(key)
        return value


_REVEAL = _Made(Reveal)
_GOUGA_CALL = _Made(GougaCall)
_PLACE = _Made(Place)


# -- the game -----------------------------------------------------------------------------------


class PanicGame(GameBase):
    """One game of Panic Island! (cooperative: everybody wins or loses together).

    Parameters
    ----------
    players
        How many players take turns (1..8; the rulebook text we have names no limit).
    seed
        Seeds the shuffle (and any random choice of obstacles).
    obstacles
        Three obstacle names (two cards of each, ``P-SETUP-3``; default the first trio Beehive,
        Mirage, Tornado), six different names (variant "obstacle sextet"), or ``"random-trio"`` /
        ``"random-sextet"`` for a seeded choice among the basic obstacles. Advanced obstacles
        (Landslide, Fire, Tsunami) may be named.
    volcano
        The volcano's place (variant "moving volcano"); default the centre, ``"r3c3"``.
    tired_gouga
        Variant "tired Gouga": at most five saves after waking him.
    paddle_and_raft
        Variant "paddle and raft": both must be revealed in the same turn to be found.
    time
        Overrides of the time costs in seconds (keys ``budget``, ``reveal``, ``save``,
        ``wake_gouga``, ``gouga_call``, ``place``; ``P-TIME-1``), or of an obstacle's seconds by
        its name, e.g. ``time={"budget": 90, "Tornado": 8}``.
    clock
        ``"budget"`` (default): acts spend the budget and the game ends when it is spent.
        ``"external"``: acts cost nothing and a real clock ends the game with :class:`TimeUp`;
        if none does (bots), the game ends as TimeUp would after ``budget x 2`` turns, 240 for
        two minutes (:data:`EXTERNAL_TURNS_PER_SECOND`: no hand turns cards faster).
    rules_file
        Path of another Panic Island data file (default the built-in one).

    Attributes (read them; only ``apply`` changes them)
    ----------------------------------------------------
    island
        place -> card id, or None for an empty place (its card has left the island).
    face_up
        Places whose card lies face up: continuous obstacles, and the first card of a turn.
    covered
        place -> id of the Landslide covering the card there.
    saved, found
        Card ids saved (in order) and the raft/paddle found.
    time_left, turn, gouga ("asleep", "awake", "gone"), gouga_saves, end ("volcano", "time",
    "tsunami", "complete", "stuck") and ``events`` (every event so far, for agents and widgets;
    the last one is "game_over").
    """

    game_name = "panic"

    def __init__(self, players: int = 4, seed: int | None = None, *,
                 obstacles: str | Iterable[str] | None = None, volcano: str | None = None,
                 tired_gouga: bool = False, paddle_and_raft: bool = False,
                 time: Mapping[str, float] | None = None, clock: str = "budget",
                 rules_file: str | None = None) -> None:
        from ..boards import load_board, read_data_text

        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 8:
            raise OptionError(f"Panic Island takes 1 to 8 players here, not {players!r}")
        check_seed(seed)
        if not isinstance(clock, str) or clock not in CLOCKS:
            raise OptionError(f"clock must be one of {CLOCKS}, not {clock!r}")
        for name, flag in (("tired_gouga", tired_gouga), ("paddle_and_raft", paddle_and_raft)):
            if not isinstance(flag, bool):
                raise OptionError(f"{name} must be True or False, not {flag!r}")
        if time is not None and not isinstance(time, Mapping):
            raise OptionError(f"time must be a table of seconds by name, not {time!r}")
        if rules_file is not None and not isinstance(rules_file, (str, Path)):
            raise OptionError(f"rules_file must be a file path, not {rules_file!r}")
        if rules_file is None:
            rules, board = load_rules(), load_board("panic-island")
        else:  # cached by content, so an edited file is read afresh
            text = read_data_text(rules_file)
            rules, board = _rules_and_board(text, Path(rules_file).name)
            self.rules_sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
        self.rng = random.Random(seed)
        names = self._choose_obstacles(rules, obstacles)
        volcano_place = board.start["volcano"] if volcano is None else board.check(volcano)
        costs = dict(rules.time)
        seconds = {n: o.seconds for n, o in rules.obstacles.items()}
        for key, value in dict(time or {}).items():
            if not _seconds_ok(value):
                raise OptionError(f"time[{key!r}] must be a finite number of seconds >= 0, "
                                  f"not {value!r}")
            if key in costs:
                costs[key] = float(value)
            elif key in seconds:
                seconds[key] = float(value)
            else:
                raise OptionError(f"unknown time cost {key!r}; known: {', '.join(TIME_KEYS)} "
                                 f"or an obstacle name")
        if costs["budget"] <= 0:
            raise OptionError("the time budget must be more than 0 seconds")
        if costs["reveal"] <= 0 or costs["gouga_call"] <= 0:
            # otherwise the sand never runs and a game played by bots never ends
            raise OptionError("a reveal and a Gouga call must cost more than 0 seconds "
                             "(use clock='external' for a real hourglass)")
        if costs["budget"] > MAX_ACTS * min(costs["reveal"], costs["gouga_call"]):
            # a turn must really spend time: at most MAX_ACTS reveals fit in the budget
            raise OptionError(f"the budget of {costs['budget']} s allows more than {MAX_ACTS} "
                              f"reveals at {min(costs['reveal'], costs['gouga_call'])} s; "
                              "use fewer seconds of budget or more per reveal")
        # the turn that ends a game on the real hourglass if TimeUp has not (P-TIME-1, see
        # EXTERNAL_TURNS_PER_SECOND); the budget clock ends every game by itself
        self.turn_limit = (min(math.ceil(costs["budget"] * EXTERNAL_TURNS_PER_SECOND), MAX_ACTS)
                           if clock == "external" else math.inf)
        if clock == "external":  # the real hourglass keeps time, so acts cost nothing here
            costs = {k: (v if k == "budget" else 0.0) for k, v in costs.items()}
            seconds = {n: 0.0 for n in seconds}

        self.board = board
        self.players = players
        self.seed = seed
        self.options = {"obstacles": (list(rules.first_trio) if obstacles is None else
                                      obstacles if isinstance(obstacles, str) else list(obstacles)),
                        "volcano": volcano_place, "tired_gouga": bool(tired_gouga),
                        "paddle_and_raft": bool(paddle_and_raft), "time": dict(time or {}),
                        "clock": clock}
        if rules_file is not None:
            self.options["rules_file"] = str(rules_file)
        self.obstacle_names = names
        self.volcano = volcano_place
        self.tired_gouga = bool(tired_gouga)
        self.paddle_and_raft = bool(paddle_and_raft)
        self.clock = clock
        self.costs = costs
        self.obstacle_seconds = seconds

        self.cards: tuple[PanicCard, ...] = _card_set(rules, names)
        cards = self.cards
        if len(cards) != len(board):
            raise OptionError(f"{len(cards)} cards do not fill the {len(board)} places")
        self.scoring_cards = sum(1 for c in cards if c.scores)  # 16 with the published counts
        # P-SETUP-2: the volcano on its known place, the other 24 shuffled into the rest.
        volcano_card = self.volcano_card = next(c.id for c in cards if c.kind == "volcano")
        others = [c.id for c in cards if c.id != volcano_card]
        self.rng.shuffle(others)
        places = [p for p in board.spaces if p != volcano_place]
        self.island: dict[str, int | None] = dict(zip(places, others, strict=True))
        self.island[volcano_place] = volcano_card
        self.island = {p: self.island[p] for p in board.spaces}  # board order, for display

        self.face_up: set[str] = set()
        self.covered: dict[str, int] = {}
        self.saved: list[int] = []
        self.found: list[int] = []
        self.in_hand: list[tuple[str, int]] = []   # cards waiting for a Place (why, card id)
        self.revealed: list[str] = []              # this turn's face-up places, in order
        self.continuous: list[int] = []            # continuous obstacles now in force
        self.tsunami_at: dict[int, float] = {}     # tsunami id -> time_left when revealed
        self.last_seen: list[tuple[str, int]] = [] # the cards of the last finished turn
        self.time_left = costs["budget"]
        self.turn = 0
        self._current = 0        # the seat whose turn it is (turns go round the seats)
        self.seat_shift = 0      # Earthquakes so far: player p sits at seat (p + shift) % n
        self.gouga = "asleep"
        self.gouga_saves = 0
        self.saves_after_wake = 0  # every save since Gouga woke (P-GOUGA-1 "tired Gouga")
        self.gouga_calls = 0
        self.end: str | None = None
        self.history: list[Any] = []
        self.events: list[Event] = []

    def _choose_obstacles(self, rules: PanicRules, obstacles: str | Iterable[str] | None
                          ) -> tuple[str, ...]:
        """P-SETUP-3: three kinds twice each, or (variant "obstacle sextet") six different."""
        if obstacles is None:
            chosen = list(rules.first_trio)
        elif isinstance(obstacles, str):
            sizes = {"random-trio": 3, "random-sextet": 6}
            if obstacles not in sizes:
                raise OptionError(f"obstacles must be 3 or 6 names, 'random-trio' or "
                                 f"'random-sextet', not {obstacles!r}")
            chosen = self.rng.sample(sorted(rules.basic_obstacles), sizes[obstacles])
        elif isinstance(obstacles, (list, tuple)):
            chosen = list(obstacles)
        else:
            raise OptionError(f"obstacles must be a list of 3 or 6 names, 'random-trio' or "
                              f"'random-sextet', not {obstacles!r}")
        unknown = [n for n in chosen if not isinstance(n, str) or n not in rules.obstacles]
        if unknown:
            raise OptionError(f"unknown obstacle {unknown[0]!r}; obstacles: "
                             f"{', '.join(rules.obstacles)}")
        if len(set(chosen)) != len(chosen) or len(chosen) not in (3, 6):
            raise OptionError(f"name three different obstacles (a trio, two cards each) or six "
                             f"(a sextet), not {chosen}")
        return tuple(chosen * 2 if len(chosen) == 3 else chosen)

    def _shared_attributes(self) -> frozenset[str]:
        return frozenset({"board", "cards"})

    def clone(self) -> PanicGame:
        """An independent copy, events and history included (cheap: the board and the cards
        are shared, the state is copied as deep as the rules change it)."""
        return light_copy(self, self._shared_attributes())

    # -- the face ----------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is (None once the game is over). Seats take turns clockwise."""
        if self.end is not None:
            return None
        return (self._current - self.seat_shift) % self.players  # _player_at, inlined

    def _player_at(self, seat: int) -> int:
        # P-OBS-2 Earthquake: everyone moves one seat to the left (the next seat in play order),
        # so the turn, which goes round the seats, reaches a different player. The face's
        # "player" is a person; bots kept per player keep their own memory when they move.
        return (seat - self.seat_shift) % self.players

    @property
    def is_over(self) -> bool:
        return self.end is not None

    @property
    def score(self) -> int:
        """Saved natives, dodos and eggs (``P-END-1``, 0..16)."""
        return len(self.saved)

    @property
    def won(self) -> bool:
        """Over, with raft and paddle found and nothing lost (``P-END-1``, ``P-VOLC-1``)."""
        return (self.end in ("time", "complete", "stuck") and len(self.found) == 2)

    @property
    def winner(self) -> int | None:
        """Cooperative game: no seat wins alone (see :attr:`won`)."""
        return None

    @property
    def loser(self) -> int | None:
        return None

    @property
    def phase(self) -> str | None:
        """What is being decided: "turn", "second" (the second card), "gouga", "place" or None."""
        if self.end is not None:
            return None
        if self.in_hand:
            return "place"
        if self.gouga == "awake":
            return "gouga"
        return "second" if self.revealed else "turn"

    def card_at(self, place: str) -> PanicCard | None:
        """The card lying on ``place`` (the truth, face down or not; None if empty)."""
        card = self.island[self.board.check(place)]
        return None if card is None else self.cards[card]

    def revealable(self) -> list[str]:
        """Places whose card may be turned now: face down, not covered (volcano included)."""
        face_up, covered = self.face_up, self.covered
        if covered:
            return [p for p, c in self.island.items()
                    if c is not None and p not in face_up and p not in covered]
        return [p for p, c in self.island.items() if c is not None and p not in face_up]

    def _safe_card_left(self) -> bool:
        """Whether a face-down card other than the volcano may still be turned (``P-TURN-1``):
        ``revealable()`` holds a place whose card is not the volcano, without building it."""
        volcano, face_up, covered = self.volcano_card, self.face_up, self.covered
        for p, c in self.island.items():
            if c is not None and c != volcano and p not in face_up and p not in covered:
                return True
        return False

    def empty_places(self) -> list[str]:
        """Places whose card has left the island (where a Totem or Landslide card may go)."""
        return [p for p, c in self.island.items() if c is None]

    def unsaved_counts(self) -> dict[str, int]:
        """How many natives, dodos and eggs are not saved yet (public knowledge)."""
        counts = dict.fromkeys(SCORING_KINDS, 0)
        gone = set(self.saved)
        for card in self.cards:
            if card.scores and card.id not in gone:
                counts[card.kind] += 1
        return counts

    @property
    def rainbow(self) -> bool:
        """Whether a Rainbow is in force (``P-OBS-3``: colours swap for saving)."""
        return bool(self.continuous) and any(self.cards[c].obstacle.effect == "rainbow"
                                             for c in self.continuous)

    def can_save(self, saver: PanicCard, saved: PanicCard, rainbow: bool | None = None) -> bool:
        """Whether ``saver`` saves ``saved`` (``P-SAVE-1``; with a Rainbow, ``P-OBS-3``)."""
        if SAVER.get(saver.kind) != saved.kind:
            return False
        crossed = (bool(self.continuous) and self.rainbow) if rainbow is None else rainbow
        return (saver.colour != saved.colour) if crossed else (saver.colour == saved.colour)

    def legal_actions(self) -> list[Any]:
        """What the player to act may do now (:class:`TimeUp` is the hourglass's, never
        listed: see :meth:`apply`)."""
        phase = self.phase
        if phase is None:
            return []
        if phase == "place":
            made = _PLACE
            return [made[p] for p in self.empty_places()]
        places = self.revealable()
        if phase == "gouga":
            made = _GOUGA_CALL
            return [made[k, p] for k in GOUGA_KINDS for p in places]
        made = _REVEAL
        actions: list[Any] = [made[p] for p in places]
        if phase == "turn" and self.gouga == "asleep":
            actions.append(_WAKE_GOUGA)
        return actions

    def apply(self, action: Any) -> list[Event]:
        """Validate ``action``, then play it; returns the events it caused.

        Besides ``legal_actions()``, a game on ``clock="external"`` accepts :class:`TimeUp` at
        any moment: the real hourglass is not a seat, so no seat is offered it.
        """
        self._check(action)
        return self.apply_trusted(action)

    def apply_trusted(self, action: Any) -> list[Event]:
        """``apply`` without the legality check: the engine's own fast path (the protocol).
        Only for an action from ``legal_actions()`` of this very state (or one a bundled bot
        built for it)."""
        events: list[Event] = []
        act = _ACTS.get(type(action)) or _act_of(action)
        act(self, action, events)
        self.history.append(action)
        if self._quiet:
            return []
        self.events.extend(events)
        return events

    def quieten(self, quiet: bool = True) -> None:
        """Stop (or resume) keeping events: nobody reads them in a simulation or a search
        rollout with bots that do not read ``events``. The play is the same; ``apply`` then
        returns no events, and ``events`` and ``state_digest()`` lack the quiet part, so a
        quiet game is for results, not for records."""
        self._quiet = bool(quiet)

    def play_out(self, choosers: Any) -> None:
        """Play to the end through the trusted path, ``choosers[seat](self)`` deciding for
        each seat (a game on ``clock="external"`` ends at its bound,
        :data:`EXTERNAL_TURNS_PER_SECOND`, if nobody applies :class:`TimeUp`)."""
        apply = self.apply_trusted
        while self.end is None:
            apply(choosers[(self._current - self.seat_shift) % self.players](self))

    # -- the protocol (luckylab.games.protocol) -------------------------------------------------
    hidden_information: ClassVar[bool] = False
    """What lies face down is hidden from every seat alike, and whatever is turned up is seen by
    all: no seat knows what another does not (the conformance check that dealing anew what one
    seat cannot see changes what another sees does not apply)."""

    @property
    def action_space(self) -> ActionSpace:
        """Every action of a game on this grid (:func:`_action_space`), built once per grid."""
        return _action_space(self.board.spaces)

    def returns(self) -> tuple[float, ...]:
        """The team's score, the same for every seat (cooperative): the saved natives, dodos and
        eggs as a fraction of all of them (``score / 16`` on the published island: 1.0 is
        "Divine!") when the team escaped with the raft and paddle (:attr:`won`), 0.0 for a lost
        game (the volcano, a Tsunami, no raft or paddle) and before the end.

        >>> game = PanicGame(players=2, seed=3)
        >>> game.returns()
        (0.0, 0.0)
        """
        if self.end is None or not self.won:
            return (0.0,) * self.players
        value = self.score / self.scoring_cards if self.scoring_cards else 1.0
        return (value,) * self.players

    def _public_places(self) -> set[str]:
        """Places whose card everyone knows now: the volcano's, and every place a card was
        turned up on or put down on (a card moves only where everyone sees it move: a Mirage
        swaps two face-up cards, a Totem pole or Landslide card is put down by the players)."""
        places = {self.volcano}
        for action in self.history:
            place = getattr(action, "place", None)
            if place is not None:
                places.add(place)
        return places

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know: everything face up, and every face-down card that was seen
        where it lies (a memory game: what was revealed, and where, is public), but never a
        face-down card nobody has seen. The same for every seat (only ``seat`` differs).

        ``data``: ``cards`` (place -> card id, for every card whose place is known: face up,
        seen, covered or the volcano), ``face_down`` (places with a face-down card, known or
        not), ``face_up``, ``empty`` and ``covered`` (place -> Landslide), the turn's
        ``revealed`` places, ``in_hand`` ([why, card] waiting for a Place), ``saved``,
        ``found``, ``continuous``, and the clock, turn, phase, Gouga and score.

        >>> game = PanicGame(players=2, seed=3)
        >>> _ = game.apply(Reveal("r1c1"))
        >>> obs = game.observation(1)
        >>> obs["cards"], len(obs["face_down"]), obs["phase"]
        ({'r1c1': 7, 'r3c3': 0}, 24, 'second')
        """
        seat = self._check_seat(seat)
        public = self._public_places()
        cards: dict[str, int] = {}
        face_down: list[str] = []
        empty: list[str] = []
        for place, card in self.island.items():
            if card is None:
                empty.append(place)
                continue
            if place not in self.face_up:
                face_down.append(place)
            if place in public:
                cards[place] = card
        data = {
            "players": self.players, "current_player": self.current_player,
            "turn": self.turn, "phase": self.phase, "time_left": self.time_left,
            "clock": self.clock, "volcano": self.volcano, "cards": cards,
            "face_down": face_down, "face_up": [p for p in self.island if p in self.face_up],
            "empty": empty, "covered": dict(self.covered), "revealed": list(self.revealed),
            "in_hand": [[why, card] for why, card in self.in_hand],
            "saved": list(self.saved), "found": list(self.found),
            "continuous": list(self.continuous), "seat_shift": self.seat_shift,
            "gouga": self.gouga, "gouga_saves": self.gouga_saves,
            "saves_after_wake": self.saves_after_wake, "score": self.score,
            "end": self.end, "won": self.won if self.end is not None else None,
        }
        return Observation(seat, data, self._observation_text(seat, cards))

    def _observation_text(self, seat: int, cards: Mapping[str, int]) -> str:
        if self.end is not None:
            head = (f"Over ({self.end}): score {self.score} ({band(self.score)}), "
                    f"{'won' if self.won else 'lost'}.")
        else:
            head = (f"Turn {self.turn + 1}: P{self.current_player + 1} to play; "
                    f"{self.time_left:g} s left; score {self.score}; Gouga {self.gouga}.")
        found = ", ".join(self.cards[c].name for c in self.found) or "nothing yet"
        lines = [f"You are P{seat + 1}. {head}", f"Found: {found}. In hand: "
                 + (", ".join(self.cards[c].name for _, c in self.in_hand) or "nothing") + "."]
        nodes = self.board.graph.nodes
        rows: dict[int, list[str]] = {}
        for place, card in self.island.items():
            if card is None:
                code = "--"
            elif place in cards:
                code = _short(self.cards[card])
            else:
                code = "??"
            if place in self.face_up or place in self.covered:
                code = f"[{code}]"
            rows.setdefault(nodes[place]["row"], []).append(f"{code:^4}")
        lines += [(f"r{r:<2} " + " ".join(row)).rstrip() for r, row in sorted(rows.items())]
        lines.append("?? never seen, -- empty, [..] face up; rN red native, yD yellow dodo, "
                     "rE red egg, VO volcano, RF raft, PD paddle, obstacles by their first "
                     "letters.")
        return "\n".join(lines)

    def determinize(self, seat: int, rng: Any) -> PanicGame:
        """A game ``seat`` cannot tell from this one: the face-down cards nobody has seen are
        dealt anew among their places (uniformly, with ``rng``; what was seen stays where it
        was seen) and the game's own generator is reseeded from ``rng``. This game is left as
        it was.

        >>> game = PanicGame(players=2, seed=3)
        >>> world = game.determinize(0, random.Random(1))
        >>> world.observation(0) == game.observation(0), world.island == game.island
        (True, False)
        """
        self._check_seat(seat)
        world = self.clone()
        public = self._public_places()
        hidden = [p for p, c in self.island.items() if c is not None and p not in public]
        cards = sorted(self.island[p] for p in hidden)  # sorted: two games that look the same
        rng.shuffle(cards)                              # to seat deal the same world
        world.island.update(zip(hidden, cards, strict=True))
        world.rng = random.Random(rng.getrandbits(64))
        return world

    @staticmethod
    def action_from_data(data: Mapping[str, Any]) -> GameAction:
        """Rebuild an action from its ``to_data()`` (for replays)."""
        return action_from_data(_ACTIONS, data, "a Panic Island!")

    def result(self) -> GameResult:
        """Plain data: score, win, how the game ended, time left, Gouga's work."""
        island_cards = sum(1 for c in self.island.values() if c is not None)
        return GameResult(
            game=self.game_name, players=self.players, seed=self.seed,
            finished=self.end is not None, winner=None, loser=None, turns=self.turn,
            attempts=self.gouga_calls, cards_left=island_cards,
            extra={"score": self.score, "won": self.won, "band": band(self.score),
                   "end": self.end, "time_left": self.time_left,
                   "raft": self._found_kind("raft"), "paddle": self._found_kind("paddle"),
                   "gouga": self.gouga, "gouga_saves": self.gouga_saves},
        )

    # -- validation (nothing changes before it passes) ------------------------------------------
    def _check(self, action: Any) -> None:
        if type(action) is Reveal and self._may_reveal(action.place):
            return  # the common legal case, decided in one look (anything else: see below)
        if self.end is not None:
            raise IllegalAction(f"the game is over ({self.end})")
        if isinstance(action, _ACTIONS):
            action.check_fields()  # field types (a number for a place is refused)
        if isinstance(action, TimeUp):
            if self.clock != "external":
                raise IllegalAction("TimeUp is for a real hourglass (clock='external'); "
                                    "here the budget of seconds keeps time")
            return
        phase = self.phase
        if isinstance(action, WakeGouga):
            if self.gouga != "asleep":
                raise IllegalAction("Gouga cannot be woken a second time (P-GOUGA-1)")
            if phase != "turn":
                raise IllegalAction("wake Gouga at the start of a turn, not in the middle of one")
            return
        if isinstance(action, Place):
            if phase != "place":
                raise IllegalAction("there is no card to place now")
            if action.place not in self.island:
                self.board.check(action.place)
            if self.island[action.place] is not None:
                why = self.in_hand[0][0]
                raise IllegalAction(f"{action.place} is not empty: the {why} card goes on an "
                                    f"empty place", self.legal_actions())
            return
        if not isinstance(action, (Reveal, GougaCall)):
            raise IllegalAction(foreign_action(action, self.game_name))
        if phase == "place":
            raise IllegalAction(f"first place the {self.cards[self.in_hand[0][1]].name} "
                                f"on an empty place", self.legal_actions())
        if isinstance(action, Reveal) and phase == "gouga":
            raise IllegalAction("Gouga is awake: name a kind and reveal one card (GougaCall)")
        if isinstance(action, GougaCall):
            if phase != "gouga":
                raise IllegalAction("Gouga is not awake" if self.gouga == "asleep"
                                    else "Gouga is gone for this game")
            if action.kind not in GOUGA_KINDS:
                raise IllegalAction(f"name one of {', '.join(GOUGA_KINDS)}, not {action.kind!r}")
        place = action.place
        if place not in self.island:
            self.board.check(place)
        if self.island[place] is None:
            raise IllegalAction(f"{place} is empty: its card has left the island")
        if place in self.covered:
            raise IllegalAction(f"the card on {place} is covered by the Landslide (P-OBS-3)")
        if place in self.face_up:
            raise IllegalAction(f"the {self.cards[self.island[place]].name} on {place} is "
                                f"already face up")

    def _may_reveal(self, place: Any) -> bool:
        """True when ``Reveal(place)`` passes every check of :meth:`_check`: the game goes on,
        it is a turn's first or second card, and ``place`` names a face-down, uncovered card.
        False sends the action through the full checks, which say what is wrong."""
        return (self.end is None and not self.in_hand and self.gouga != "awake"
                and type(place) is str and self.island.get(place) is not None
                and place not in self.covered and place not in self.face_up)

    # -- acts -------------------------------------------------------------------------------
    def _reveal_cost(self) -> float:
        # P-OBS-3: each continuous obstacle in force slows every reveal (once per name).
        if not self.continuous:
            return self.costs["reveal"]
        names = {self.cards[c].obstacle.name for c in self.continuous}
        return self.costs["reveal"] + sum(self.obstacle_seconds[n] for n in names)

    def _reveal(self, action: Reveal, events: list[Event]) -> None:
        place = action.place
        card = self.cards[self.island[place]]
        self.time_left -= self._reveal_cost()
        self.revealed.append(place)
        self.face_up.add(place)
        player = self._player_at(self._current)
        events.append(Event("reveal", f"P{player + 1} reveals the {card.name} on {place}.",
                            {"place": place, "card": card.id, "player": player}))
        if card.kind == "volcano":  # P-VOLC-1: at once, even as the first card of a turn
            self._turn_back(events)
            self._finish("volcano", events, "The volcano erupts! Everybody loses.")
            return
        if len(self.revealed) == 1:
            if self.time_left <= 0:  # the sand ran out before the second card could be turned
                self._turn_back(events)
                self._finish("time", events, "The sand ran out in the middle of the turn.")
                return
            if self._safe_card_left():
                return
            # P-TURN-1 ruling: nobody is forced onto the volcano; the last safe card is
            # revealed alone and resolved on its own.
        if not self._resolve(self.revealed, events, gouga_call=None):
            self._end_step(events)

    def _wake_gouga(self, action: WakeGouga, events: list[Event]) -> None:
        self.time_left -= self.costs["wake_gouga"]
        self.gouga = "awake"
        events.append(Event("gouga_wakes", "Everyone shouts \"Gouga!\"",
                            {"player": self._player_at(self._current)}))
        self._check_end(events)

    def _gouga_call(self, action: GougaCall, events: list[Event]) -> None:
        place = action.place
        card = self.cards[self.island[place]]
        self.time_left -= self.costs["gouga_call"] + self._reveal_cost() - self.costs["reveal"]
        self.gouga_calls += 1
        self.revealed.append(place)
        self.face_up.add(place)
        player = self._player_at(self._current)
        events.append(Event("gouga_call", f"P{player + 1} says \"{action.kind}!\" and "
                            f"reveals the {card.name} on {place}.",
                            {"place": place, "card": card.id, "named": action.kind,
                             "player": player}))
        if not self._resolve([place], events, gouga_call=action.kind):
            self._end_step(events)

    def _place(self, action: Place, events: list[Event]) -> None:
        place = action.place
        why, card = self.in_hand.pop(0)
        self.island[place] = card
        self.time_left -= self.costs["place"]
        events.append(Event("place", f"The {self.cards[card].name} goes face down on {place} "
                            f"({why}).", {"place": place, "card": card, "why": why}))
        if not self.in_hand:
            self._end_step(events)

    def _time_up(self, action: TimeUp, events: list[Event]) -> None:
        self._finish("time", events, "The sand has run out.")

    # -- resolving a turn or a Gouga call -----------------------------------------------------
    def _resolve(self, places: list[str], events: list[Event], gouga_call: str | None) -> bool:
        """Resolve the face-up cards of this turn. Returns True if a Place decision waits."""
        cards = [self.cards[self.island[p]] for p in places]
        # P-VOLC-1: the volcano loses at once.
        if any(c.kind == "volcano" for c in cards):
            self._turn_back(events)
            self._finish("volcano", events, "The volcano erupts! Everybody loses.")
            return False
        extra = 0.0
        rainbow_before = self.rainbow
        saved_now: list[int] = []

        if gouga_call is not None:
            card = cards[0]
            if card.kind == gouga_call:  # P-GOUGA-1: a match is saved
                self._save(card.id, events, by="Gouga")
                saved_now.append(card.id)
                self.gouga_saves += 1
                if self.tired_gouga and self.saves_after_wake >= TIRED_GOUGA_SAVES:
                    self.gouga = "gone"
                    events.append(Event("gouga_sleeps", "Gouga is tired: five saves are enough.",
                                        {}))
            else:  # a miss (or an obstacle) ends Gouga for good
                self.gouga = "gone"
                events.append(Event("gouga_gone", f"Not a {gouga_call}: Gouga is gone for good.",
                                    {"named": gouga_call, "card": card.id}))

        # P-OBS-1: both cards are up before any obstacle acts. The immediate ones act in reveal
        # order: with the effects we model (Mirage's swap, the Totem's return, time costs) every
        # order the players might choose leaves the same island.
        ids = [c.id for c in cards]
        for c in cards:
            if c.obstacle is not None and c.obstacle.timing == "immediate":
                extra += self._immediate(c, [o for o in ids if o != c.id], events)

        if gouga_call is None and len(cards) == 2 and not self._tired():
            a, b = cards
            for saver, savee in ((a, b), (b, a)):
                if self.can_save(saver, savee, rainbow_before):  # P-SAVE-1
                    self._save(savee.id, events, by=saver.name)
                    saved_now.append(savee.id)
                    break
        # P-SAVE-2: the raft and paddle leave the island when revealed; in the "paddle and raft"
        # variant only when both are revealed in one turn.
        finds = [c for c in cards if c.kind in ("raft", "paddle")]
        if finds and (not self.paddle_and_raft or len(finds) == 2):
            for c in finds:
                place = self._where(c.id)
                self.island[place] = None
                self.face_up.discard(place)
                self.found.append(c.id)
                extra += self.costs["save"]
                events.append(Event("found", f"The {c.name} is found!", {"card": c.id,
                                                                         "place": place}))
        elif finds:
            events.append(Event("not_found", f"The {finds[0].name} alone does not count in the "
                                "paddle-and-raft variant: it is turned back.",
                                {"card": finds[0].id}))
        # Continuous obstacles last: a Landslide buries the other card only if it is still there
        # (a found raft has left). A continuous obstacle and a save never share a turn.
        for c in cards:
            if c.obstacle is not None and c.obstacle.timing == "continuous":
                self._continuous(c, [o for o in ids if o != c.id], events)
        if saved_now:
            extra += self.costs["save"] * len(saved_now)
            self._end_continuous(events)
        self.time_left -= extra
        self._turn_back(events)
        return bool(self.in_hand)

    def _immediate(self, card: PanicCard, others: list[int], events: list[Event]) -> float:
        """P-OBS-2: an immediate obstacle acts (and is turned back with the turn)."""
        effect = card.obstacle.effect
        if effect == "mirage" and others and self._where(others[0]) is not None:
            a, b = self._where(card.id), self._where(others[0])
            self.island[a], self.island[b] = self.island[b], self.island[a]
            # the face-up marks stay on the places: both cards are still up until the turn ends
            events.append(Event("mirage", f"Mirage: the Mirage ({a}) and the "
                                f"{self.cards[others[0]].name} ({b}) swap places.",
                                {"a": a, "b": b}))
        elif effect == "totem" and self.saved:
            # "The most recently saved card": a native, dodo or egg. The raft and the paddle are
            # "placed next to the island", not saved, so the Totem pole never takes them back.
            back = self.saved.pop()
            self.in_hand.append(("Totem pole", back))
            events.append(Event("totem", f"Totem pole: the {self.cards[back].name} goes back onto "
                                "the island.", {"card": back}))
        elif effect == "earthquake":
            # P-OBS-2: everyone moves one seat to the left, keeping their order; the turn
            # moves with the revealer, so it still passes to the player at their left.
            self.seat_shift += 1
            self._current = (self._current + 1) % self.players
            events.append(Event("earthquake", "Earthquake! Everyone moves one seat to the left.",
                                {"card": card.id}))
        else:
            events.append(Event("obstacle", f"{card.name}!", {"card": card.id,
                                                             "effect": effect}))
        return self.obstacle_seconds[card.obstacle.name]

    def _continuous(self, card: PanicCard, others: list[int], events: list[Event]) -> None:
        """P-OBS-3: a continuous obstacle stays face up until the next save."""
        place = self._where(card.id)
        self.continuous.append(card.id)
        other = others[0] if others else None
        other_place = self._where(other) if other is not None else None
        other_is_landslide = (other is not None and self.cards[other].obstacle is not None
                              and self.cards[other].obstacle.effect == "landslide")
        if card.obstacle.effect == "landslide" and other_place is not None \
                and not other_is_landslide:
            # It lies on the other card, which is blocked until the next save; its own
            # place is left empty.
            self.island[place] = None
            self.face_up.discard(place)
            self.covered[other_place] = card.id
            events.append(Event("landslide", f"Landslide: the {self.cards[other].name} on "
                                f"{other_place} is buried.", {"card": card.id, "place": other_place,
                                                              "from": place}))
            return
        self.face_up.add(place)
        if card.obstacle.effect == "tsunami":
            self.tsunami_at[card.id] = self.time_left
        events.append(Event("continuous", f"{card.name} stays face up until a card is saved.",
                            {"card": card.id, "place": place}))

    def _tired(self) -> bool:
        """P-GOUGA-1 "tired Gouga": five saves after the wake (anyone's) and no sixth."""
        return self.tired_gouga and self.saves_after_wake >= TIRED_GOUGA_SAVES

    def _save(self, card: int, events: list[Event], by: str) -> None:
        if self.gouga != "asleep":
            self.saves_after_wake += 1
        place = self._where(card)
        self.island[place] = None
        self.face_up.discard(place)
        self.saved.append(card)
        events.append(Event("save", f"The {self.cards[card].name} is saved by the {by}!",
                            {"card": card, "place": place, "by": by}))

    def _end_continuous(self, events: list[Event]) -> None:
        """P-OBS-3: any save turns every continuous obstacle back; Landslides move on."""
        if not self.continuous:
            return
        for card in self.continuous:
            place = self._where(card)
            if place is not None:
                self.face_up.discard(place)
        for place, landslide in list(self.covered.items()):
            del self.covered[place]
            self.in_hand.append(("Landslide", landslide))
        names = ", ".join(self.cards[c].name for c in self.continuous)
        events.append(Event("continuous_end", f"A card was saved: {names} turned back.",
                            {"cards": list(self.continuous)}))
        self.continuous.clear()
        self.tsunami_at.clear()

    def _turn_back(self, events: list[Event]) -> None:
        """P-TURN-1: unsaved cards of this turn go face down in place (continuous ones stay up)."""
        seen = []
        for place in self.revealed:
            card = self.island[place]
            if card is not None and card not in self.continuous:
                self.face_up.discard(place)
            if card is not None:
                seen.append((place, card))
        self.last_seen = seen
        self.revealed = []

    def _end_step(self, events: list[Event]) -> None:
        """A turn or a Gouga call is complete: pass the turn, then see whether the game ends."""
        self.turn += 1
        self._current = (self._current + 1) % self.players
        self._check_end(events)

    def _check_end(self, events: list[Event]) -> None:
        if self.end is not None:
            return
        for card, at in self.tsunami_at.items():
            if at - self.time_left >= self.cards[card].obstacle.breath:
                self._finish("tsunami", events, "Someone breathed during the Tsunami! "
                             "Everybody loses.")
                return
        if self.time_left <= 0:  # P-END-1
            self._finish("time", events, "The sand has run out.")
        elif len(self.saved) == self.scoring_cards and len(self.found) == 2:
            self._finish("complete", events, "Everything is saved and found!")
        elif not self._safe_card_left():
            self._finish("stuck", events, "No card but the volcano can be turned: the team "
                         "waits for the sand to run out.")
        elif self.turn >= self.turn_limit:  # clock="external" only (EXTERNAL_TURNS_PER_SECOND)
            self._finish("time", events, f"{self.turn} turns: the real sand has surely run out.")

    def _finish(self, end: str, events: list[Event], text: str) -> None:
        self.end = end
        if end in ("time", "stuck"):
            self.time_left = max(self.time_left, 0.0) if end == "time" else 0.0
        events.append(Event("game_over", f"{text} Score {self.score} ({band(self.score)}); "
                            f"{'won' if self.won else 'lost'}.",
                            {"end": end, "score": self.score, "won": self.won}))

    # -- helpers ------------------------------------------------------------------------------
    def _where(self, card: int) -> str | None:
        for place, c in self.island.items():
            if c == card:
                return place
        return None

    def _found_kind(self, kind: str) -> bool:
        return any(self.cards[c].kind == kind for c in self.found)

    def locations(self) -> dict[int, str]:
        """Where each of the 25 cards is: a place, "covering <place>", "saved", "found" or
        "in hand" (waiting for a Place). Every card appears exactly once."""
        where: dict[int, str] = {}
        for place, card in self.island.items():
            if card is not None:
                where[card] = place
        for place, card in self.covered.items():
            where[card] = f"covering {place}"
        for card in self.saved:
            where[card] = "saved"
        for card in self.found:
            where[card] = "found"
        for _, card in self.in_hand:
            where[card] = "in hand"
        return where

    def __repr__(self) -> str:
        state = self.end or self.phase
        return (f"<PanicGame seed={self.seed} turn {self.turn}, {self.time_left:.1f} s left, "
                f"score {self.score}, {len(self.found)}/2 found, {state}>")


def _short(card: PanicCard) -> str:
    """Two letters for a card in the observation's text."""
    if card.colour is not None:
        return card.colour[0] + card.kind[0].upper()
    if card.obstacle is not None:
        return card.obstacle.name[:2]
    return {"volcano": "VO", "raft": "RF", "paddle": "PD"}.get(card.kind, card.kind[:2])


def _act_of(action: Any) -> Any:
    """What a subclass of one of the actions does (anything else is no Panic action)."""
    for cls, act in _ACTS.items():
        if isinstance(action, cls):
            return act
    raise IllegalAction(foreign_action(action, "panic"))


_WAKE_GOUGA = WakeGouga()
_ACTS: dict[type, Any] = {  # what each action does (apply checks it first; see PanicGame.apply)
    Reveal: PanicGame._reveal,
    GougaCall: PanicGame._gouga_call,
    Place: PanicGame._place,
    WakeGouga: PanicGame._wake_gouga,
    TimeUp: PanicGame._time_up,
}
