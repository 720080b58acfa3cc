"""Kill Doctor Lucky's actions as numbers: the action space (a stable id for every action the
board and deck can offer), the codec for replays, and the legal actions counted and built one
at a time (a random bot's whole decision), as :class:`KillIds`, a part of
:class:`~.rules.KillGame`.

What is legal is the rules' answer (:meth:`~.rules.KillGame.legal_actions`, laid out in parts
by ``_layout``); this module only numbers and picks.

>>> from luckylab import new_game
>>> game = new_game("kill", players=3, seed=5)
>>> game.action_from_id(game.action_id(game.nth_action(0))) == game.legal_actions()[0]
True
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...boards.board import Board
from ...cards import Card
from ..actions import ActionSpace, Block, Choice, Maybe, SubsetOf
from ..base import action_from_data
from .actions import ACTIONS, Action, Attack, EndTurn, Foil, Pawn, PlayCard, Snoop, Step
from .tables import Tables, card_plays

__all__ = ["KillIds", "Part"]

Part = tuple[int, tuple[Action, ...], tuple[int, Pawn, str] | None]
"""A part of ``legal_actions()`` (``KillGame._layout``): ``(size, actions, None)``, or
``(size, (), (card, pawn, start))`` for a card's plays, built only when asked for."""

_ACTION_SPACES: weakref.WeakKeyDictionary[Board, ActionSpace] = weakref.WeakKeyDictionary()


def _action_space(board: Board, cards: tuple[Card, ...]) -> ActionSpace:
    """The action space of Kill Doctor Lucky on ``board`` (see ``KillIds.action_space``)."""
    spaces = Choice(board.spaces)
    of = {kind: tuple(c.id for c in cards if c.kind in kinds)
          for kind, kinds in (("moving", ("move", "room")), ("weapon", ("weapon",)),
                              ("failure", ("failure",)))}
    return ActionSpace([
        Block(Snoop, to=spaces),
        Block(Step, to=spaces),
        Block(PlayCard, card=Choice(of["moving"]), pawn=Choice(("self", "doctor")), to=spaces),
        Block(Attack, weapon=Maybe(Choice(of["weapon"]))),
        Block(EndTurn),
        Block(Foil, cards=SubsetOf(of["failure"])),
    ])


class KillIds:
    """The action ids and the one-at-a-time listing of :class:`~.rules.KillGame`."""

    board: Board
    cards: tuple[Card, ...]
    _t: Tables

    if TYPE_CHECKING:  # the rules' (rules.py)
        def _layout(self) -> tuple[int, list[Part]]: ...

    @property
    def action_space(self) -> ActionSpace:
        """Every action a game on this board can offer, numbered (built once per board): the
        snoops and steps to each space, each Move or Room card moving either pawn to each
        space, the attacks (bare-handed or with each Weapon), the end of a turn, and the
        foils (any set of Failure cards, listed with their ids sorted).

        >>> from luckylab import new_game
        >>> game = new_game("kill", players=3, seed=5)
        >>> all(game.action_from_id(game.action_id(a)) == a for a in game.legal_actions())
        True
        """
        space = _ACTION_SPACES.get(self.board)
        if space is None:
            space = _ACTION_SPACES[self.board] = _action_space(self.board, self.cards)
        return space

    @staticmethod
    def action_from_data(data: Mapping[str, Any]) -> Action:
        """Rebuild an action from its ``to_data()`` (for replays)."""
        return action_from_data(ACTIONS, data, "a Kill Doctor Lucky")  # type: ignore[return-value]

    def count_actions(self) -> int:
        """How many actions ``legal_actions()`` lists now, without listing them.

        >>> from luckylab import new_game
        >>> game = new_game("kill", players=3, seed=5)
        >>> game.count_actions() == len(game.legal_actions())
        True
        """
        return self._layout()[0]

    def nth_action(self, k: int) -> Action:
        """``legal_actions()[k]`` (``k`` from 0), built alone.

        >>> from luckylab import new_game
        >>> game = new_game("kill", players=3, seed=5)
        >>> all(game.nth_action(k) == a for k, a in enumerate(game.legal_actions()))
        True
        """
        return self._nth(self._layout()[1], k)

    def random_action(self, rng: random.Random) -> Action:
        """``rng.choice(self.legal_actions())``: the same draw from ``rng`` and the same action,
        without building the list (a random agent's whole decision).

        >>> from luckylab import new_game
        >>> game = new_game("kill", players=3, seed=5)
        >>> game.random_action(random.Random(1)) == random.Random(1).choice(game.legal_actions())
        True
        """
        count, layout = self._layout()
        return self._nth(layout, rng.randrange(count))

    def _nth(self, layout: list[Part], k: int) -> Action:
        """The ``k``-th action of a ``_layout``."""
        if isinstance(k, int) and k >= 0:
            for size, part, play in layout:
                if k < size:
                    return part[k] if play is None else card_plays(self._t, *play)[k]
                k -= size
        raise IndexError(f"there are {self.count_actions()} legal actions; no action number "
                         f"{k!r}")
