"""What a bot of a tournament is shown: a world its seat cannot tell from the real one.

A bot is handed a game to decide on. Handing it the real game would hand it everything the
game holds: the other hands, the order of the deck, the game's own random generator (and so
every card still to come). :func:`seat_world` makes the game a bot is shown instead:

- what the seat may know is kept: its own hand, the board, the public cards and counts, and
  the **past as the seat saw it** (:class:`SeatPasts`): every action taken, with the details
  the seat did not see replaced by :class:`Unseen` (the cards of a pass, face-down Defenders),
  and every event, with the hidden details of its data left out;
- every hidden card is dealt anew (the game's :meth:`determinize`), so a bot that reads
  another hand reads a hand that could be there, not the one that is; the generator is a new
  one, and the game's seed is gone (``None``): nobody can replay the real deal from it.

A bot that reads only what its seat may know (the view, ``game.view(me)``) decides exactly as
it would on the real game. Each game says what its past hides, in two class attributes:
``HIDDEN_ACTIONS`` (action types whose details only the seat that took them sees) and
``HIDDEN_EVENT_DATA`` (for an event kind, the keys of its data only the event's own seat, and
the seat named ``to``, see).

>>> import random
>>> from luckylab import new_game
>>> game = new_game("doctorwho", players=3, seed=1)
>>> past = SeatPasts(game)
>>> world = seat_world(game, 0, random.Random(7), past)
>>> world.seed is None, world.view(0).hand == game.view(0).hand
(True, True)
>>> world.hands[1] == game.hands[1]   # another hand: dealt anew
False
"""

from __future__ import annotations

import copyreg
import io
import pickle
import random
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = ["SeatPasts", "Unseen", "pack_world", "seat_world", "table_refs", "unpack_world",
           "world_and_seed"]


@dataclass(frozen=True)
class Unseen:
    """An action a seat saw being taken without seeing its details: ``seat`` took an action
    of type ``type_name`` ("pass": three cards passed face down).

    >>> Unseen("pass", 2).to_data()
    {'type': 'unseen', 'of': 'pass', 'seat': 2}
    """

    type_name: str
    seat: int

    def to_data(self) -> dict[str, Any]:
        return {"type": "unseen", "of": self.type_name, "seat": self.seat}


