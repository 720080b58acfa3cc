"""Kill Doctor Lucky's derived tables and bounded caches: what the rules compute once per board
(or per player count) and look up afterwards, so the rules in :mod:`.rules` read as rules.

Nothing here is a rule of its own: :class:`Tables` is built from the board and from the rules
that :mod:`.rules` hands in (Doctor Lucky's next space, where a card moves a pawn, the foiling
rules), and every cache is a memory bound around an answer the rules give anyway.

>>> from luckylab import load_board
>>> from luckylab.games.kill.rules import KillGame, card_reach, doctor_next, foil_rules
>>> mansion = load_board("kill-doctor-lucky")
>>> rules = (doctor_next, card_reach, foil_rules(), KillGame.sight)
>>> tables = board_tables(mansion, *rules)
>>> tables is board_tables(mansion, *rules)   # once per board
True
>>> tables.exits["Foyer"][:2], "Foyer" in tables.rooms
(('Drawing Room', 'Piazza'), True)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from ...boards.board import Board
from ...cards import Card, load_deck
from ..base import seats_from_left
from ..foiling import FoilRules
from .actions import Attack, EndTurn, Pawn, PlayCard, Snoop, Step

__all__ = ["CACHE_SIZE", "END_TURN", "Tables", "attacks", "board_tables", "card_plays",
           "missing_rooms", "others_at", "seats_left"]

CACHE_SIZE = 20_000
"""Entries of a board's lazily filled caches (a memory bound: many players, long runs)."""

END_TURN = (EndTurn(),)
"""The end of a turn, as :meth:`~.rules.KillGame.legal_actions` lists it (a frozen value)."""

Reach = tuple[frozenset[str], tuple[str, ...]]
"""Where a card moves a pawn from one space: the targets as a set, and sorted."""


class Tables:
    """Read-only lookups for one board, built once and shared by every game on it (and every
    clone): the hot paths of the engine read these instead of the networkx graph and the Card
    objects. Where an answer feeds a choice, its order is the order the plain code gave
    (sorted).

    ``doctor_next(board, space)``, ``card_reach(board, card, space)`` and ``foiling`` are the
    rules these tables are derived from (``K-DOC-1``, ``K-ACT-1``, ``K-FAIL-1``; see
    :mod:`.rules`); ``sight`` is the rule (``KillGame.sight``) whose answers ``unseen``
    remembers, so that a game class with another sight gets tables of its own. The ``*_view``
    fields are the same tables behind read-only mappings, for :class:`~.view.KillView`.
    """

    __slots__ = ("exits", "doors", "rooms", "where", "doctor_next", "vis", "all_spaces", "kinds",
                 "luck", "reach", "designs", "moving", "weapons", "failures", "unseen", "snoops",
                 "steps", "plays_self", "plays_doctor", "attacks", "foiling", "doors_view",
                 "exits_view", "reach_view")

    def __init__(self, board: Board, doctor_next: Callable[[Board, str], str],
                 card_reach: Callable[[Board, Card, str], frozenset[str]],
                 foiling: FoilRules, sight: Callable[..., frozenset[str]]) -> None:
        spaces = board.spaces
        self.exits = {s: tuple(sorted(board.graph[s])) for s in spaces}  # sorted neighbours
        self.doors = {s: frozenset(board.graph[s]) for s in spaces}
        self.rooms = frozenset(s for s in spaces if board.kind(s) == "room")
        self.where = {s: s if board.number(s) is None else f"{s} ({board.number(s)})"
                      for s in spaces}
        self.doctor_next = {s: doctor_next(board, s) for s in spaces}  # K-DOC-1
        self.vis = {s: board.visible_from(s) for s in spaces}  # K-SIGHT-1
        self.all_spaces = frozenset(spaces)
        cards = load_deck("kill")
        self.kinds = tuple(c.kind for c in cards)  # by card id
        self.luck = tuple(c.luck for c in cards)
        # by card id: for a Move or Room card, start -> (its targets, the targets sorted), one
        # table per card design (the eight Move-1 cards share one); None for other cards
        designs: dict[tuple[Any, ...], dict[str, Reach]] = {}
        reach: list[dict[str, Reach] | None] = []
        for c in cards:
            if c.kind not in ("move", "room"):
                reach.append(None)
                continue
            design = (c.kind, c.steps, c.room)
            if design not in designs:
                designs[design] = {}
                for s in spaces:
                    targets = card_reach(board, c, s)  # K-ACT-1
                    designs[design][s] = (targets, tuple(sorted(targets)))
            reach.append(designs[design])
        self.reach = reach
        self.designs = [(c.kind, c.steps, c.room) if c.kind in ("move", "room") else None
                        for c in cards]
        self.moving = frozenset(c.id for c in cards if c.kind in ("move", "room"))
        self.weapons = frozenset(c.id for c in cards if c.kind == "weapon")
        self.failures = frozenset(c.id for c in cards if c.kind == "failure")
        # the spaces other players stand on -> the spaces none of them sees (under ``sight``),
        # filled by KillGame.unseen_spaces, emptied when it holds CACHE_SIZE
        self.unseen: dict[frozenset[str], frozenset[str]] = {}
        # actions are frozen values: legal_actions() hands out the same ones again
        self.snoops = {s: (Snoop(s), *(Snoop(n) for n in self.exits[s])) for s in spaces}
        self.steps = {s: tuple(Step(n) for n in self.exits[s]) for s in spaces}
        # by card id, start -> the PlayCard actions moving yourself / Doctor Lucky from there
        self.plays_self: list[dict[str, tuple[PlayCard, ...]]] = [{} for _ in cards]
        self.plays_doctor: list[dict[str, tuple[PlayCard, ...]]] = [{} for _ in cards]
        # the Weapons in a hand (sorted) -> the attacks
        self.attacks: dict[tuple[int, ...], tuple[Attack, ...]] = {}
        self.foiling = foiling  # K-FAIL-1
        self.doors_view = MappingProxyType(self.doors)
        self.exits_view = MappingProxyType(self.exits)
        self.reach_view = tuple(None if r is None else MappingProxyType(r) for r in reach)


