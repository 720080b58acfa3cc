"""Integer ids for actions: a fixed action space per game variant.

Every action a game variant can ever offer has a stable integer id in
``range(space.size)``, the same in every state and every process (OpenSpiel's "distinct
actions"). A space is a list of :class:`Block` s, one per action class, each naming a
:class:`Codec` for every field; an id is the block's offset plus the fields' values in mixed
radix. Codecs:

- :class:`Choice` - one of a fixed tuple of values (seats, spaces, card ids, literals).
- :class:`Maybe` - ``None`` or a value of an inner codec.
- :class:`SubsetOf` - a sorted tuple of distinct values from a fixed tuple (a bitmask).
- :class:`CountsOf` - a sorted tuple of values with repeats, at most ``most`` of each (a
  multiset: "two 1s and a 3").
- :class:`Assignment` - a tuple of ``(key, value)`` pairs sorted by key, each key at most once
  ("this pawn to that space").

An action whose fields are not in the canonical form a codec expects (an unsorted tuple of
cards) has no id: :meth:`ActionSpace.action_id` raises, so the engines list canonical actions.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Play:
...     card: int
...     to: str | None
>>> @dataclass(frozen=True)
... class Pay:
...     cards: tuple[int, ...]
>>> space = ActionSpace([Block(Play, card=Choice((1, 2, 3)), to=Maybe(Choice(("A", "B")))),
...                      Block(Pay, cards=SubsetOf((1, 2, 3)))])
>>> space.size
17
>>> space.action_id(Play(2, "B")), space.action_id(Pay((1, 3)))
(7, 14)
>>> space.action_from_id(14)
Pay(cards=(1, 3))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from ..errors import IllegalAction, LuckyLabError

__all__ = ["ActionSpace", "ActionSpaceError", "Assignment", "Block", "Choice", "Codec",
           "CountsOf", "Maybe", "SubsetOf", "multisets"]


class ActionSpaceError(LuckyLabError, ValueError):
    """An action space declared wrong (a programming error in a game module)."""


class Codec:
    """Numbers the values of one action field ``0 .. size - 1``."""

    size: int

    def encode(self, value: Any) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def decode(self, number: int) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError


def _refuse(value: Any, allowed: str) -> IllegalAction:
    return IllegalAction(f"{value!r} has no action id: it must be {allowed}")


class Choice(Codec):
    """One of ``values`` (hashable, distinct)."""

    def __init__(self, values: Iterable[Any]) -> None:
        self.values = tuple(values)
        self.index = {(type(v), v): i for i, v in enumerate(self.values)}
        if len(self.index) != len(self.values):
            raise ActionSpaceError("Choice values must be distinct")
        self.size = len(self.values)

    def encode(self, value: Any) -> int:
        try:
            return self.index[(type(value), value)]
        except (KeyError, TypeError):
            shown = ", ".join(map(repr, self.values[:8])) + (" ..." if self.size > 8 else "")
            raise _refuse(value, f"one of {shown}") from None

    def decode(self, number: int) -> Any:
        return self.values[number]


class Maybe(Codec):
    """``None`` (number 0) or a value of ``inner`` (numbers 1 and up)."""

    def __init__(self, inner: Codec) -> None:
        self.inner = inner
        self.size = inner.size + 1

    def encode(self, value: Any) -> int:
        return 0 if value is None else 1 + self.inner.encode(value)

    def decode(self, number: int) -> Any:
        return None if number == 0 else self.inner.decode(number - 1)


class SubsetOf(Codec):
    """A tuple of distinct values from ``values``, in the order of ``values`` (a bitmask)."""

    def __init__(self, values: Iterable[Any]) -> None:
        self.choice = Choice(values)
        self.size = 1 << self.choice.size

    def encode(self, value: Any) -> int:
        if not isinstance(value, tuple):
            raise _refuse(value, "a tuple")
        number, last = 0, -1
        for v in value:
            i = self.choice.encode(v)
            if i <= last:
                raise _refuse(value, "distinct values in their fixed order")
            number |= 1 << i
            last = i
        return number

    def decode(self, number: int) -> tuple[Any, ...]:
        values = self.choice.values
        return tuple(values[i] for i in range(len(values)) if number >> i & 1)


class CountsOf(Codec):
    """A sorted tuple of values from ``values`` with at most ``most`` of each (a multiset)."""

    def __init__(self, values: Iterable[Any], most: int) -> None:
        self.choice = Choice(values)
        self.most = most
        self.size = (most + 1) ** self.choice.size

    def encode(self, value: Any) -> int:
        if not isinstance(value, tuple):
            raise _refuse(value, "a tuple")
        counts = [0] * self.choice.size
        last = -1
        for v in value:
            i = self.choice.encode(v)
            if i < last:
                raise _refuse(value, "values in their fixed order")
            last = i
            counts[i] += 1
            if counts[i] > self.most:
                raise _refuse(value, f"at most {self.most} of each value")
        number = 0
        for count in reversed(counts):
            number = number * (self.most + 1) + count
        return number

    def decode(self, number: int) -> tuple[Any, ...]:
        out: list[Any] = []
        for v in self.choice.values:
            number, count = divmod(number, self.most + 1)
            out.extend([v] * count)
        return tuple(out)


class Assignment(Codec):
    """A tuple of ``(key, value)`` pairs, keys in the order of ``keys``, each at most once."""

    def __init__(self, keys: Iterable[Any], values: Iterable[Any]) -> None:
        self.keys = Choice(keys)
        self.values = Choice(values)
        self.size = (self.values.size + 1) ** self.keys.size

    def encode(self, value: Any) -> int:
        if not isinstance(value, tuple):
            raise _refuse(value, "a tuple of (key, value) pairs")
        digits = [0] * self.keys.size
        last = -1
        for pair in value:
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise _refuse(value, "a tuple of (key, value) pairs")
            k = self.keys.encode(pair[0])
            if k <= last:
                raise _refuse(value, "pairs with distinct keys in their fixed order")
            last = k
            digits[k] = 1 + self.values.encode(pair[1])
        number = 0
        for digit in reversed(digits):
            number = number * (self.values.size + 1) + digit
        return number

    def decode(self, number: int) -> tuple[tuple[Any, Any], ...]:
        out = []
        for key in self.keys.values:
            number, digit = divmod(number, self.values.size + 1)
            if digit:
                out.append((key, self.values.decode(digit - 1)))
        return tuple(out)


@dataclass(frozen=True)
class _Field:
    name: str
    codec: Codec
    stride: int


class Block:
    """The ids of one action class: a codec for each of its fields (in the class's order)."""

    def __init__(self, cls: type, **codecs: Codec) -> None:
        self.cls = cls
        names = [f.name for f in dataclasses.fields(cls)]  # no ClassVar (type_name)
        if sorted(names) != sorted(codecs):
            raise ActionSpaceError(f"{cls.__name__}: codecs for {sorted(codecs)} but fields "
                             f"{sorted(names)}")
        fields, stride = [], 1
        for name in names:
            fields.append(_Field(name, codecs[name], stride))
            stride *= codecs[name].size
        self.fields = tuple(fields)
        self.size = stride

    def encode(self, action: Any) -> int:
        return sum(f.codec.encode(getattr(action, f.name)) * f.stride for f in self.fields)

    def decode(self, number: int) -> Any:
        values = {}
        for f in self.fields:
            values[f.name] = f.codec.decode(number // f.stride % f.codec.size)
        return self.cls(**values)


class ActionSpace:
    """All the actions of one game variant, numbered ``0 .. size - 1`` (see the module)."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = tuple(blocks)
        self._offset: dict[type, tuple[int, Block]] = {}
        offset = 0
        for block in self.blocks:
            if block.cls in self._offset:
                raise ActionSpaceError(f"two blocks for {block.cls.__name__}")
            self._offset[block.cls] = (offset, block)
            offset += block.size
        self.size = offset

    def action_id(self, action: Any) -> int:
        """The id of ``action``; :class:`~luckylab.errors.IllegalAction` if it has none."""
        try:
            offset, block = self._offset[type(action)]
        except (KeyError, TypeError):
            names = ", ".join(b.cls.__name__ for b in self.blocks)
            raise IllegalAction(f"{action!r} is not an action of this game; actions: "
                                f"{names}") from None
        return offset + block.encode(action)

    def action_from_id(self, number: Any) -> Any:
        """The action numbered ``number``; :class:`~luckylab.errors.IllegalAction` outside
        ``range(size)`` (the action need not be legal now: ask ``legal_actions()``)."""
        if type(number) is not int or not 0 <= number < self.size:
            raise IllegalAction(f"an action id is a whole number from 0 to {self.size - 1}, "
                                f"not {number!r}")
        for offset, block in self._offset.values():
            if number < offset + block.size:
                return block.decode(number - offset)
        raise AssertionError("unreachable: number < size")  # pragma: no cover


def multisets(values: Sequence[Any], most: int) -> list[tuple[Any, ...]]:
    """Every sorted tuple of ``values`` with at most ``most`` of each, shortest first (for
    tests and small spaces).

    >>> multisets((1, 2), 1)
    [(), (1,), (2,), (1, 2)]
    """
    out = []
    for k in range(len(values) * most + 1):
        for combo in combinations_with_replacement(values, k):
            if all(combo.count(v) <= most for v in set(combo)):
                out.append(combo)
    return out
