"""Doctor Who's action ids: the fixed action space every game variant numbers its actions in.

Every action a ``players``-seat game can ever offer has a stable integer id (the protocol's
``action_id``, ``action_from_id``, ``num_distinct_actions``; OpenSpiel's distinct actions),
built from the shared codecs of :mod:`luckylab.games.actions` and two of Doctor Who's own:
:class:`_Few` (1-3 cards of the 127: Reserve, Discard, Pass) and :class:`_OnePer` (Defenders,
never two of one type). :class:`DoctorWhoIds` gives the game class its ``action_space`` and
``action_from_data`` (replays).

>>> from luckylab import new_game
>>> game = new_game("doctorwho", players=3, seed=1)
>>> action = game.legal_actions()[0]
>>> game.action_from_id(game.action_id(action)) == action
True
>>> game.action_space is new_game("doctorwho", players=3, seed=2).action_space
True
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from math import comb, prod
from typing import Any

from ...cards.doctorwho import DWCard
from ...errors import IllegalAction
from ..actions import ActionSpace, Block, Choice, Codec, Maybe, SubsetOf
from ..base import action_from_data
from .actions import (
    ACTIONS,
    TP_TOKENS,
    Action,
    Attack,
    Buy,
    Defend,
    Discard,
    MatchDiscard,
    Pass,
    PlayLocation,
    PlaySupport,
    Reserve,
    TakeOver,
    UseIronsides,
    UseValiant,
)

__all__ = ["DoctorWhoIds", "action_space_for"]


class _Few(Codec):
    """A tuple of at most ``most`` distinct values from ``values``, in their order (Reserve,
    Discard and Pass name 1-3 cards of the 127: a bitmask would need 2**127 ids)."""

    def __init__(self, values: tuple[Any, ...], most: int) -> None:
        self.choice = Choice(values)
        self.most = most
        n = self.choice.size
        self.offsets = [sum(comb(n, j) for j in range(k)) for k in range(most + 2)]
        self.size = self.offsets[most + 1]

    def encode(self, value: Any) -> int:
        if not isinstance(value, tuple) or len(value) > self.most:
            raise IllegalAction(f"{value!r} has no action id: it must be a tuple of at most "
                                f"{self.most} cards")
        index = [self.choice.encode(v) for v in value]
        if any(a >= b for a, b in itertools.pairwise(index)):
            raise IllegalAction(f"{value!r} has no action id: its cards must be distinct and "
                                "sorted")
        return self.offsets[len(index)] + sum(comb(i, j + 1) for j, i in enumerate(index))

    def decode(self, number: int) -> tuple[Any, ...]:
        k = max(j for j in range(self.most + 1) if self.offsets[j] <= number)
        rest, index = number - self.offsets[k], []
        for j in range(k, 0, -1):  # the combinatorial number system (colex order)
            i = j - 1
            while comb(i + 1, j) <= rest:
                i += 1
            index.append(i)
            rest -= comb(i, j)
        return tuple(self.choice.values[i] for i in reversed(index))


class _OnePer(Codec):
    """A sorted tuple of values with at most one from each group (Defenders: never two of one
    type on a Location)."""

    def __init__(self, groups: list[tuple[int, ...]]) -> None:
        self.groups = groups
        self.where = {v: (g, i) for g, vs in enumerate(groups) for i, v in enumerate(vs)}
        self.strides = [prod(len(vs) + 1 for vs in groups[:g]) for g in range(len(groups))]
        self.size = prod(len(vs) + 1 for vs in groups)

    def encode(self, value: Any) -> int:
        if not (isinstance(value, tuple) and all(type(v) is int for v in value)
                and all(a < b for a, b in itertools.pairwise(value))):
            raise IllegalAction(f"{value!r} has no action id: it must be a sorted tuple of "
                                "distinct Defender ids")
        number, used = 0, set()
        for v in value:
            place = self.where.get(v) if type(v) is int else None
            if place is None or place[0] in used:
                raise IllegalAction(f"{value!r} has no action id: Defenders of distinct types")
            used.add(place[0])
            number += (place[1] + 1) * self.strides[place[0]]
        return number

    def decode(self, number: int) -> tuple[int, ...]:
        out = []
        for g, vs in enumerate(self.groups):
            digit = number // self.strides[g] % (len(vs) + 1)
            if digit:
                out.append(vs[digit - 1])
        return tuple(sorted(out))


_SPACES: dict[int, ActionSpace] = {}


def action_space_for(cards: tuple[DWCard, ...], players: int) -> ActionSpace:
    """The fixed action space of a ``players``-seat game on ``cards`` (built once, cached: the
    bundled deck's ids are the same in every game)."""
    space = _SPACES.get(players)
    if space is None:
        ids = {kind: tuple(c.id for c in cards if c.kind == kind)
               for kind in ("defender", "enemy", "location", "support", "starting")}
        game_ids = tuple(sorted(ids["defender"] + ids["enemy"] + ids["location"]
                                + ids["support"]))
        locs = Choice(sorted(ids["location"] + ids["starting"]))
        types: dict[str, list[int]] = {}
        for c in ids["defender"]:
            types.setdefault(cards[c].type, []).append(c)
        rivers = tuple(c for c in ids["defender"] if cards[c].type == "River Song")
        orders = [t for k in range(players) for t in itertools.permutations(range(players), k)]
        most = len(ids["enemy"]) + len(rivers)  # Enemies on one Location, at most
        space = ActionSpace([
            Block(PlayLocation, card=Choice(ids["location"]), take_from=Choice(orders)),
            Block(Defend, loc=locs, cards=_OnePer([tuple(v) for v in types.values()])),
            Block(Attack, loc=locs, cards=SubsetOf(ids["enemy"])),
            Block(TakeOver, card=Choice(c.id for c in cards
                                        if c.name in ("Davros", "Cyberking")), loc=locs),
            Block(PlaySupport, card=Choice(ids["support"]), loc=Maybe(locs), to=Maybe(locs),
                  index=Maybe(Choice(range(most))),
                  cards=SubsetOf(sorted(game_ids + ids["starting"]))),
            Block(Reserve, cards=_Few(game_ids, 2)),
            Block(Buy, n=Choice(range(1, TP_TOKENS // 5 + 1))),
            Block(Discard, cards=_Few(game_ids, 2)),
            Block(Pass, cards=_Few(game_ids, 3)),
            Block(UseIronsides, pay=Choice((False, True))),
            Block(UseValiant, play=Choice((False, True))),
            Block(MatchDiscard, cards=SubsetOf(sorted(ids["enemy"] + rivers))),
        ])
        _SPACES[players] = space
    return space


class DoctorWhoIds:
    """The action ids of a Doctor Who game (a mixin of
    :class:`~luckylab.games.doctorwho.rules.DoctorWhoGame`: it reads ``cards`` and
    ``players``)."""

    cards: tuple[DWCard, ...]
    players: int

    @property
    def action_space(self) -> ActionSpace:
        """This variant's fixed action space (:func:`action_space_for`)."""
        return action_space_for(self.cards, self.players)

    @staticmethod
    def action_from_data(data: Mapping[str, Any]) -> Action:
        """Rebuild an action from ``action.to_data()`` (for replays)."""
        return action_from_data(ACTIONS, data, "a Doctor Who")  # type: ignore[return-value]
