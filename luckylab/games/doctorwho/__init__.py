"""Doctor Who: The Card Game (Martin Wallace, Cubicle 7): face-down stacks, passing, a scoring
race. The rules file is ``docs/rules/doctorwho.md`` (rule IDs ``D-SET-1`` ...).

Where each part lives (a student who wants the rules opens ``rules.py``):

- ``rules.py``: the rulebook. :class:`DoctorWhoGame`: setup, the legal actions, the check and
  the effect of every action, conflicts, the turn and the end, the score, with the rule IDs
  beside the lines.
- ``actions.py``: the actions (``PlayLocation``, ``Defend``, ``Attack`` ...), a Location in
  play (:class:`Loc`) and the counters in the box.
- ``view.py``: what a seat may know: ``observation``, ``determinize`` and the seat's view
  (:class:`DoctorWhoView`, ``game.view(seat)``), which bots, widgets and analyses read.
- ``ids.py``: the fixed action space (action ids).
- ``tables.py``: the card sets the legal actions are made of, worked out once per card list.
- ``fast.py``: the fused turns (the default bots and the rules in one loop), which
  ``play_out`` runs only for this very class: a subclass that changes a rule plays its rules.

>>> from luckylab.games.doctorwho import DoctorWhoGame, Pass
>>> game = DoctorWhoGame(players=3, seed=1)
>>> game.view(0).hand_size(2), Pass in [type(a) for a in game.legal_actions()]
(2, False)
"""

from __future__ import annotations

from .actions import (
    Attack,
    Buy,
    Defend,
    Discard,
    Loc,
    MatchDiscard,
    Pass,
    PlayLocation,
    PlaySupport,
    Reserve,
    TakeOver,
    UseIronsides,
    UseValiant,
)
from .rules import DoctorWhoGame, match_options, score
from .view import DoctorWhoView

__all__ = [
    "Attack",
    "Buy",
    "Defend",
    "Discard",
    "DoctorWhoGame",
    "DoctorWhoView",
    "Loc",
    "MatchDiscard",
    "Pass",
    "PlayLocation",
    "PlaySupport",
    "Reserve",
    "TakeOver",
    "UseIronsides",
    "UseValiant",
    "match_options",
    "score",
]
