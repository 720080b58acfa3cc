"""Take a seat: play a whole game of any of the five games against the bots.

The play table (:class:`PlayTable`, in :mod:`luckylab.viz.play.table`) offers the engine's
grouped legal actions (:mod:`luckylab.viz.play.choices`), draws the map
(:mod:`luckylab.viz.play.map`; Panic Island!'s grid of cards, :mod:`luckylab.viz.play.grid`;
Doctor Who's table, :mod:`luckylab.viz.play.tableau`) and says everything in each game's own
words, kept as data (:mod:`luckylab.viz.play.words`); what it reads of a game to show it is
in :mod:`luckylab.viz.play.state`. It decides no rule: the engine does.
"""

from __future__ import annotations

from .choices import Choice
from .table import GAMES, LOG_LINES, PlayTable, PlayTableError

__all__ = ["GAMES", "LOG_LINES", "Choice", "PlayTable",
           "PlayTableError"]
