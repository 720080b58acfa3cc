"""Panic Island!'s action ids: every action of a game on a grid, numbered once per grid, and
the codec that rebuilds an action from a record.

The game class (``rules.py``) inherits :class:`PanicIds`: ``action_space`` (so
``action_id``, ``action_from_id`` and ``num_distinct_actions``) and ``action_from_data``.

>>> space = action_space(("r1c1", "r1c2"))
>>> space.size, space.action_id(GougaCall("dodo", "r1c2")), space.action_from_id(8)
(12, 7, GougaCall(kind='egg', place='r1c2'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..actions import ActionSpace, Block, Choice
from ..base import GameAction, action_from_data
from .actions import ACTIONS, GOUGA_KINDS, GougaCall, Place, Reveal, TimeUp, WakeGouga

__all__ = ["PanicIds", "action_space"]


def action_space(spaces: tuple[str, ...]) -> ActionSpace:
    """Every action of a game on a grid with these places, numbered once per grid: a
    :class:`Reveal` per place, :class:`WakeGouga`, a :class:`GougaCall` per kind and place, a
    :class:`Place` per place, and :class:`TimeUp` (127 ids on the 5x5 island)."""
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


class PanicIds:
    """The action ids and the record codec of a Panic Island! game (a mixin of ``PanicGame``)."""

    board: Any

    @property
    def action_space(self) -> ActionSpace:
        """Every action of a game on this grid (:func:`action_space`), built once per grid."""
        return action_space(self.board.spaces)

    @staticmethod
    def action_from_data(data: Mapping[str, Any]) -> GameAction:
        """Rebuild an action from its ``to_data()`` (for replays)."""
        return action_from_data(ACTIONS, data, "a Panic Island!")
