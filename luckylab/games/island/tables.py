"""The Island's derived tables: what the rules look up on every turn, worked out once per board
or deck, and the bounded caches. Nothing here is a rule; each table is one a rule reads, named
in a comment (``I-DOC-1``: Doctor Lucky's next stop ...).

A board never changes, so its tables are made on first use and kept while the board lives
(:data:`_TABLES` holds it weakly). The tables whose size grows with the square of the board
(:class:`CatMoves`, :class:`LoneMoves`) are kept only on boards of up to 200 spaces: a teacher's
5,000-space board makes them anew each time instead of keeping 25 million moves.

>>> from luckylab import load_board
>>> tables = board_tables(load_board("isla-fortuna"))
>>> tables.next_on_path["Sunset Beach"] == load_board("isla-fortuna").next_on_path("Sunset Beach")
True
>>> len(tables.cats["Frog Pond"]) == len(load_board("isla-fortuna").spaces) - 1
True
"""

from __future__ import annotations

import functools
import weakref
from dataclasses import dataclass
from typing import Any

from ...boards.board import Board
from ...cards import load_deck
from .actions import Move, MoveCat

__all__ = ["BoardTables", "CatMoves", "FilledOnUse", "LoneMoves", "RingSizes", "board_tables",
           "deck_luck", "spread_count"]


@dataclass(frozen=True)
class BoardTables:
    """What the rules look up on every turn, worked out once per board (boards never change)."""

    labels: dict[str, str]  # "12, Frog Pond" for a numbered space, else the name
    buildings: frozenset[str]
    next_on_path: dict[str, str]  # Doctor Lucky's next stop (I-DOC-1)
    upstream: dict[str, str]  # the stop before, for a Stranger's walk (I-STR-5)
    kinds: dict[str, str]  # each space's kind (a Hazard's target, I-HAZ-1)
    cats: CatMoves  # the cat's moves from each space, in board order (filled on use)
    lone_moves: LoneMoves  # one pawn's Moves, by (seat, space, budget) (filled on use)
    ring_sizes: dict[str, list[int]]  # [k]: how many spaces are k steps away (filled on use)
    spread_ways: dict[tuple[int, tuple[str, ...]], list[list[int]]]  # ids.py's counts


_TABLES: weakref.WeakKeyDictionary[Board, BoardTables] = weakref.WeakKeyDictionary()


def board_tables(board: Board) -> BoardTables:
    tables = _TABLES.get(board)
    if tables is None:
        path = board.path
        tables = _TABLES[board] = BoardTables(
            labels={sp: sp if board.number(sp) is None else f"{board.number(sp)}, {sp}"
                    for sp in board.spaces},
            buildings=frozenset(board.spaces_of_kind("building")),
            next_on_path={sp: board.next_on_path(sp) for sp in path},
            upstream={sp: path[(i - 1) % len(path)] for i, sp in enumerate(path)},
            kinds={sp: board.kind(sp) for sp in board.spaces},
            cats=CatMoves(board),
            lone_moves=LoneMoves(board),
            ring_sizes=RingSizes(board),
            spread_ways={},
        )
    return tables


class FilledOnUse(dict):  # type: ignore[type-arg]
    """A table of a board, filled per key on first use by :meth:`make`. It holds its board
    weakly (the tables must not keep their board alive). ``most_spaces``: on a bigger board a
    value is made anew each time instead of kept (None: always kept)."""

    most_spaces: int | None = None

    def __init__(self, board: Board) -> None:
        super().__init__()
        self._board = weakref.ref(board)

    def __missing__(self, key: Any) -> Any:
        board = self._board()
        value = self.make(board, key)
        if self.most_spaces is None or len(board.spaces) <= self.most_spaces:
            self[key] = value
        return value

    def make(self, board: Board, key: Any) -> Any:  # pragma: no cover - every table has one
        raise NotImplementedError


class RingSizes(FilledOnUse):
    """``space -> [how many spaces are 0, 1, 2, ... steps away]``."""

    def make(self, board: Board, space: str) -> list[int]:
        reach = board.by_distance(space)
        sizes = [0] * (reach[-1][1] + 1)
        for _, steps in reach:
            sizes[steps] += 1
        return sizes


class CatMoves(FilledOnUse):
    """``space -> the cat's moves from there to every other space``, in board order, kept on a
    board of up to 200 spaces (the actions are immutable, so the games share them; a bigger
    board makes them anew each time: it would keep a move per pair)."""

    most_spaces = 200

    def make(self, board: Board, cat: str) -> tuple[MoveCat, ...]:
        return tuple(MoveCat(space) for space in board.spaces if space != cat)


class LoneMoves(FilledOnUse):
    """``(seat, space, budget) -> the Moves of that seat's pawn alone``, from ``space`` with at
    most ``budget`` steps, in the order ``legal_actions()`` lists them (by distance), kept as
    :class:`CatMoves` keeps its moves."""

    most_spaces = 200

    def make(self, board: Board, key: tuple[int, str, int]) -> tuple[Move, ...]:
        seat, here, budget = key
        moves = []
        for dest, steps in board.by_distance(here):
            if steps > budget:
                break
            if steps:
                moves.append(Move.to(seat, dest))
        return tuple(moves)


def spread_count(at: list[int], after: list[int], budget: int) -> int:
    """The ways to move one pawn (``at[k]`` spaces ``k`` steps away; staying counts) and then
    the later pawns (``after[b]`` ways with at most ``b`` steps), with at most ``budget``."""
    total = after[budget]
    for k in range(1, min(budget, len(at) - 1) + 1):
        total += at[k] * after[budget - k]
    return total


@functools.cache
def deck_luck() -> tuple[list[int], float]:
    """Each Island card's Luck by id, and the deck's mean Luck (shared by every game, read only)."""
    luck = [c.luck for c in load_deck("island")]
    return luck, sum(luck) / len(luck)
