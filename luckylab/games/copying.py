"""A cheap copy of a game state, for ``clone()`` and ``determinize()`` of the engines.

``copy.deepcopy`` walks every object of a game; a search copies a game thousands of times. The
engines' state is plain: numbers, strings and tuples (immutable), lists, dicts and sets of them
(or of lists: the hands), small dataclasses (a foiling round), a ``random.Random``; the board,
the cards and the engine's lookup tables are read-only and shared by every copy. So
:func:`light_copy` copies lists, dicts, sets and dataclasses one level down (a list or dict of
lists two levels) and shares the rest; the rules replace or append, they never edit a card id
or an event in place. The event log and the history are copied as lists of the same
(immutable) events and actions, or left empty (``logs=False``: a made-up world for a search has
no past to replay).

>>> from luckylab.games.kill import KillGame
>>> game = KillGame(players=3, seed=2)
>>> twin = light_copy(game, game._shared_attributes())
>>> twin.hands[0].append(99)
>>> 99 in game.hands[0], twin.board is game.board
(False, True)
"""

from __future__ import annotations

import copy
import random
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

__all__ = ["deal_anew", "light_copy", "shuffle"]

T = TypeVar("T")

_ATOMS = frozenset({int, str, float, bool, tuple, frozenset, type(None)})
_LOGS = frozenset({"events", "history"})
_DATACLASS_FIELDS: dict[type, tuple[str, ...]] = {}  # dataclass -> its field names


def light_copy(game: T, shared: frozenset[str], *, logs: bool = True,
               fresh: frozenset[str] = frozenset()) -> T:
    """A copy of ``game`` that plays on independently (see the module docstring).

    ``shared`` names the attributes that hold read-only data (not copied); with
    ``logs=False`` the copy's ``events`` and ``history`` start empty; ``fresh`` names the
    attributes the caller sets anew at once (left out of the copy: a determinized world's
    generator, whose state is hundreds of numbers).
    """
    cls = game.__class__
    new = cls.__new__(cls)
    state = new.__dict__
    state.update(game.__dict__)  # every value shared at first, in the same order
    for key, value in game.__dict__.items():
        kind = type(value)
        if kind in _ATOMS or key in shared:  # immutable, or read-only: stays shared
            continue
        if key in fresh:
            del state[key]
        elif key in _LOGS:
            state[key] = value.copy() if logs else []
        elif kind is set or (kind is list and not (value and type(value[0]) is list)):
            state[key] = value.copy()  # the commonest case of _copy_value, without a call
        else:
            state[key] = _copy_value(value)
    return new


def _copy_value(value: Any) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        if value and type(value[0]) is list:  # the hands of a game that keeps them in a list
            return [v.copy() for v in value]
        return value.copy()
    if kind is dict:
        return _copy_dict(value)
    if kind is set:
        return value.copy()
    if kind is random.Random:
        other = random.Random()
        other.setstate(value.getstate())
        return other
    names = _DATACLASS_FIELDS.get(kind)
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _DATACLASS_FIELDS[kind] = tuple(f.name for f in fields(value))
    if names is not None:
        other = copy.copy(value)
        for name in names:
            item = getattr(value, name)
            if type(item) in (list, dict, set):
                object.__setattr__(other, name, _copy_value(item))
        return other
    return copy.deepcopy(value)


def _copy_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    """A dict copied whole, then its mutable values (a hand, a list of cards ...) each
    copied in turn."""
    out = value.copy()
    for k, v in value.items():
        kind = type(v)
        if kind is list and not (v and type(v[0]) is list):
            out[k] = v.copy()  # a hand: _copy_value's commonest case, without a call
        elif kind not in _ATOMS:
            out[k] = _copy_value(v)
    return out


def deal_anew(pool: list[int], sizes: list[tuple[int, int]], rng: random.Random
              ) -> tuple[dict[int, list[int]], list[int]]:
    """What ``determinize`` deals: ``pool`` (the cards a seat cannot see) shuffled with
    ``rng`` in place, then ``n`` cards to each ``(seat, n)`` of ``sizes`` in that order; returns
    those hands and the cards left over (for the deck or the piles).

    >>> hands, rest = deal_anew([1, 2, 3, 4, 5], [(1, 2), (2, 1)], random.Random(3))
    >>> {s: len(h) for s, h in hands.items()}, len(rest)
    ({1: 2, 2: 1}, 2)
    """
    shuffle(pool, rng)
    hands, start = {}, 0
    for seat, size in sizes:
        hands[seat] = pool[start:start + size]
        start += size
    return hands, pool[start:]


def shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same order from the same draws of ``rng``, a little faster
    (``random.Random.shuffle``'s own steps, with its ``_randbelow`` written in: from the last
    place down, swap with a place below drawn by ``getrandbits``, redrawn while too large).
    A subclass of ``random.Random`` shuffles by its own method.

    >>> a, b = list(range(20)), list(range(20))
    >>> shuffle(a, random.Random(7)); random.Random(7).shuffle(b)
    >>> a == b
    True
    """
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
