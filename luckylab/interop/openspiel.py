"""The five games as OpenSpiel games: ``luckylab_island``, ``luckylab_kill``, ``luckylab_save``,
``luckylab_panic`` and ``luckylab_doctorwho`` (needs ``pip install 'luckylab[openspiel]'``).

Importing this module registers the five names with ``pyspiel``; then any OpenSpiel algorithm
loads them by name. Each OpenSpiel state wraps one luckylab game and talks to it through the
game protocol only (:mod:`luckylab.games.protocol`):

- **Chance.** The first node is a chance node that deals the game: its outcome ``i`` starts
  ``new_game(name, players, seed=i, **options)``, so the shuffle, the deal and every later draw
  and reshuffle follow from it. A 96-card shuffle has far too many outcomes to list, so the
  node *samples* them: it lists ``deals`` seeds (4096 unless the parameter says otherwise),
  each with probability ``1 / deals``. Nothing later is a chance node: the engines draw from
  the deck that seed shuffled.
- **Actions.** A protocol action id is far too large for OpenSpiel's masks (about 2**57 on the
  Island), so a seat chooses it a few hex digits at a time through the compact ids of
  :mod:`luckylab.interop.compact` (``num_distinct_actions()`` is 127 to 608).
- **What a seat knows.** ``information_state_string(seat)`` and ``observation_string(seat)``
  are built from ``observation(seat)`` alone, plus the digits the seat has chosen so far when
  it is in the middle of a decision. The engines' observations carry what a seat may
  remember (its hand, the public piles, the board), so the information state is the current
  observation, not the list of all past ones. No tensors: an observation is variable-length
  data.
- **Resampling.** ``resample_from_infostate(seat, sampler)`` is the protocol's
  ``determinize(seat, rng)``, so ``ISMCTSBot`` searches worlds that seat cannot tell apart.
- **Returns.** The protocol's ``returns()``: 1.0 for a winner (shared ties), the team's
  fraction in Panic Island!, 0.0 otherwise.

>>> import pyspiel
>>> game = pyspiel.load_game("luckylab_kill", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 4096)
>>> state.apply_action(7)                # deal the game of seed 7
>>> state.current_player(), game.num_distinct_actions()
(1, 176)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError:  # pragma: no cover - depends on the installation
    from . import missing_extra

    raise missing_extra("pyspiel (open_spiel)", "openspiel") from None

from ..errors import IllegalAction, UnknownGame
from ..games.conformance import MAX_ACTIONS
from ..games.registry import new_game
from .compact import CompactIds

__all__ = ["DEALS", "GAME_CLASSES", "GAME_SPECS", "GameSpec", "LuckyLabOpenSpielGame",
           "LuckyLabOpenSpielState", "Variant", "check_open_spiel_game", "load", "variant"]

DEALS = 4096
"""How many seeds the dealing chance node lists, unless the ``deals`` parameter says."""

KNOWN_MAX = 200_000
"""How many action ids a :class:`Variant` remembers before it starts again (bounded memory)."""


@dataclass(frozen=True)
class GameSpec:
    """One game's OpenSpiel face: its player counts, default, and the rule options it takes
    (name -> default; only options whose default is a bool, int or str, which OpenSpiel's
    parameters can carry)."""

    name: str
    players: tuple[int, ...]
    default_players: int
    options: Mapping[str, Any] = field(default_factory=dict)


GAME_SPECS: dict[str, GameSpec] = {
    "island": GameSpec("island", tuple(range(2, 9)), 4,
                       {"youre_out": False, "cat_blocks": "both", "turn_cap": 2000,
                        "board": "isla-fortuna"}),
    "kill": GameSpec("kill", tuple(range(2, 9)), 4,
                     {"turn_cap": 2000, "board": "kill-doctor-lucky"}),
    "save": GameSpec("save", tuple(range(2, 8)), 4,
                     {"allow_two_players": False, "last_must_foil": True, "loser_award": True,
                      "turn_cap": 2000, "board": "save-doctor-lucky", "deck": "save"}),
    "panic": GameSpec("panic", tuple(range(1, 9)), 4,
                      {"tired_gouga": False, "paddle_and_raft": False, "clock": "budget"}),
    "doctorwho": GameSpec("doctorwho", (2, 3, 4), 4, {"two_player": False, "turn_cap": 3000}),
}
"""The five games as OpenSpiel registers them (``luckylab_<name>``)."""


def _game_type(spec: GameSpec) -> Any:
    return pyspiel.GameType(
        short_name=f"luckylab_{spec.name}",
        long_name=f"luckylab {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=8,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": spec.default_players, "deals": DEALS,
                                 **spec.options},
    )


@dataclass(frozen=True)
class Variant:
    """What a loaded game's parameters ask for, worked out once per parameter set (pyspiel may
    hand a state a fresh Python object for its game, without attributes set in Python, so
    the states look their variant up from the game's parameters)."""

    spec: GameSpec
    players: int
    deals: int
    options: Mapping[str, Any]
    num_seats: int
    ids: CompactIds
    known: dict[Any, int] = field(default_factory=dict, compare=False, repr=False)
    """Protocol ids of actions met before (actions are frozen dataclasses, equal by value, and
    a variant's action space is fixed, so an action's id never changes): encoding a move is
    the dearest step of a random rollout, and searches meet the same moves again and again."""

    def protocol_ids(self, engine: Any, actions: list[Any]) -> list[int]:
        """The protocol ids of ``actions`` (legal actions of ``engine``, a game of this
        variant), sorted; remembered in :attr:`known` (forgotten past :data:`KNOWN_MAX`)."""
        known = self.known
        ids = []
        for action in actions:
            number = known.get(action)
            if number is None:
                if len(known) >= KNOWN_MAX:
                    known.clear()
                number = known[action] = engine.action_id(action)
            ids.append(number)
        ids.sort()
        return ids

    def new_engine(self, seed: int) -> Any:
        """The luckylab game that chance outcome ``seed`` deals (quiet: no event sentences)."""
        engine = new_game(self.spec.name, players=self.players, seed=seed, **self.options)
        engine.quieten(True)
        return engine


