"""luckylab: probability and game theory with the Doctor Lucky family of board games.

The face of the package. Everything a notebook needs is importable from here; heavy parts
(drawing, widgets) load only when used, so ``import luckylab`` stays light (no matplotlib,
no ipywidgets).

>>> import luckylab
>>> board = luckylab.load_board("isla-fortuna")
>>> game = luckylab.new_game("island", players=4, seed=1)
>>> game.current_player in range(4)
True
"""

from __future__ import annotations

from ._version import __version__ as __version__
from .boards import Board, Space, load_board
from .cards import Card, load_characters, load_deck
from .errors import (
    BoardError,
    DeckError,
    IllegalAction,
    LuckyLabError,
    OptionError,
    ReplayError,
    UnknownGame,
    UnknownSpace,
)
from .games.base import Event, GameResult
from .games.record import replay
from .games.registry import GAMES, new_game
from .games.registry import game_class as game_class
from .lessons.exercises import check
from .simulation import iter_simulate, simulate

__all__ = [
    "GAMES",
    "Board",
    "BoardError",
    "Card",
    "DeckError",
    "Event",
    "GameResult",
    "IllegalAction",
    "LuckyLabError",
    "OptionError",
    "ReplayError",
    "Space",
    "UnknownGame",
    "UnknownSpace",
    "check",
    "iter_simulate",
    "load_board",
    "load_characters",
    "load_deck",
    "new_game",
    "replay",
    "simulate",
]
