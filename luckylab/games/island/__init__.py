"""The Island of Doctor Lucky, played by the book: one folder, its rules in one file.

==============  ================================================================================
``rules.py``    **the rulebook**: :class:`IslandGame` (setup, who sees whom, what each player
                may do, what each action does, Doctor Lucky's walk, the end), rule IDs beside
                the lines. Start here; change a rule in a subclass of :class:`IslandGame`.
``actions.py``  the actions, one frozen dataclass per kind of decision
``view.py``     what a seat sees: ``observation``, ``determinize`` and :class:`IslandView`,
                the typed view that bots, widgets and analyses read (``game.view(seat)``);
                :func:`sight_report`, who sees whom for pawns placed anywhere (lesson 2)
``ids.py``      action ids, and the many Moves counted without listing them
``tables.py``   tables worked out once per board (Doctor Lucky's path, the cat's moves ...)
``fast.py``     the fused turns: the default bot and the rules in one plain function per
                turn, for simulations; run only for :class:`IslandGame` itself (a subclass
                that changes a rule plays through ``rules.py``)
==============  ================================================================================

Rule IDs (``I-SETUP-1`` ...) refer to ``docs/rules/island.md``.

>>> from luckylab.games.island import IslandGame, Pass
>>> game = IslandGame(players=4, seed=1)
>>> game.phase, game.names[game.current_player]
('phase1', 'Janet Principle')
>>> _ = game.apply(Pass())
>>> game.phase
'phase2'
"""

from .actions import (
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
from .rules import IslandAttempt, IslandGame, foil_rules, hand_size
from .view import IslandView, SightRow, sight_report

__all__ = [
    "DOCTOR",
    "Action",
    "Attack",
    "DiscardLuck",
    "Draw",
    "Foil",
    "GiveCard",
    "IslandAttempt",
    "IslandGame",
    "IslandView",
    "Move",
    "MoveCat",
    "Pass",
    "PlayHazard",
    "SightRow",
    "foil_rules",
    "hand_size",
    "sight_report",
]
