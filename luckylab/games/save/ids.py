"""Save Doctor Lucky's action ids, and answers about the legal list found without listing it.

:class:`SaveIds` is a mixin of :class:`~luckylab.games.save.rules.SaveGame` (the rulebook lists
the legal actions; this file numbers them and walks the list lazily):

- ``action_space``: every action a game on this ship with this deck can offer, numbered (an
  :class:`~luckylab.games.actions.ActionSpace`, built once per ship and deck), and
  ``action_from_data`` for replays;
- ``random_action(rng)``: ``rng.choice(legal_actions())`` without building the list (its
  length, then the part the draw lands in): the random bot's speed-up;
- ``cheapest_foil()``: the first legal discard that stops a rescue with the fewest points, found
  without listing every discard: the bots' question in a failure round.

Both answers must stay exactly what the list would give (the doctests compare them), so they sit
beside the codec of that list rather than in a bot: a bot that walked the list itself would
hold a second copy of its order.

>>> from luckylab import new_game
>>> game = new_game("save", players=4, seed=3)
>>> all(game.action_from_id(game.action_id(a)) == a for a in game.legal_actions())
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...boards.board import Board
from ...cards import Card
from ..actions import ActionSpace, Block, Choice, Maybe, SubsetOf
from ..base import action_from_data
from .actions import (
    ACTIONS,
    DOCTOR,
    END_TURN,
    SELF,
    Action,
    EndTurn,
    Foil,
    PlayMove,
    Rescue,
    Snoop,
    Step,
)

__all__ = ["SaveIds"]

_ACTION_SPACES: dict[tuple[int, int], tuple[Board, tuple[Card, ...], ActionSpace]] = {}


def _action_space(ship: Board, cards: tuple[Card, ...]) -> ActionSpace:
    """The action space of Save Doctor Lucky on ``ship`` with ``cards`` (see
    ``SaveGame.action_space``)."""
    rooms = Choice(ship.spaces)
    return ActionSpace([
        Block(Snoop, to=rooms),
        Block(Step, to=rooms),
        Block(PlayMove, card=Choice(c.id for c in cards if c.kind == "move"),
              target=Choice((SELF, DOCTOR)), to=rooms),
        Block(Rescue, aid=Maybe(Choice(c.id for c in cards if c.kind == "aid"))),
        Block(EndTurn),
        Block(Foil, cards=SubsetOf(c.id for c in cards if c.kind == "failure")),
    ])


class SaveIds:
    """Action ids and lazy answers about the legal list (a mixin of ``SaveGame``)."""

    __slots__ = ()

    _boards: tuple[Board, ...]
    cards: tuple[Card, ...]

    @property
    def action_space(self) -> ActionSpace:
        """Every action a game on this ship with this deck can offer, numbered (built once per
        ship and deck): the snoops and steps to each room, each Move card moving either pawn to
        each room, the rescues (with no Aid or each Aid card), the end of a turn, and the
        discards (any set of Failure cards, listed with their ids sorted).

        >>> from luckylab import new_game
        >>> game = new_game("save", players=4, seed=3)
        >>> all(game.action_from_id(game.action_id(a)) == a for a in game.legal_actions())
        True
        """
        ship, cards = self._boards[0], self.cards
        found = _ACTION_SPACES.get((id(ship), id(cards)))
        if found is None or found[0] is not ship or found[1] is not cards:
            found = _ACTION_SPACES[id(ship), id(cards)] = (ship, cards,
                                                            _action_space(ship, cards))
        return found[2]

    @staticmethod
    def action_from_data(data: Mapping[str, Any]) -> Action:
        """Rebuild an action from ``action.to_data()`` (for replays)."""
        return action_from_data(ACTIONS, data, "a Save Doctor Lucky")

    def random_action(self: Any, rng: random.Random) -> Action:
        """``rng.choice(self.legal_actions())``: the same action from the same draw, without
        building the list (only its length and the part the draw lands in).

        >>> import random
        >>> from luckylab import new_game
        >>> game = new_game("save", players=4, seed=3)
        >>> game.random_action(random.Random(5)) == random.Random(5).choice(
        ...     game.legal_actions())
        True
        """
        seat = self._decider
        if self.phase == "over" or seat is None:
            return rng.choice(self.legal_actions())  # an empty list: IndexError, as choice
        if self.phase == "foil":
            return rng.choice(self._foil_actions(seat))
        here = self.positions[seat]
        self.exits(here)  # an unknown room raises here, as in legal_actions
        t = self._t
        parts: list[Sequence[Action]] = []
        if self.phase == "turn":
            parts.append(t.snoops[here])
        if not self.step_used:
            parts.append(t.steps[here])
        parts += self._move_card_groups(seat)
        rescues = 0  # Rescue(None), then one per Aid card, when a rescue may be tried
        if self.rescue_problem(seat) is None:
            aids = self.aids_in_hand(seat)
            rescues = 1 + len(aids)
        # as rng.choice: one draw below the length of the whole list (randrange(n) is it)
        i = rng.randrange(sum(map(len, parts)) + rescues + 1)
        for part in parts:
            size = len(part)
            if i < size:
                return part[i]
            i -= size
        if i < rescues:
            return Rescue(None) if i == 0 else Rescue(aids[i - 1])
        return END_TURN

    def cheapest_foil(self: Any) -> Foil | None:
        """In a failure round, the legal discard that stops the attempt with the fewest points,
        then the fewest cards (the first such in :meth:`legal_actions`), or None when the
        player asked cannot stop it. The same answer as looking through every legal discard,
        without listing them.

        >>> from luckylab import new_game
        >>> new_game("save", players=4, seed=3).cheapest_foil() is None  # no failure round
        True
        """
        if self.phase != "foil":
            return None
        return self._foiling.cheapest(self.hands[self._decider], self.attempt)
