"""Doctor Who's actions, and the pieces they act on.

Every decision of the game is one of these frozen dataclasses (``D-LOC-1`` ... ``D-CON-3``; the
table in :mod:`luckylab.games.doctorwho.rules` says which rule each one plays). Cards are named
by id (``luckylab.load_deck("doctor-who")``), a Location by its card id.

Beside them, the pieces an action moves that every part of the game shares: :class:`Loc`, a
Location in play with its stacks and counters, and the counts in the box (:data:`COUNTERS`,
:data:`TP_TOKENS`). The rules (:mod:`~luckylab.games.doctorwho.rules`), the action ids
(:mod:`~luckylab.games.doctorwho.ids`) and the fused turns
(:mod:`~luckylab.games.doctorwho.fast`) all read them here.

>>> Attack(130, (12, 14))
Attack(loc=130, cards=(12, 14))
>>> str(Pass((3, 7, 9)))
'pass 3, 7, 9'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from ..base import GameAction

__all__ = [
    "ACTIONS",
    "COUNTERS",
    "TP_TOKENS",
    "Action",
    "Attack",
    "Buy",
    "Defend",
    "Discard",
    "Loc",
    "MatchDiscard",
    "Pass",
    "PlayLocation",
    "PlaySupport",
    "Reserve",
    "TakeOver",
    "UseIronsides",
    "UseValiant",
]

COUNTERS = 5
"""Dalek and TARDIS counters per player."""
TP_TOKENS = 30
"""Time Point tokens in the game."""



@dataclass(frozen=True, slots=True)
class PlayLocation(GameAction):
    """Play Location ``card`` and take its TP (``D-LOC-1``); from ``take_from`` when the supply
    runs out (default: richest first)."""

    type_name: ClassVar[str] = "location"
    group: ClassVar[str] = "location"
    group_label: ClassVar[str] = "Play a Location"
    card: int
    take_from: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"play Location {self.card}"


@dataclass(frozen=True, slots=True)
class Defend(GameAction):
    """Play Defender ``cards`` on your Location ``loc`` (``D-DEF-1``)."""

    type_name: ClassVar[str] = "defend"
    group: ClassVar[str] = "defend"
    group_label: ClassVar[str] = "Defend a Location"
    loc: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"defend {self.loc} with {', '.join(map(str, self.cards))}"


@dataclass(frozen=True, slots=True)
class Attack(GameAction):
    """Play Enemy ``cards`` at Location ``loc`` of another player (``D-ENE-1``)."""

    type_name: ClassVar[str] = "attack"
    group: ClassVar[str] = "attack"
    group_label: ClassVar[str] = "Attack a Location"
    loc: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"attack {self.loc} with {', '.join(map(str, self.cards))}"


@dataclass(frozen=True, slots=True)
class TakeOver(GameAction):
    """Davros or Cyberking ``card`` takes control of the face-up attack at ``loc``."""

    type_name: ClassVar[str] = "takeover"
    group: ClassVar[str] = "takeover"
    group_label: ClassVar[str] = "Take over an attack (Davros, Cyberking)"
    card: int
    loc: int

    def __str__(self) -> str:
        return f"take over the attack on {self.loc} with {self.card}"


@dataclass(frozen=True, slots=True)
class PlaySupport(GameAction):
    """Play Support ``card``. ``loc``: the attacked Location of yours it acts on; ``to``:
    Chameleon Arch's new target; ``index``: which Enemy (by position) Captain Jack discards;
    ``cards``: Regeneration's discards, K-9's Defender, Mr Clever's Locations."""

    type_name: ClassVar[str] = "support"
    group: ClassVar[str] = "support"
    group_label: ClassVar[str] = "Play a Support card"
    card: int
    loc: int | None = None
    to: int | None = None
    index: int | None = None
    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"play Support {self.card}"


@dataclass(frozen=True, slots=True)
class Reserve(GameAction):
    """Put 1 or 2 hand cards face down into your reserve (``D-RES-1``)."""

    type_name: ClassVar[str] = "reserve"
    group: ClassVar[str] = "reserve"
    group_label: ClassVar[str] = "Put cards into your reserve"
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"reserve {', '.join(map(str, self.cards))}"


@dataclass(frozen=True, slots=True)
class Buy(GameAction):
    """Buy ``n`` cards, 5 TP each (``D-TP-1``)."""

    type_name: ClassVar[str] = "buy"
    group: ClassVar[str] = "buy"
    group_label: ClassVar[str] = "Buy cards with Time Points"
    n: int = 1

    def __str__(self) -> str:
        return f"buy {self.n}"


@dataclass(frozen=True, slots=True)
class Discard(GameAction):
    """Discard 1 or 2 cards for 1 TP each (``D-TP-2``)."""

    type_name: ClassVar[str] = "discard"
    group: ClassVar[str] = "discard"
    group_label: ClassVar[str] = "Discard cards for Time Points"
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"discard {', '.join(map(str, self.cards))} for TP"


@dataclass(frozen=True, slots=True)
class Pass(GameAction):
    """End the turn: pass these cards to the right (``D-TURN-3``)."""

    type_name: ClassVar[str] = "pass"
    group: ClassVar[str] = "pass"
    group_label: ClassVar[str] = "End the turn: pass cards to the right"
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"pass {', '.join(map(str, self.cards))}"


@dataclass(frozen=True, slots=True)
class UseIronsides(GameAction):
    """Defending with Ironsides: pay 1 TP for +1 (``pay=True``) or not."""

    type_name: ClassVar[str] = "ironsides"
    group: ClassVar[str] = "ironsides"
    group_label: ClassVar[str] = "Ironsides: pay 1 TP for +1 defence?"
    pay: bool

    def __str__(self) -> str:
        return "pay 1 TP for +1 defence" if self.pay else "keep the TP"


@dataclass(frozen=True, slots=True)
class UseValiant(GameAction):
    """A defence is lost: play The Valiant (``play=True``) or not."""

    type_name: ClassVar[str] = "valiant"
    group: ClassVar[str] = "valiant"
    group_label: ClassVar[str] = "Play The Valiant?"
    play: bool

    def __str__(self) -> str:
        return "play The Valiant" if self.play else "do not play The Valiant"


@dataclass(frozen=True, slots=True)
class MatchDiscard(GameAction):
    """The attacker's matching discard after beating a defence (``D-CON-3``)."""

    type_name: ClassVar[str] = "match"
    group: ClassVar[str] = "match"
    group_label: ClassVar[str] = "Discard Enemies to match the defence"
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"discard {', '.join(map(str, self.cards)) or 'nothing'} to match"


Action = (PlayLocation | Defend | Attack | TakeOver | PlaySupport | Reserve | Buy | Discard
          | Pass | UseIronsides | UseValiant | MatchDiscard)

ACTIONS = (PlayLocation, Defend, Attack, TakeOver, PlaySupport, Reserve, Buy, Discard, Pass,
           UseIronsides, UseValiant, MatchDiscard)
"""Every kind of action, in the order the action ids number them."""


@dataclass
class Loc:
    """A Location in play: its owner, face-down Defenders, the attack on it (Enemy cards, which
    of them are face up, the attacker's Dalek counter) and the owner's TARDIS counter."""

    owner: int
    defenders: list[int] = field(default_factory=list)
    enemies: list[int] = field(default_factory=list)
    up: set[int] = field(default_factory=set)
    attacker: int | None = None
    tardis: bool = False
