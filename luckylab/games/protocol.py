"""The one protocol every luckylab game implements, and the words its events use.

A game is a seeded state machine (after OpenSpiel's ``State``). Everything above the rules
modules (the simulation, the bots, the search agent, the play table, the interop adapters and
the conformance test) talks to a game through these names only, never through an engine's
private attributes:

================================  ===========================================================
``game_name``, ``players``,       what was asked for (``new_game(game_name, players, seed,
``seed``, ``options``             **options)`` starts the same game again)
``num_seats``                     every seat (one number in ``returns()``, one observation
                                  each): the players, plus the Strangers of a 2- or 3-player
                                  Island, who are seats but never decide (a seat is numbered
                                  from 0 in code, from 1 in everything a person reads)
``current_player``                the seat to decide now, ``None`` once the game is over
``phase``                         what kind of decision that is, in the game's own words
                                  (``"phase1"``, ``"foil"``, ``"turn"`` ...); ``"over"`` (or
                                  None, in Panic Island!) once the game is over
``legal_actions()``               every action that seat may take now (action objects)
``choices()``                     the same actions grouped the way a player thinks
                                  (:class:`ChoiceGroup`), for widgets and the play table
``apply(action)``                 validate, then change the state; returns the
                                  :class:`~luckylab.games.base.Event` list it caused. Raises a
                                  :class:`~luckylab.errors.LuckyLabError` *before* changing
                                  anything
``apply_trusted(action)``         the engine's own fast path: ``apply`` without re-checking an
                                  action that came from ``legal_actions()`` of this very state
                                  (or from a bundled bot that only builds legal actions)
``quieten(True)``                 the engine stops writing event sentences (nobody reads them:
                                  simulations, search rollouts); the play is the same
``play_out(choosers)``            plays to the end, ``choosers[seat](game)`` deciding for each
                                  seat, through the engine's fastest trusted loop
``is_over``                       True once the game has ended (a turn cap ends it too)
``random_action(rng)``            a legal action at random: the draw and the action of
                                  ``rng.choice(legal_actions())`` (Kill and Save find it
                                  without listing them all)
``returns()``                     one number per seat (zeros until the end)
``observation(seat)``             what that seat may know now (:class:`Observation`: plain
                                  data and a text)
``determinize(seat, rng)``        a state that ``seat`` cannot tell apart from this one, with
                                  everything hidden from it dealt anew (for search)
``view(seat)``                    the game's :class:`SeatView`: what ``seat`` may know, typed
                                  and documented, with the rules' answers about it (bots,
                                  widgets and analyses read this); ``view()`` the open table
``clone()``                       an independent copy
``record()`` / ``replay``         seed + options + actions, pinned by digests
``state_digest()``                a SHA-256 that is equal for equal games
``result()``                      how the game ended, as plain data (a ``GameResult``)
``action_id(action)``,            a stable integer for every action of the game variant, in
``action_from_id(i)``,            ``range(num_distinct_actions)`` (an
``num_distinct_actions``          :class:`~luckylab.games.actions.ActionSpace`)
================================  ===========================================================

Event kinds come from one vocabulary, :data:`EVENT_KINDS`, across the five games (the
sentences a student reads still use each game's own words). Every game ends with exactly one
``"game_over"`` event.

>>> from luckylab import new_game
>>> game = new_game("kill", players=3, seed=4)
>>> isinstance(game, GameState)
True
>>> obs = game.observation(0)
>>> obs.seat, isinstance(obs.text, str)
(0, True)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Protocol, runtime_checkable

from ..errors import HiddenInformation, ObservationError

__all__ = [
    "EVENT_KINDS",
    "ChoiceGroup",
    "GameState",
    "Observation",
    "ObservationError",
    "SeatView",
    "reads",
]


@dataclass(frozen=True)
class Observation:
    """What one seat may know: plain JSON-ready ``data`` and a ``text`` for people.

    Two observations are equal when their seat and data are equal: a seat cannot tell apart
    two states that give it equal observations (its *information set*). Cards hidden from the
    seat never appear in ``data`` (only their count, or ``None`` in their place).

    >>> obs = Observation(0, {"hand": [3, 7], "others": [5, 5]}, "Your hand: 3, 7")
    >>> obs == Observation(0, {"hand": [3, 7], "others": [5, 5]}, "another text")
    True
    >>> obs.key()
    '{"hand":[3,7],"others":[5,5],"seat":0}'
    """

    seat: int
    data: Mapping[str, Any]
    text: str = field(default="", compare=False)

    def key(self) -> str:
        """A canonical string of the seat and data (a dictionary key for an information set)."""
        return json.dumps({**self.data, "seat": self.seat}, sort_keys=True,
                          separators=(",", ":"), default=_plain)

    def __getitem__(self, name: str) -> Any:
        """``obs["hand"]`` reads ``obs.data["hand"]``."""
        return self.data[name]

    def __str__(self) -> str:
        return self.text


def _plain(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    raise ObservationError(f"observation data must be plain data (dicts, lists, str, int, "
                           f"float, bool, None), not {type(value).__name__}")


@dataclass(frozen=True)
class ChoiceGroup:
    """Some of the legal actions, grouped the way a player thinks of them.

    ``kind`` is a short machine word ("move", "play", "attack", "foil", "pass", ...),
    ``label`` what a person reads ("Play a card", "Pay to foil the attack"), ``actions`` the
    legal actions in the group, in the order ``legal_actions()`` lists them.

    >>> from luckylab import new_game
    >>> game = new_game("save", players=4, seed=1)
    >>> groups = game.choices()
    >>> sum(len(g.actions) for g in groups) == len(game.legal_actions())
    True
    """

    kind: str
    label: str
    actions: tuple[Any, ...]


class SeatView:
    """What one seat may know of a game, read live, with the rules' answers about it: the base
    of each game's view (``IslandView``, ``KillView`` ...), which bots, widgets and analyses
    read instead of the engine's own attributes.

    ``game.view(seat)`` is that seat's view: the public table, its own hand, and questions the
    rules answer from them (may I attack? whom can this Hazard hit?). Asking it for what the
    seat may not see (another player's hand, the order of the deck) raises
    :class:`~luckylab.errors.HiddenInformation`, which says what it may ask instead.
    ``game.view()`` is the open table (``seat`` is None): every card shown, for a teacher, a
    replay or an analysis that works with the true hands.

    A view reads the game as it is now (it is not a copy) and changes nothing: what it hands
    out is immutable (tuples, read-only mappings) or made anew for the caller.

    >>> from luckylab import new_game
    >>> game = new_game("kill", players=3, seed=1)
    >>> view = game.view(0)
    >>> view.seat, len(view.hand) == view.hand_size(0)
    (0, True)
    >>> view.hand_of(1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    luckylab.errors.HiddenInformation: Seat 2's hand is hidden from Seat 1; view.hand_size(1) ...
    >>> len(game.view().hand_of(1)) == view.hand_size(1)
    True
    """

    __slots__ = ("_game", "seat")

    def __init__(self, game: Any, seat: int | None = None) -> None:
        _set_game(self, game)
        _set_seat(self, seat)

    @classmethod
    def of(cls, game: Any, seat: int | None) -> SeatView:
        """``cls(game, seat)`` for a seat the game has already checked, at the cost of an
        object and two slots (bots ask for a view at every decision)."""
        view = _new(cls)
        _set_game(view, game)
        _set_seat(view, seat)
        return view

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a view is read-only: it cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a view is read-only: it cannot delete {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are made anew from the game and the seat (``copy.deepcopy`` of
        a bot that keeps a view copies the game with it)."""
        return (type(self), (self._game, self.seat))

    def foiling_rules(self) -> Any:
        """The game's foiling rules (:class:`~luckylab.games.foiling.FoilRules`: which cards
        count against an attempt and what each is worth; public), or None in a game where
        nobody foils (its engine has no ``foiling_rules``)."""
        rules = getattr(self._game, "foiling_rules", None)
        return None if rules is None else rules()

    def view(self, seat: int | None = None) -> SeatView:
        """The view of ``seat`` (None: the open table), like ``game.view(seat)``: this very
        view when it is that seat's, so that a helper written for a game takes a view too.
        The open table gives any seat's view; a seat's view gives no other seat's."""
        if seat == self.seat:
            return self
        if self.seat is not None:
            raise self._hidden(f"Seat {seat + 1 if isinstance(seat, int) else seat}'s view",
                               "a seat's view gives only its own; the game gives any")
        return self._game.view(seat)  # type: ignore[no-any-return]

    def _sees_hand(self, seat: int) -> None:
        """Raise :class:`~luckylab.errors.HiddenInformation` unless this view may see
        ``seat``'s hand (its own, or any on the open table)."""
        if self.seat is not None and seat != self.seat:
            raise HiddenInformation(
                f"Seat {seat + 1}'s hand is hidden from Seat {self.seat + 1}; "
                f"view.hand_size({seat}) says how many cards it holds")

    def _hidden(self, what: str, instead: str) -> HiddenInformation:
        """The error for ``what``, hidden from this seat (``instead``: what it may ask)."""
        who = "every seat" if self.seat is None else f"Seat {self.seat + 1}"
        return HiddenInformation(f"{what} is hidden from {who}; {instead}")

    def __repr__(self) -> str:
        whose = "the open table" if self.seat is None else f"Seat {self.seat + 1}"
        return f"<{type(self).__name__} of {whose}: {self._game!r}>"


_new = object.__new__
_set_game = SeatView._game.__set__  # type: ignore[attr-defined]
_set_seat = SeatView.seat.__set__  # type: ignore[attr-defined]
"""The slots' own setters: a view refuses ``view.seat = 2`` (see :meth:`SeatView.__setattr__`)."""


def reads(name: str, doc: str) -> Any:
    """A read-only property of a view that gives its game's ``name``, read by a C-level getter
    (``operator.attrgetter``), so reading through the view costs what reading the game costs.
    For a method of the game's, the property gives the game's own bound method, so the rule a
    subclass of the game states (a house rule) is the one the view answers with.

    >>> class CountView(SeatView):
    ...     turn = reads("turn", "Turns played so far.")
    >>> class Game:
    ...     turn = 3
    >>> CountView(Game(), 0).turn
    3
    """
    return property(attrgetter(f"_game.{name}"), doc=doc)


@runtime_checkable
class GameState(Protocol):
    """The state protocol (see the module docstring for what each name means)."""

    game_name: str
    phase: Any
    players: int
    seed: int | None
    options: dict[str, Any]
    history: list[Any]

    @property
    def num_seats(self) -> int: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def num_distinct_actions(self) -> int: ...

    def legal_actions(self) -> list[Any]: ...

    def choices(self) -> list[ChoiceGroup]: ...

    def apply(self, action: Any) -> list[Any]: ...

    def apply_trusted(self, action: Any) -> list[Any]: ...

    def quieten(self, quiet: bool = True) -> None: ...

    def play_out(self, choosers: Sequence[Callable[[Any], Any]]) -> None: ...

    def random_action(self, rng: Any) -> Any: ...

    def returns(self) -> tuple[float, ...]: ...

    def observation(self, seat: int) -> Observation: ...

    def determinize(self, seat: int, rng: Any) -> GameState: ...

    def view(self, seat: int | None = None) -> SeatView: ...

    def clone(self) -> GameState: ...

    def record(self, digest: bool = True) -> dict[str, Any]: ...

    def state_digest(self) -> str: ...

    def action_id(self, action: Any) -> int: ...

    def action_from_id(self, action_id: int) -> Any: ...

    def result(self) -> Any: ...


EVENT_KINDS: Mapping[str, str] = {
    # the course of a game (every game)
    "setup": "the game is dealt and laid out",
    "turn": "a seat's turn begins",
    "turn_jumps": "Doctor Lucky (or a rule) hands the turn to another seat",
    "end_turn": "a seat ends its turn",
    "active": "a seat becomes the active player",
    "pass": "a seat passes (its turn, a foil, or cards to a neighbour)",
    "game_over": "the game ends: a winner, a rescue, the team's score, or the most Time Points",
    "turn_cap": "the game stops at its turn cap without an ordinary end",
    # pawns and the board (Island, Kill, Save)
    "move": "pawns move",
    "step": "a pawn steps to an adjacent room",
    "snoop": "a seat snoops instead of moving",
    "doctor_moves": "Doctor Lucky walks his path",
    "doctor_floats": "Doctor Lucky floats away as the ship sinks",
    "cat": "the cat moves",
    "sink": "a part of the ship sinks",
    # cards (every card game)
    "draw": "a seat draws a card",
    "building_draw": "a building gives its visitor a card (Island)",
    "no_draw": "no card could be drawn",
    "play": "a card is played",
    "move_card": "a Move card moves a pawn (Save)",
    "discard": "cards are discarded",
    "reshuffle": "the discard pile is shuffled into a new deck",
    "reveal": "a face-down card or tile is turned face up",
    # attempts and foiling (Island, Kill, Save)
    "attempt": "a murder attempt is made",
    "rescue": "a rescue attempt is made",
    "foil": "a seat pays to foil, or declines to",
    "foiled": "the attempt is foiled",
    "stronger": "a failed attacker grows stronger",
    "hazard": "a hazard is played on a player",
    "stranger_hazard": "a hazard is played on a Stranger",
    "eliminated": "a seat is out of the game",
    "penalty": "a seat pays a penalty",
    # Panic Island!
    "found": "a revealed tile is the one that was called",
    "not_found": "a revealed tile is not the one that was called",
    "gouga_wakes": "Gouga wakes up",
    "gouga_call": "Gouga calls for a tile",
    "gouga_sleeps": "Gouga goes back to sleep",
    "gouga_gone": "Gouga leaves the island",
    "continuous": "a continuous effect starts",
    "continuous_end": "a continuous effect ends",
    "land": "a land tile takes effect",
    "landslide": "a landslide takes effect",
    "earthquake": "an earthquake takes effect",
    "mirage": "a mirage takes effect",
    "obstacle": "an obstacle takes effect",
    "totem": "a totem takes effect",
    "save": "a friend is saved",
    "place": "a tile is placed",
    # Doctor Who: The Card Game
    "location": "a Location is played",
    "attack": "Enemies attack a Location",
    "defend": "Defenders are placed at a Location",
    "conflict": "a conflict at a Location is resolved",
    "match": "the attacker discards Enemies to match the defence",
    "takeover": "a Location is taken over",
    "support": "a Support card takes effect",
    "reserve": "cards go into a reserve",
    "buy": "Time Points buy cards",
    "to_hand": "cards return to a hand",
    "bounce": "a card returns to its owner",
    "ironsides": "Ironsides adds to a defence",
    "valiant": "Valiant is played",
    "kovarian": "Madame Kovarian takes effect",
    "astronaut": "The Impossible Astronaut takes effect",
    "end_card": "the end card is revealed",
    "endgame": "the last round starts",
}
"""Every event kind a luckylab game may use, with what it means (one vocabulary)."""
