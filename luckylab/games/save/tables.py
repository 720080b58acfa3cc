"""Save Doctor Lucky's derived tables: the ship as it sinks, and lookups made once per ship or
per deck and shared by every game (and every copy of a game) that uses it.

Nothing here is a rule of its own: each table answers a question the rulebook
(:mod:`luckylab.games.save.rules`) asks many times, the same for every game on the same ship
or deck, so it is worked out once. The rule each one serves is named beside it.

- :func:`sinking_boards`, :func:`ship_decks`: the ship with 0, 1, 2 ... decks sunk
  (``S-SINK-1``), and its deck letters (``S-BOARD-1``);
- :class:`ShipTables`: per board of the sinking ship, each room's exits, names, sight, the
  snoops and steps out of it (frozen actions, handed out again), Doctor Lucky's own move and
  the Move cards' destinations as they are found;
- :func:`deck_tables`, :func:`foil_rules`: per deck, the Failure points, Aid and Move cards,
  and the failure round's rules (``S-FAIL-*``).

Every cache here is bounded (``lru_cache`` sizes; the dictionaries are emptied when they reach
64 entries), so a long session on many teachers' ships stays small.

>>> from luckylab import load_board
>>> ship = load_board("save-doctor-lucky")
>>> ship_decks(ship), [len(b) for b in sinking_boards(ship)]
(('A', 'B', 'C', 'D'), [28, 21, 14, 6])
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import networkx as nx

from ...boards.board import Board
from ...cards import Card
from ...errors import BoardError
from ..foiling import FoilRules
from .actions import Foil, PlayMove, Snoop, Step

__all__ = ["ShipTables", "deck_tables", "foil_rules", "ship_boards", "ship_decks",
           "ship_tables", "sinking_boards"]


# -- the ship as it sinks --------------------------------------------------------------------
@lru_cache(maxsize=16)
def sinking_boards(board: Board) -> tuple[Board, ...]:
    """The ship with 0, 1, 2, ... of its lowest decks sunk (``S-SINK-1``), one Board each.

    Index ``k`` is the board after ``k`` decks sank; the last one holds only the top deck.
    Sunken rooms leave the graph *and* the sight table; sight is derived again from the
    geometry (for a geometry board) so no line runs through flooded rooms.

    >>> from luckylab import load_board
    >>> boards = sinking_boards(load_board("save-doctor-lucky"))
    >>> [len(b) for b in boards]
    [28, 21, 14, 6]
    """
    decks = ship_decks(board)
    out = [board]
    for k in range(1, len(decks)):
        gone = [s for s in board.spaces if board.space(s).deck in decks[len(decks) - k:]]
        out.append(_board_without(board, gone, f"{board.name}, decks {', '.join(decks[:-k])}"))
    return tuple(out)


def ship_decks(board: Board) -> tuple[str, ...]:
    """The deck letters of a ship, top deck first (``S-BOARD-1``); raises BoardError unless
    every space has a deck and every deck has a numbered room."""
    decks = sorted({board.space(s).deck or "" for s in board.spaces})
    if "" in decks:
        missing = [s for s in board.spaces if not board.space(s).deck]
        raise BoardError(board.key, "spaces.deck", f"every space of a ship needs a deck; "
                                                   f"these have none: {missing}")
    for d in decks:
        if not any(board.number(s) is not None for s in board.spaces if board.space(s).deck == d):
            raise BoardError(board.key, "spaces.number", f"deck {d} has no numbered room")
    return tuple(decks)


def _board_without(board: Board, gone: list[str], name: str) -> Board:
    if board.geometry is not None:
        from ...boards.geometry import board_without

        return board_without(board, gone, name=name)
    # A graph-format ship (a teacher's own): keep the rest of the graph and of the sight table.
    keep = [s for s in board.spaces if s not in set(gone)]
    graph = nx.Graph(board.graph.subgraph(keep))
    visible = {s: board.visible_from(s) & set(keep) for s in keep}
    return Board(graph=graph, visible=visible, name=name, key=board.key, status=board.status,
                 source=board.source, notes=board.notes,
                 path=[s for s in board.path if s in set(keep)], start=board.start)


@lru_cache(maxsize=64)
def _exits(board: Board) -> dict[str, tuple[str, ...]]:
    """Each room's neighbours (one door away), sorted: computed once per board."""
    return {s: tuple(sorted(board.neighbors(s))) for s in board.spaces}