_VARIANTS: dict[tuple[str, tuple[tuple[str, Any], ...]], Variant] = {}


def variant(spec: GameSpec, params: Mapping[str, Any] | None) -> Variant:
    """The :class:`Variant` of ``spec`` for OpenSpiel ``params`` (cached)."""
    key = (spec.name, tuple(sorted((params or {}).items())))
    if key not in _VARIANTS:
        values = dict(params or {})
        players = int(values.pop("players", spec.default_players))
        deals = int(values.pop("deals", DEALS))
        if deals < 1:
            raise IllegalAction(f"deals is a whole number >= 1, not {deals}")
        options = {**spec.options, **values}
        probe = new_game(spec.name, players=players, seed=0, **options)
        _VARIANTS[key] = Variant(spec, players, deals, options, probe.num_seats,
                                 CompactIds(probe.num_distinct_actions))
    return _VARIANTS[key]


def _variant_of(game: Any) -> Variant:
    name = game.get_type().short_name.removeprefix("luckylab_")
    return variant(GAME_SPECS[name], game.get_parameters())


class LuckyLabOpenSpielGame(pyspiel.Game):
    """One luckylab game variant as an OpenSpiel game (load it with ``pyspiel.load_game``)."""

    SPEC: GameSpec

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spec = self.SPEC
        v = variant(spec, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=v.ids.num_ids,
            max_chance_outcomes=v.deals,
            num_players=v.num_seats,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_ACTIONS * v.ids.places,
        )
        super().__init__(_game_type(spec), info, {"players": v.players, "deals": v.deals,
                                                  **v.options})

    def new_initial_state(self) -> LuckyLabOpenSpielState:
        """The state before the deal (a chance node)."""
        return LuckyLabOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer behind ``information_state_string`` and ``observation_string``."""
        return _Observer()


class LuckyLabOpenSpielState(pyspiel.State):
    """An OpenSpiel state around one luckylab game (see the module)."""

    def __init__(self, game: LuckyLabOpenSpielGame, engine: Any = None,
                 variant: Variant | None = None) -> None:
        super().__init__(game)
        self._variant = variant or _variant_of(game)
        self._ids = self._variant.ids
        self._engine = engine
        self._candidates: list[int] | None = None  # protocol ids still possible now
        self._chosen: list[int] = []  # compact ids chosen towards the pending action

    # -- the luckylab game inside ----------------------------------------------------------

    @property
    def engine(self) -> Any:
        """The luckylab game (``None`` before the deal)."""
        return self._engine

    def candidates(self) -> list[int]:
        """The protocol ids of the current seat's actions still possible (sorted)."""
        if self._candidates is None:
            engine = self._engine
            self._candidates = self._variant.protocol_ids(engine, engine.legal_actions())
        return self._candidates

    # -- the OpenSpiel state ---------------------------------------------------------------

    def current_player(self) -> int:
        if self._engine is None:
            return pyspiel.PlayerId.CHANCE
        if self._engine.is_over:
            return pyspiel.PlayerId.TERMINAL
        return self._engine.current_player

    def is_terminal(self) -> bool:
        return self._engine is not None and self._engine.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self._variant.deals
        return [(seed, p) for seed in range(self._variant.deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if self._engine is None or self._engine.is_over or player != self.current_player():
            return []
        return self._ids.legal(self.candidates())

    def _apply_action(self, action: int) -> None:
        if self._engine is None:
            if not 0 <= action < self._variant.deals:
                raise IllegalAction(f"a deal is a seed from 0 to {self._variant.deals - 1}, "
                                    f"not {action}")
            self._engine = self._variant.new_engine(int(action))
            return
        left = self._ids.choose(self._engine, self.candidates(), int(action))
        if left is not None:
            self._candidates = left
            self._chosen.append(int(action))
            return
        self._candidates, self._chosen = None, []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        try:
            left = self._ids.narrow(self.candidates(), int(action))
        except (IllegalAction, TypeError, AttributeError):
            return self._ids.describe(action)
        if len(left) == 1:
            return repr(self._engine.action_from_id(left[0]))
        return f"{self._ids.describe(action)} ({len(left)} actions left)"

    def compact_path(self, action: Any) -> list[int]:
        """The compact ids that choose the protocol ``action`` (one of the current seat's
        ``legal_actions()`` of :attr:`engine`) from here: feed them to ``apply_action`` one by
        one to play an action a luckylab bot chose."""
        target = self._engine.action_id(action)
        candidates, path = self.candidates(), []
        if target not in candidates:
            raise IllegalAction(f"{action!r} is not legal now (or another digit was chosen)")
        while True:
            place = self._ids.place(candidates)
            step = place * self._ids.base + self._ids.digit(target, place)
            path.append(step)
            candidates = self._ids.narrow(candidates, step)
            if len(candidates) == 1:
                return path

    def apply_unlisted(self, action: Any) -> None:
        """Play a luckylab ``action`` that no compact path leads to, through the engine's
        checked ``apply``: the engines accept a few actions their ``legal_actions()`` leave
        out (an Island foil may name particular cards among cards of equal Luck; the list
        holds one payment per combination of Luck values), and a luckylab bot may choose one.
        Only between decisions (no digit chosen); OpenSpiel's ``history()`` does not record
        it, so a state that used it cannot be replayed from its history."""
        if self._engine is None or self._chosen:
            raise IllegalAction("an unlisted action is played after the deal and between "
                                "decisions, not in the middle of one")
        self._engine.apply(action)
        self._candidates = None

    def returns(self) -> list[float]:
        if self._engine is None:
            return [0.0] * self._variant.num_seats
        return list(self._engine.returns())

    def view(self, seat: int) -> str:
        """What ``seat`` knows, as a string: its observation's key, and the digits it has
        chosen so far when it is in the middle of a decision."""
        if self._engine is None:
            return f"seat {seat + 1}: before the deal"
        text = self._engine.observation(seat).key()
        if self._chosen and seat == self._engine.current_player:
            text += " chosen " + ",".join(map(str, self._chosen))
        return text

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> Any:
        """A state ``player_id`` cannot tell apart from this one: the protocol's
        ``determinize`` deals anew what it cannot see (``ISMCTSBot`` calls this)."""
        out = self.clone()
        if self._engine is None:
            return out
        rng = random.Random(int(probability_sampler() * 2 ** 53))
        out._engine = self._engine.determinize(player_id, rng)
        out._engine.quieten(True)
        if player_id != self.current_player():
            out._candidates, out._chosen = None, []  # another seat's pending digits
        return out

    def clone(self) -> LuckyLabOpenSpielState:
        return self.__deepcopy__({})

    def __deepcopy__(self, memo: dict[int, Any]) -> LuckyLabOpenSpielState:
        engine = None if self._engine is None else self._engine.clone()
        out = type(self)(self.get_game(), engine, self._variant)
        out._candidates = None if self._candidates is None else list(self._candidates)
        out._chosen = list(self._chosen)
        return out

    def __str__(self) -> str:
        if self._engine is None:
            return "before the deal"
        chosen = f", chosen {self._chosen}" if self._chosen else ""
        return (f"{self._variant.spec.name} seed {self._engine.seed}, "
                f"{len(self._engine.history)} actions{chosen}")


class _Observer:
    """The strings of :meth:`LuckyLabOpenSpielState.view` (no tensors)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: LuckyLabOpenSpielState, player: int) -> None:
        pass

    def string_from(self, state: LuckyLabOpenSpielState, player: int) -> str:
        return state.view(player)


GAME_CLASSES: dict[str, type[LuckyLabOpenSpielGame]] = {}
"""One :class:`LuckyLabOpenSpielGame` subclass per game, registered with pyspiel (a class,
not a closure: pyspiel keeps the factory until the interpreter ends)."""

for _spec in GAME_SPECS.values():
    GAME_CLASSES[_spec.name] = type(f"LuckyLab{_spec.name.title()}Game",
                                    (LuckyLabOpenSpielGame,), {"SPEC": _spec})
    pyspiel.register_game(_game_type(_spec), GAME_CLASSES[_spec.name])


def load(name: str, players: int | None = None, **params: Any) -> Any:
    """``pyspiel.load_game(f"luckylab_{name}", {...})`` with luckylab's names.

    >>> game = load("island", players=2)
    >>> game.num_players(), game.num_distinct_actions()   # 2 players and 2 Strangers
    (4, 240)
    """
    if name not in GAME_SPECS:
        raise UnknownGame(f"unknown game {name!r}; games: {', '.join(sorted(GAME_SPECS))}")
    spec = GAME_SPECS[name]
    values = {"players": spec.default_players if players is None else players, **params}
    return pyspiel.load_game(f"luckylab_{name}", values)


def check_open_spiel_game(game: Any, seeds: range | list[int], every: int = 5,
                          worlds: int = 2) -> int:
    """Random games of an OpenSpiel ``game`` checked for two breaches its own tests miss;
    raises :class:`AssertionError` naming the first, returns how many states it checked.

    - **A leak.** At every ``every``-th state, for each seat, ``worlds`` states drawn by
      ``resample_from_infostate(seat, ...)`` (worlds the seat cannot tell apart) must give
      the same ``information_state_string(seat)`` and ``observation_string(seat)`` as the
      real one: a string that shows a hidden card changes when that card is dealt anew.
    - **An illegal id.** Every id in ``legal_actions()`` must apply on a clone, and the same
      ids must be legal in every resampled world of the current seat.

    >>> check_open_spiel_game(load("kill", players=2), seeds=[1], every=40) > 0
    True
    """
    checked = 0
    for seed in seeds:
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        k = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            legal = state.legal_actions()
            assert legal, f"seed {seed}: no legal action in a state that is not terminal"
            if k % every == 0:
                _check_one(state, legal, rng, worlds, f"seed {seed} action {k}")
                checked += 1
            state.apply_action(int(rng.choice(legal)))
            k += 1
    return checked


def _check_one(state: Any, legal: list[int], rng: Any, worlds: int, where: str) -> None:
    player = state.current_player()
    for action in legal:
        twin = state.clone()
        try:
            twin.apply_action(action)
        except Exception as exc:  # noqa: BLE001 - any refusal is the breach
            raise AssertionError(f"{where}: legal action {action} is refused: {exc}") from None
    for seat in range(state.get_game().num_players()):
        info, obs = state.information_state_string(seat), state.observation_string(seat)
        for _ in range(worlds):
            world = state.resample_from_infostate(seat, lambda: rng.uniform())
            assert world.information_state_string(seat) == info, (
                f"{where}: seat {seat + 1}'s information state changes when what it cannot "
                "see is dealt anew: it shows something hidden from that seat")
            assert world.observation_string(seat) == obs, (
                f"{where}: seat {seat + 1}'s observation string changes when what it cannot "
                "see is dealt anew: it shows something hidden from that seat")
            if seat == player:
                assert world.legal_actions() == legal, (
                    f"{where}: the legal actions change when what seat {seat + 1} cannot see "
                    "is dealt anew")
