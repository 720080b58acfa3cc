"""Kill Doctor Lucky (1996 rules, 1997 board, 2002 cards), one file per idea:

==============  ==========================================================================
``rules.py``    THE RULEBOOK: :class:`KillGame` (setup, the rules' questions such as
                ``can_attack``, the legal actions, what each action does, the turn flow,
                the end), rule IDs beside the lines (``docs/rules/kill.md``)
``actions.py``  the actions a player takes (:class:`Snoop`, :class:`Step`, :class:`PlayCard`,
                :class:`Attack`, :class:`EndTurn`, :class:`Foil`)
``view.py``     what a seat sees: :class:`KillView` (``game.view(seat)``), the observation,
                the worlds a search deals
``ids.py``      the actions as numbers (the action space) and the legal actions counted and
                picked one at a time
``tables.py``   the tables derived from the rules once per board, and the bounded caches
``fast.py``     the fused turns: the default bots and the rules in one function per turn,
                run only for :class:`KillGame` itself (a subclass plays ``rules.py``)
==============  ==========================================================================

>>> from luckylab.games.kill import Attack, KillGame
>>> game = KillGame(players=3, seed=1)
>>> Attack() in game.legal_actions(), game.view(0).can_attack(0)
(False, False)
"""

from ..foiling import FoilRound
from .actions import Attack, EndTurn, Foil, PlayCard, Snoop, Step
from .rules import KillGame, attack_value, doctor_next, foil_rules
from .view import KillView

__all__ = [
    "Attack",
    "EndTurn",
    "Foil",
    "FoilRound",
    "KillGame",
    "KillView",
    "PlayCard",
    "Snoop",
    "Step",
    "attack_value",
    "doctor_next",
    "foil_rules",
]
