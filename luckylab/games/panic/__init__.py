"""Panic Island!, played by the book: one folder, its rules in one file.

==============  ================================================================================
``rules.py``    **the rulebook**: :class:`PanicGame` (setup, what may be turned, what saves
                what, the obstacles, Gouga, the clock, the end), rule IDs beside the lines, and
                :attr:`PanicGame.HANDLERS`, the check and do method of each action. Start here;
                change a rule in a subclass of :class:`PanicGame`.
``actions.py``  the actions, one frozen dataclass per kind of decision
``view.py``     what a seat sees: ``observation``, ``determinize`` and :class:`PanicView`,
                the typed view that bots, widgets and analyses read (``game.view(seat)``)
``ids.py``      action ids (127 on the 5x5 island) and the record codec
``tables.py``   the card sets and the frozen actions, made once and shared
``data.py``     the data file (``luckylab/data/panic_island.toml``): cards, obstacles and time
                costs read and checked, and the rulebook's score bands
==============  ================================================================================

Panic has no fused fast path: ``simulate`` plays ``rules.py`` itself. Rule IDs (``P-TURN-1``
...) refer to ``docs/rules/panic.md``.

>>> from luckylab.games.panic import PanicGame, Reveal
>>> game = PanicGame(players=2, seed=9)
>>> [str(e) for e in game.apply(Reveal("r1c1"))], game.phase
(['P1 reveals the red dodo on r1c1.'], 'second')
"""

from ...boards.grid import board_from_data, place_name
from .actions import ACTIONS, GOUGA_KINDS, Action, GougaCall, Place, Reveal, TimeUp, WakeGouga
from .data import BANDS, Obstacle, PanicCard, PanicRules, band, load_rules, rules_from_data
from .rules import EXTERNAL_TURNS_PER_SECOND, PanicGame
from .view import PanicView

__all__ = [
    "ACTIONS",
    "BANDS",
    "EXTERNAL_TURNS_PER_SECOND",
    "GOUGA_KINDS",
    "Action",
    "GougaCall",
    "Obstacle",
    "PanicCard",
    "PanicGame",
    "PanicRules",
    "PanicView",
    "Place",
    "Reveal",
    "TimeUp",
    "WakeGouga",
    "band",
    "board_from_data",
    "load_rules",
    "place_name",
    "rules_from_data",
]
