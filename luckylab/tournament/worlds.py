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

import random
from typing import Any

from ..games.shown import SeatPasts, pack_world, table_refs, unpack_world, world_and_seed

__all__ = ["WorldReceiver", "WorldSender"]


def _dummy(game: str, players: int, options: dict[str, Any]) -> Any:
    from ..games.registry import new_game

    return new_game(game, players=players, seed=0, **options)


class WorldSender:
    """The referee's side, for one game variant: :meth:`world` makes a seat's world and
    returns it as bytes for :class:`WorldReceiver`."""

    def __init__(self, game: str, players: int, options: dict[str, Any]) -> None:
        self.dummy = _dummy(game, players, options)
        self._refs = table_refs(self.dummy)
        self._sent: dict[int, tuple[int, int]] = {}

    def new_game(self) -> None:
        """Forget what was sent of the last game's past."""
        self._sent.clear()

    def world(self, game: Any, seat: int, rng: random.Random, past: SeatPasts) -> bytes:
        """``seat``'s world of ``game`` (dealt with ``rng``), with the part of its past not
        sent before."""
        world, seed = world_and_seed(game, seat, rng)  # the past goes in pieces, below
        actions, events = self._sent.get(seat, (0, 0))
        history, told = past.history[seat], past.events[seat]
        self._sent[seat] = (len(history), len(told))
        return pack_world(world, seed, self._refs, (history[actions:], told[events:]))


class WorldReceiver:
    """The worker's side, for one game variant: :meth:`world` rebuilds a world from the
    referee's bytes (call :meth:`new_game` when a game starts)."""

    def __init__(self, game: str, players: int, options: dict[str, Any]) -> None:
        self.dummy = _dummy(game, players, options)
        self._history: list[Any] = []
        self._events: list[Any] = []

    def new_game(self) -> None:
        self._history, self._events = [], []

    def world(self, message: bytes) -> Any:
        """The world in ``message``, with the seat's whole past."""
        world, (actions, events) = unpack_world(message, self.dummy)
        self._history.extend(actions)
        self._events.extend(events)
        world.history, world.events = self._history.copy(), self._events.copy()
        return world
