"""Save Doctor Lucky: a sinking ship, and rescues that need a witness.

One game, one folder. Where to look:

==============  ================================================================================
``rules.py``    **the rulebook**: :class:`SaveGame`, its setup, the rules' questions (may this
                seat try a rescue? who sees it?), the legal actions, what each action does, the
                turn flow, the sinking ship, the end; rule IDs (``S-SAVE-1`` ...) beside the lines
``actions.py``  the actions a seat takes: ``Snoop``, ``Step``, ``PlayMove``, ``Rescue``,
                ``EndTurn``, ``Foil``
``view.py``     what a seat sees: ``observation``, ``determinize``, and :class:`SaveView`
                (``game.view(seat)``), which bots, widgets and analyses read
``ids.py``      action ids (the action space), and answers about the legal list found without
                listing it (``random_action``, ``cheapest_foil``)
``tables.py``   the ship as it sinks (``sinking_boards``) and the lookups made once per ship or
                per deck (exits, sight, the failure round's rules)
``fast.py``     the fused turns: games of the default bot played faster, only for ``SaveGame``
                itself (a subclass with a house rule plays through ``rules.py``)
==============  ================================================================================

>>> from luckylab.games.save import SaveGame, Snoop
>>> game = SaveGame(players=4, seed=3)
>>> view = game.view(1)
>>> view.doctor, view.can_rescue(1)
('Chart Room', False)
"""

from .actions import DOCTOR, SELF, EndTurn, Foil, PlayMove, Rescue, Snoop, Step
from .rules import RescueAttempt, SaveGame, hand_size
from .tables import foil_rules, ship_decks, sinking_boards
from .view import AttemptSeen, SaveView

__all__ = [
    "DOCTOR",
    "SELF",
    "AttemptSeen",
    "EndTurn",
    "Foil",
    "PlayMove",
    "Rescue",
    "RescueAttempt",
    "SaveGame",
    "SaveView",
    "Snoop",
    "Step",
    "foil_rules",
    "hand_size",
    "ship_decks",
    "sinking_boards",
]