@lru_cache(maxsize=16)
def ship_boards(full: Board) -> tuple[tuple[str, ...], tuple[Board, ...]]:
    """A ship's decks and sinking boards, checked once per board (``S-SINK-1``, ``S-DOC-2``);
    raises BoardError (not cached: every game on a bad ship raises it again)."""
    decks = ship_decks(full)
    boards = sinking_boards(full)
    # S-DOC-2 must always have an answer: every unnumbered room keeps a numbered neighbour
    # on every smaller board on which it is still afloat.
    for b in boards:
        for s in b.spaces:
            if b.number(s) is None and not any(b.number(n) is not None
                                               for n in b.neighbors(s)):
                raise BoardError(full.key, f"spaces ({s})",
                                 f"unnumbered room with no numbered neighbour on {b.name}: "
                                 "Doctor Lucky could not leave it (S-DOC-2)")
    return decks, boards


class ShipTables:
    """Read-only lookups for one board of the sinking ship, built once and shared by every game
    (and clone) on it: the hot paths read these instead of asking the board each time. Lists
    that feed a choice keep the order the plain code gave (exits sorted)."""

    __slots__ = ("board", "exits", "where", "vis", "snoops", "steps", "doctor_step",
                 "destinations", "plays")

    def __init__(self, board: Board) -> None:
        self.board = board
        spaces = board.spaces
        self.exits = _exits(board)
        self.where = {s: s if board.number(s) is None else f"{board.number(s)}, {s}"
                      for s in spaces}
        self.vis = {s: board.visible_from(s) for s in spaces}  # S-SAVE-1 sight, same room too
        # actions are frozen values: legal_actions() hands out the same ones again
        self.snoops = {s: (Snoop(s), *(Snoop(n) for n in self.exits[s])) for s in spaces}
        self.steps = {s: tuple(Step(n) for n in self.exits[s]) for s in spaces}
        self.doctor_step: dict[str, str] = {}  # his own move from a room (S-DOC-1, S-DOC-2)
        # (deck_steps, named room, printed steps, start) -> (destinations sorted, as a set)
        self.destinations: dict[tuple[Any, ...], tuple[tuple[str, ...], frozenset[str]]] = {}
        self.plays: dict[tuple[Any, ...], tuple[PlayMove, ...]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        # copied or pickled as "the tables of this board" (one per board in each process)
        return ship_tables, (self.board,)


@lru_cache(maxsize=64)
def ship_tables(board: Board) -> ShipTables:
    """The :class:`ShipTables` of ``board`` (one per board, shared)."""
    return ShipTables(board)


# -- per deck --------------------------------------------------------------------------------
def deck_tables(cards: tuple[Card, ...]) -> tuple[tuple[int, ...], frozenset[int],
                                                  frozenset[int]]:
    """Per deck, made once: each card's Failure points (0 for other cards), the ids of the
    Aid cards and the ids of the Move cards."""
    hit = _DECK_TABLES.get(id(cards))
    if hit is None or hit[0] is not cards:
        points = tuple(c.luck if c.kind == "failure" else 0 for c in cards)
        aids = frozenset(c.id for c in cards if c.kind == "aid")
        moves = frozenset(c.id for c in cards if c.kind == "move")
        if len(_DECK_TABLES) >= 64:
            _DECK_TABLES.clear()
        hit = _DECK_TABLES[id(cards)] = (cards, points, aids, moves)
    return hit[1], hit[2], hit[3]


_DECK_TABLES: dict[int, tuple[Any, ...]] = {}  # id(cards) -> (cards, points, aids, moves)


def foil_rules(cards: tuple[Card, ...], last_must_foil: bool = True) -> FoilRules:
    """The failure round's rules for a deck (made once per deck and option): Failure cards
    count, worth their points (``S-FAIL-1``); no card past the one that stops the attempt
    (``S-FAIL-1``); the last player asked must stop it when able (``S-FAIL-3``, the
    ``last_must_foil`` option); the loser is named (``S-FAIL-2``). Cards of equal points are
    interchangeable (a Failure card has no other use), so a listed discard takes the lowest
    ids of each value; ``apply`` accepts any discard the rules allow, listed or not.

    >>> from luckylab import load_deck
    >>> rules = foil_rules(load_deck("save"))
    >>> rules.stop_at_card, rules.last_must_stop, rules.values[89]
    (True, True, 3)
    """
    key = (id(cards), last_must_foil)
    hit = _FOIL_RULES.get(key)
    if hit is None or hit[0] is not cards:
        if len(_FOIL_RULES) >= 64:
            _FOIL_RULES.clear()
        rules = FoilRules([c.luck if c.kind == "failure" else None for c in cards], Foil,
                          stop_at_card=True, last_must_stop=last_must_foil,
                          names=[c.name for c in cards], unit="Failure point(s)",
                          counts="a Failure card; only Failure cards stop a rescue (S-FAIL-1)")
        hit = _FOIL_RULES[key] = (cards, rules)
    return hit[1]


_FOIL_RULES: dict[tuple[int, bool], tuple[tuple[Card, ...], FoilRules]] = {}
