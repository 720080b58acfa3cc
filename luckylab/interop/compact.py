"""Compact action ids: one protocol action as a short run of small sub-decisions.

The protocol numbers every action a game variant can ever offer
(:mod:`luckylab.games.actions`), exactly, and the numbers are huge: a foil is any subset of
the Luck cards (a bitmask), an Island move assigns spaces to several pawns, so the Island's
space has about 2**57 ids and Doctor Who's about 2**151. OpenSpiel builds masks and tensors of
``num_distinct_actions()`` entries and PettingZoo needs a ``Discrete`` space with an action
mask, so neither can take those numbers.

The compact view writes a protocol id in base :attr:`CompactIds.base`, most significant digit
first, and lets the seat choose it one digit at a time. A compact id is ``position * base +
digit`` ("digit ``digit`` at place ``position``"), so it means the same thing in every state,
and there are ``places * base`` of them. A seat only ever decides the places where its legal
actions differ: the places they share are filled in without asking, and the action is applied
as soon as one legal action is left. A variant whose protocol space is at most
:data:`DIRECT` ids keeps them as they are (one place; Panic Island!'s 127 ids).

>>> ids = CompactIds(size=1000, base=16)
>>> ids.places, ids.num_ids
(3, 48)
>>> legal = [0x123, 0x12f, 0x3e0]
>>> ids.legal(legal)              # place 0 decides: digit 1 or digit 3
[1, 3]
>>> narrowed = ids.narrow(legal, 1)
>>> narrowed, ids.legal(narrowed)  # place 1 is 2 for both, so place 2 decides: 3 or f
([291, 303], [35, 47])
>>> ids.narrow(narrowed, 47)
[303]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ActionSpaceError, IllegalAction

__all__ = ["DIRECT", "CompactIds"]

DIRECT = 256
"""A protocol space of at most this many ids is used as it is."""


class CompactIds:
    """The compact ids of a protocol action space of ``size`` ids (see the module)."""

    def __init__(self, size: int, base: int = 16) -> None:
        if type(size) is not int or size < 1:
            raise ActionSpaceError(f"an action space has a whole number >= 1 of ids, not "
                                   f"{size!r}")
        if type(base) is not int or base < 2:
            raise ActionSpaceError(f"the base is a whole number >= 2, not {base!r}")
        self.size = size
        if size <= max(DIRECT, base):
            self.base, self.places = size, 1
        else:
            self.base, self.places = base, 1
            while base ** self.places < size:
                self.places += 1
        self.num_ids = self.base * self.places
        self._scale = [self.base ** (self.places - 1 - p) for p in range(self.places)]

    def digit(self, protocol_id: int, place: int) -> int:
        """The digit of ``protocol_id`` at ``place`` (0 is the most significant)."""
        return protocol_id // self._scale[place] % self.base

    def place(self, candidates: Sequence[int]) -> int:
        """The place the seat decides now: the first where ``candidates`` (the protocol ids
        still possible, never empty) differ; the last place when only one is left.

        The ids that share their first digits form one run of numbers, so the smallest and
        the largest candidate differ first where any two do: two comparisons a place, not one
        per candidate."""
        low, high = min(candidates), max(candidates)
        for place, scale in enumerate(self._scale):
            if low // scale != high // scale:
                return place
        return self.places - 1

    def legal(self, candidates: Sequence[int]) -> list[int]:
        """The compact ids the seat may choose now, ascending."""
        place = self.place(candidates)
        scale, base = self._scale[place], self.base
        offset = place * base
        return sorted({offset + c // scale % base for c in candidates})

    def narrow(self, candidates: Sequence[int], compact_id: int) -> list[int]:
        """The candidates left after choosing ``compact_id``; :class:`IllegalAction` if it is
        not one of :meth:`legal`."""
        place = self.place(candidates)
        if type(compact_id) is not int or compact_id // self.base != place:
            raise IllegalAction(f"compact id {compact_id!r} is not legal now: choose one of "
                                f"{self.legal(candidates)}")
        digit, scale, base = compact_id % self.base, self._scale[place], self.base
        left = [c for c in candidates if c // scale % base == digit]
        if not left:
            raise IllegalAction(f"compact id {compact_id} is not legal now: choose one of "
                                f"{self.legal(candidates)}")
        return left

    def choose(self, engine: Any, candidates: Sequence[int], compact_id: int) -> list[int] | None:
        """Choose ``compact_id`` among ``candidates`` for ``engine``'s seat: the candidates
        left while more than one remains, else None once the one protocol action left has been
        applied to ``engine`` (trusted: every candidate was one of its legal actions)."""
        left = self.narrow(candidates, compact_id)
        if len(left) > 1:
            return left
        engine.apply_trusted(engine.action_from_id(left[0]))
        return None

    def describe(self, compact_id: int) -> str:
        """``compact_id`` in words."""
        place, digit = divmod(compact_id, self.base)
        return f"digit {digit} at place {place + 1} of {self.places}"
