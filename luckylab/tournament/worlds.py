"""How a seat's world reaches a bot's worker process: pickled by the referee, cheaply.

A student bot decides on a world its seat cannot tell from the real game
(:func:`luckylab.games.shown.seat_world`). The worker process never holds the real game, nor
its seed: for every decision the referee sends the world. Most of a game is read-only tables
(the board, its sight and paths, the cards) that do not depend on the deal, so both sides make
one *dummy* game of the same variant (``seed=0``: nobody's real cards) and the world is sent
with every table it shares with the dummy as a reference to the dummy's copy (pickle's
persistent ids). The world's generator travels as its seed. What is left is the state of play:
about 1-2 KB a decision. The past (history and events, as the seat saw them) is sent a piece at
a time: only what happened since the seat last decided.

>>> import random
>>> from luckylab import new_game
>>> from luckylab.games.shown import SeatPasts
>>> game = new_game("island", players=4, seed=3)
>>> past = SeatPasts(game)
>>> sender, receiver = WorldSender("island", 4, {}), WorldReceiver("island", 4, {})
>>> message = sender.world(game, 0, random.Random(1), past)
>>> world = receiver.world(message)
>>> world.seed is None, world.hands[0] == game.hands[0], world.board is receiver.dummy.board
(True, True, True)
"""

from __future__ import annotations

import copyreg
import io
import pickle
import random
from types import MappingProxyType
from typing import Any

from ..games.shown import SeatPasts, world_and_seed

__all__ = ["WorldReceiver", "WorldSender"]

_SCALARS = (int, float, str, bool, type(None))
_TABLE = copyreg.dispatch_table.copy()
_TABLE[MappingProxyType] = lambda m: (MappingProxyType, (dict(m),))  # an event's empty data


def _dummy(game: str, players: int, options: dict[str, Any]) -> Any:
    from ..games.registry import new_game

    return new_game(game, players=players, seed=0, **options)


def _references(dummy: Any) -> dict[int, tuple[Any, ...]]:
    """Every table of ``dummy`` (and every item of a table that is a tuple or list: Save's
    boards, one per sinking), keyed by the object's id."""
    refs: dict[int, tuple[Any, ...]] = {}
    for name, value in dummy.__dict__.items():
        if isinstance(value, _SCALARS) or name in ("rng", "history", "events"):
            continue
        refs[id(value)] = ("t", name)
        if type(value) in (tuple, list):
            for i, item in enumerate(value):
                if not isinstance(item, _SCALARS):
                    refs.setdefault(id(item), ("t", name, i))
    return refs


class WorldSender:
    """The referee's side, for one game variant: :meth:`world` makes a seat's world and
    returns it as bytes for :class:`WorldReceiver`."""

    def __init__(self, game: str, players: int, options: dict[str, Any]) -> None:
        self.dummy = _dummy(game, players, options)
        self._refs = _references(self.dummy)
        self._sent: dict[int, tuple[int, int]] = {}

    def new_game(self) -> None:
        """Forget what was sent of the last game's past."""
        self._sent.clear()

    def world(self, game: Any, seat: int, rng: random.Random, past: SeatPasts) -> bytes:
        """``seat``'s world of ``game`` (dealt with ``rng``), with the part of its past not
        sent before."""
        world, seed = world_and_seed(game, seat, rng, past)
        refs = self._refs
        rng_ref = ("rng", seed)

        def persistent_id(obj: Any) -> Any:
            if obj is world.rng:
                return rng_ref
            return refs.get(id(obj))

        state = [(k, v) for k, v in world.__dict__.items() if k not in ("history", "events")]
        actions, events = self._sent.get(seat, (0, 0))
        history, told = past.history[seat], past.events[seat]
        self._sent[seat] = (len(history), len(told))
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=5)
        pickler.dispatch_table = _TABLE
        pickler.persistent_id = persistent_id  # type: ignore[method-assign]
        pickler.dump((type(world), state, history[actions:], told[events:]))
        return buffer.getvalue()


class WorldReceiver:
    """The worker's side, for one game variant: :meth:`world` rebuilds a world from the
    referee's bytes (call :meth:`new_game` when a game starts)."""

    def __init__(self, game: str, players: int, options: dict[str, Any]) -> None:
        self.dummy = _dummy(game, players, options)
        self._history: list[Any] = []
        self._events: list[Any] = []

    def new_game(self) -> None:
        self._history, self._events = [], []

    def _load(self, message: bytes) -> tuple[Any, Any]:
        tables = self.dummy.__dict__

        def persistent_load(ref: tuple[Any, ...]) -> Any:
            if ref[0] == "rng":
                return random.Random(ref[1])
            value = tables[ref[1]]
            return value if len(ref) == 2 else value[ref[2]]

        unpickler = pickle.Unpickler(io.BytesIO(message))
        unpickler.persistent_load = persistent_load  # type: ignore[method-assign]
        cls, state, actions, events = unpickler.load()
        world = object.__new__(cls)
        world.__dict__.update(state)
        return world, (actions, events)

    def world(self, message: bytes, *, again: bool = False) -> Any:
        """The world in ``message``; ``again=True`` rebuilds the same world a second time
        (to compare with what a bot was shown) without adding its past twice."""
        world, (actions, events) = self._load(message)
        if not again:
            self._history.extend(actions)
            self._events.extend(events)
        world.history, world.events = self._history.copy(), self._events.copy()
        return world