class SeatPasts:
    """The past of one game as each seat saw it: ``history[seat]`` and ``events[seat]``.

    Call :meth:`catch_up` after every action (the referee knows who took it); the lists grow
    with the game's own ``history`` and ``events``. Entries the seat did not see in full are
    stand-ins (see the module's text); the seat that acted sees its own action whole.

    >>> from luckylab import new_game
    >>> game = new_game("doctorwho", players=3, seed=1)
    >>> past = SeatPasts(game)
    >>> actor = game.current_player
    >>> _ = game.apply(game.legal_actions()[0])
    >>> past.catch_up(actor)
    >>> len(past.history[0]) == len(past.history[1]) == len(game.history)
    True
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        cls = type(game)
        self._hidden_actions = frozenset(getattr(cls, "HIDDEN_ACTIONS", ()))
        self._hidden_data = dict(getattr(cls, "HIDDEN_EVENT_DATA", {}))
        seats = range(game.num_seats)
        self.history: dict[int, list[Any]] = {s: [] for s in seats}
        self.events: dict[int, list[Any]] = {s: [] for s in seats}
        self._actions_read = self._events_read = 0
        self.catch_up(None)

    def catch_up(self, actor: int | None) -> None:
        """Read the actions and events since the last call; ``actor`` took the new actions
        (None: only the setup's events are new)."""
        game = self.game
        for action in game.history[self._actions_read:]:
            if type(action) in self._hidden_actions:
                unseen = Unseen(action.type_name, actor if actor is not None else -1)
                for seat, seen in self.history.items():
                    seen.append(action if seat == actor else unseen)
            else:
                for seen in self.history.values():
                    seen.append(action)
        self._actions_read = len(game.history)
        for event in game.events[self._events_read:]:
            hidden = self._hidden_data.get(event.kind)
            if hidden is None or not hidden & event.data.keys():
                for seen in self.events.values():
                    seen.append(event)
                continue
            told = {event.data.get("seat"), event.data.get("to")}
            public = type(event)(event.kind, event.text,
                                 {k: v for k, v in event.data.items() if k not in hidden})
            for seat, seen in self.events.items():
                seen.append(event if seat in told else public)
        self._events_read = len(game.events)


def seat_world(game: Any, seat: int, rng: random.Random, past: SeatPasts | None = None) -> Any:
    """A game ``seat`` cannot tell from ``game``, with the seat's past: the game's
    :meth:`determinize` (every hidden card dealt anew with ``rng``), a new generator seeded
    from ``rng``, no seed, and ``past``'s history and events for the seat (empty without
    ``past``). ``game`` is not changed."""
    return world_and_seed(game, seat, rng, past)[0]


def world_and_seed(game: Any, seat: int, rng: random.Random,
                   past: SeatPasts | None = None) -> tuple[Any, int]:
    """:func:`seat_world` and the seed of the world's generator (a worker process is sent the
    seed, not the generator's 625 numbers)."""
    world = game.determinize(seat, rng)
    seed = rng.getrandbits(64)
    world.rng = random.Random(seed)
    world.seed = None
    world.history = past.history[seat].copy() if past is not None else []
    world.events = past.events[seat].copy() if past is not None else []
    return world, seed


# -- a world in bytes, for another process ---------------------------------------------------

_SCALARS = (int, float, str, bool, type(None))
_DISPATCH = copyreg.dispatch_table.copy()
_DISPATCH[MappingProxyType] = lambda m: (MappingProxyType, (dict(m),))  # an event's empty data
_DUMMY: list[Any] = []  # the game whose tables the world being unpacked refers to


def table_refs(dummy: Any) -> dict[int, tuple[Any, ...]]:
    """References to every table of ``dummy`` (a game of the same variant, any deal), and to
    every item of a table that is a tuple or list (Save's boards, one per sinking), keyed by
    the object's id: what :func:`pack_world` sends as a name instead of its contents."""
    refs: dict[int, tuple[Any, ...]] = {}
    for name, value in dummy.__dict__.items():
        if isinstance(value, _SCALARS) or name in ("rng", "history", "events"):
            continue
        refs[id(value)] = (name,)
        if type(value) in (tuple, list):
            for i, item in enumerate(value):
                if not isinstance(item, _SCALARS):
                    refs.setdefault(id(item), (name, i))
    return refs


class _Table:
    """Stands for one of the dummy's tables in a packed world (pickled as its name)."""

    __slots__ = ("ref",)

    def __init__(self, ref: tuple[Any, ...]) -> None:
        self.ref = ref

    def __reduce__(self) -> tuple[Any, ...]:
        return _table, self.ref


def _table(name: str, index: int | None = None) -> Any:
    value = _DUMMY[-1].__dict__[name]
    return value if index is None else value[index]


class _WorldPickler(pickle.Pickler):
    """Pickles a world with its tables as names and its generator as its seed. (Pickle asks
    ``reducer_override`` about every object but the built-in containers and atoms: a table
    that is a dict or a tuple is swapped for its name beforehand, where the world holds it.)"""

    dispatch_table = _DISPATCH

    def __init__(self, file: Any, rng: Any, seed: int, refs: dict[int, tuple[Any, ...]]) -> None:
        super().__init__(file, protocol=5)
        self._rng, self._seed, self._refs = rng, seed, refs

    def reducer_override(self, obj: Any) -> Any:
        if obj is self._rng:
            return random.Random, (self._seed,)
        ref = self._refs.get(id(obj))
        return NotImplemented if ref is None else (_table, ref)


def pack_world(world: Any, seed: int, refs: dict[int, tuple[Any, ...]], extra: Any) -> bytes:
    """``world`` (made by :func:`world_and_seed`, generator seeded with ``seed``) as bytes for
    :func:`unpack_world`, without its history and events, with ``extra`` (plain data): every
    table of ``refs`` goes as its name, the generator as its seed."""
    state = [(k, _Table(refs[id(v)]) if id(v) in refs else v)
             for k, v in world.__dict__.items() if k not in ("history", "events")]
    buffer = io.BytesIO()
    _WorldPickler(buffer, world.rng, seed, refs).dump((type(world), state, extra))
    return buffer.getvalue()


def unpack_world(message: bytes, dummy: Any) -> tuple[Any, Any]:
    """The world of :func:`pack_world`'s ``message`` (its tables ``dummy``'s, its history and
    events empty) and the ``extra`` sent with it. Only for bytes a referee made: unpickling
    runs code."""
    _DUMMY.append(dummy)
    try:
        cls, state, extra = pickle.loads(message)
    finally:
        _DUMMY.pop()
    world = object.__new__(cls)
    world.__dict__.update(state)
    world.history, world.events = [], []
    return world, extra
