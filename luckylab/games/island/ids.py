"""The Island's action ids, and the big list of Moves counted and numbered without listing it.

Every action a game on a given board with a given number of seats can ever offer has a stable
integer id (an :class:`~luckylab.games.actions.ActionSpace`, built once per board and seat
count). A Move spread over a player's pawn and the Strangers is a large space (about 11,000
Moves at Move 4, 325,000 at Move 10): :meth:`IslandIds.count_moves` counts them and
:meth:`IslandIds.nth_move` builds the k-th in the order ``legal_actions()`` lists them, without
listing the others (random bots, widgets).

>>> from luckylab import new_game
>>> game = new_game("island", players=2, seed=1)
>>> game.count_moves() == sum(1 for a in game.legal_actions() if isinstance(a, Move))
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ...boards.board import Board
from ...cards import Card
from ...errors import IllegalAction
from ..actions import ActionSpace, Assignment, Block, Choice, Codec, Maybe, SubsetOf
from ..base import action_from_data
from .actions import (
    ACTIONS,
    DOCTOR,
    Action,
    Attack,
    DiscardLuck,
    Draw,
    Foil,
    GiveCard,
    Move,
    MoveCat,
    Pass,
    PlayHazard,
)
from .tables import board_tables, spread_count

__all__ = ["IslandIds", "MoveCodec", "island_action_space"]


class IslandIds:
    """The action ids of :class:`~luckylab.games.island.IslandGame` and the counting of Moves
    (a part of the game class: ``IslandGame`` inherits it)."""

    board: Board
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    strangers: tuple[int, ...]
    eliminated: set[int]
    move: dict[int, int]
    position: dict[int, str]
    _decider: Any
    _lone_moves: Any

    @staticmethod
    def action_from_data(data: Mapping[str, Any]) -> Action:
        """Rebuild an action from ``action.to_data()`` (for replays)."""
        return action_from_data(ACTIONS, data, "an Island")

    def move_actions(self, seat: int) -> Iterator[Move]:
        """Every Move ``seat`` may make now (``I-MOVE-1``; with Strangers ``I-STR-6``: its
        own pawn and the Strangers' share its Move), in a fixed order: the pawns in seat order,
        each staying or going to a space by distance (board order within a distance). The
        rule itself is checked by ``IslandGame._check_move``; a lone pawn's list is made once
        per board (:class:`~luckylab.games.island.tables.LoneMoves`)."""
        pawns = [seat, *(s for s in self.strangers if s not in self.eliminated)]
        budget = self.move[seat]
        board = self.board
        if len(pawns) == 1:  # no Strangers: the same as below, made once per board
            return iter(self._lone_moves[seat, self.position[seat], budget])

        def spread(i: int, left: int, chosen: tuple[tuple[int, str], ...]) -> Iterator[Move]:
            if i == len(pawns):
                if chosen:
                    yield Move(chosen)
                return
            pawn = pawns[i]
            here = self.position[pawn]
            yield from spread(i + 1, left, chosen)
            # In board order (not set order), so the list never depends on string hashing.
            for dest, steps in board.by_distance(here):
                if steps > left:
                    break
                if steps:
                    yield from spread(i + 1, left - steps, (*chosen, (pawn, dest)))

        return spread(0, budget, ())

    @property
    def action_space(self) -> ActionSpace:
        """Every action a game on this board with these seats can offer, numbered (built once
        per board and number of seats): Moves (pawns to spaces), cat moves, Hazards at each
        seat or Doctor Lucky, pass, draw, attacks, foils and penalty discards (any set of
        cards with Luck, listed with their ids sorted), and giving each card.

        >>> from luckylab import new_game
        >>> game = new_game("island", players=2, seed=1)
        >>> all(game.action_from_id(game.action_id(a)) == a for a in game.legal_actions())
        True
        """
        found = _ACTION_SPACES.get((id(self.board), len(self.seats)))
        if found is None or found[0] is not self.board:
            found = _ACTION_SPACES[id(self.board), len(self.seats)] = (
                self.board, island_action_space(self.board, self.seats, self.cards))
        return found[1]


    # A Move spread over several pawns (with Strangers) is a large space: about 11,000 Moves at
    # Move 4, 325,000 at Move 10. These count it and build the k-th Move of the order
    # legal_actions() uses, without listing the others (random agents, widgets).
    def _move_table(self, seat: int) -> tuple[list[tuple[int, tuple[tuple[str, int], ...]]],
                                              list[list[int]]]:
        """Per pawn: (pawn, its reachable (space, steps) within the budget); and ``ways[i][b]``:
        the number of ways pawns ``i..`` can use at most ``b`` steps (moving none included)."""
        budget = self.move[seat]
        pawns = [seat, *(s for s in self.strangers if s not in self.eliminated)]
        key = (budget, tuple(pawns), tuple(self.position[p] for p in pawns))
        memo = self.__dict__.get("_move_memo")
        if memo is not None and memo[0] == key:  # count_moves, then nth_move: one table
            return memo[1]
        by_distance = self.board.by_distance
        table = [(pawn, by_distance(self.position[pawn])) for pawn in pawns]
        tables = board_tables(self.board)
        ways = tables.spread_ways.get(key[::2])  # the same budget and spaces: the same counts
        if ways is None:
            rings = tables.ring_sizes
            ways = [[1] * (budget + 1)]
            for pawn in reversed(pawns):
                at = rings[self.position[pawn]]  # at[k]: how many spaces are k steps away
                after = ways[0]
                ways.insert(0, [spread_count(at, after, b) for b in range(budget + 1)])
            if len(tables.spread_ways) >= 100_000:  # a bounded cache
                tables.spread_ways.clear()
            tables.spread_ways[key[::2]] = ways
        self._move_memo = (key, (table, ways))
        return table, ways

    def has_moves(self, seat: int | None = None) -> bool:
        """Whether ``seat`` (default: the player deciding) may make any Move now: the same as
        ``count_moves(seat) > 0``, without counting."""
        seat = self._decider if seat is None else seat
        budget = self.move[seat]
        by_distance, position = self.board.by_distance, self.position
        for pawn in (seat, *self.strangers):
            if pawn in self.eliminated:
                continue
            reach = by_distance(position[pawn])
            if len(reach) > 1 and reach[1][1] <= budget:  # a space one step or more away
                return True
        return False

    def count_moves(self, seat: int | None = None) -> int:
        """How many different Moves ``seat`` (default: the player deciding) may make now.

        >>> from luckylab import new_game
        >>> game = new_game("island", players=2, seed=1)
        >>> game.count_moves() == sum(1 for a in game.legal_actions() if isinstance(a, Move))
        True
        """
        seat = self._decider if seat is None else seat
        return self._move_table(seat)[1][0][self.move[seat]] - 1  # less "move nobody"

    def nth_move(self, k: int, seat: int | None = None) -> Move:
        """The ``k``-th Move (from 0) in the order :meth:`legal_actions` lists them, built alone.

        >>> from luckylab import new_game
        >>> game = new_game("island", players=2, seed=1)
        >>> moves = [a for a in game.legal_actions() if isinstance(a, Move)]
        >>> all(game.nth_move(k) == move for k, move in enumerate(moves))
        True
        """
        seat = self._decider if seat is None else seat
        table, ways = self._move_table(seat)
        left = self.move[seat]
        if not isinstance(k, int) or not 0 <= k < ways[0][left] - 1:
            raise IndexError(f"there are {ways[0][left] - 1} Moves; no Move number {k!r}")
        k += 1  # the order starts with "move nobody", which is not a Move
        chosen: list[tuple[int, str]] = []
        for i, (pawn, reach) in enumerate(table):
            after = ways[i + 1]
            if k < after[left]:  # this pawn stays
                continue
            k -= after[left]
            for dest, steps in reach:
                if steps > left:
                    break
                if not steps:
                    continue
                if k < after[left - steps]:
                    chosen.append((pawn, dest))
                    left -= steps
                    break
                k -= after[left - steps]
        return Move(tuple(chosen))


class MoveCodec(Codec):
    """The ids of Island Moves: the pawns moved and where (an :class:`Assignment` of seats to
    spaces) in the order :meth:`IslandGame.legal_actions` lists them: the mover's own pawn
    first, then the Strangers in seat order. A Move whose first pawn comes after the second in
    seat order is numbered apart (its first pawn is the *lead*)."""

    def __init__(self, seats: tuple[int, ...], spaces: tuple[str, ...]) -> None:
        self.pairs = Assignment(seats, spaces)
        self.seats = Choice(seats)
        self.size = self.pairs.size * (self.seats.size + 1)

    def encode(self, value: Any) -> int:
        lead = 0
        if isinstance(value, tuple) and len(value) > 1 and all(
                isinstance(p, tuple) and len(p) == 2 for p in value[:2]):
            first, second = self.seats.encode(value[0][0]), self.seats.encode(value[1][0])
            if first > second:
                self.pairs.encode(value[1:])  # the others in seat order, or no id
                lead = 1 + first
                value = tuple(sorted(value, key=lambda pair: pair[0]))
        return self.pairs.encode(value) + self.pairs.size * lead

    def decode(self, number: int) -> tuple[tuple[int, str], ...]:
        lead, rest = divmod(number, self.pairs.size)
        pairs = self.pairs.decode(rest)
        if not lead:
            return pairs
        key = self.seats.values[lead - 1]
        if not pairs or pairs[0][0] == key or key not in dict(pairs):
            raise IllegalAction(f"no Move has the action id number {number} of its block")
        return ((key, dict(pairs)[key]), *(p for p in pairs if p[0] != key))


_ACTION_SPACES: dict[tuple[int, int], tuple[Board, ActionSpace]] = {}


def island_action_space(board: Board, seats: tuple[int, ...], cards: tuple[Card, ...]
                  ) -> ActionSpace:
    """The action space of the Island on ``board`` with ``seats`` (see
    ``IslandGame.action_space``)."""
    spaces = Choice(board.spaces)
    luck = tuple(c.id for c in cards if c.luck)
    return ActionSpace([
        Block(Move, moves=MoveCodec(seats, board.spaces)),
        Block(MoveCat, space=spaces),
        Block(PlayHazard, card=Choice(c.id for c in cards if c.kind == "hazard"),
              target=Choice((*seats, DOCTOR))),
        Block(Pass),
        Block(Draw),
        Block(Attack, weapon=Maybe(Choice(c.id for c in cards if c.kind == "weapon"))),
        Block(Foil, cards=SubsetOf(luck)),
        Block(GiveCard, card=Choice(c.id for c in cards)),
        Block(DiscardLuck, cards=SubsetOf(luck)),
    ])