@lru_cache(maxsize=16)
def board_tables(board: Board, doctor_next: Callable[[Board, str], str],
                 card_reach: Callable[[Board, Card, str], frozenset[str]],
                 foiling: FoilRules, sight: Callable[..., frozenset[str]]) -> Tables:
    """The :class:`Tables` of ``board`` under these rules, built once."""
    return Tables(board, doctor_next, card_reach, foiling, sight)


@lru_cache(maxsize=16)
def missing_rooms(board: Board) -> list[str]:
    """The rooms named by Room cards that ``board`` lacks (sorted)."""
    return sorted({c.room for c in load_deck("kill") if c.kind == "room"} - set(board.spaces))


@lru_cache(maxsize=16)
def seats_left(players: int) -> tuple[tuple[int, ...], ...]:
    """By seat: ``seats_from_left(range(players), seat)`` (Kill's seats never change)."""
    return tuple(tuple(seats_from_left(range(players), s)) for s in range(players))


@lru_cache(maxsize=16)
def others_at(players: int) -> tuple[itemgetter[Any], ...]:
    """By seat: a function from ``position`` to the spaces of the other seats (a tuple)."""
    others = [[s for s in range(players) if s != seat] for seat in range(players)]
    return tuple(itemgetter(*o) if len(o) > 1 else itemgetter(o[0], o[0]) for o in others)


def card_plays(tables: Tables, card_id: int, pawn: Pawn, where: str) -> tuple[PlayCard, ...]:
    """Every :class:`PlayCard` of a Move or Room card moving ``pawn`` from ``where``, in the
    order of its sorted targets (made once per board)."""
    cache = (tables.plays_self if pawn == "self" else tables.plays_doctor)[card_id]
    found = cache.get(where)
    if found is None:
        found = cache[where] = tuple(PlayCard(card_id, pawn, to)
                                     for to in tables.reach[card_id][where][1])  # type: ignore[index]
    return found


def attacks(tables: Tables, weapons: tuple[int, ...]) -> tuple[Attack, ...]:
    """Bare-handed, then with each of ``weapons`` (ids sorted): made once per hand of Weapons."""
    cache = tables.attacks
    found = cache.get(weapons)
    if found is None:
        if len(cache) >= CACHE_SIZE:
            cache.clear()
        found = cache[weapons] = (Attack(None), *(Attack(c) for c in weapons))
    return found
