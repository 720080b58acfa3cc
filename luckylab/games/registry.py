"""The registered games: their names, the classes that play them, and :func:`new_game`.

The package face (``luckylab``) re-exports all three; code inside luckylab imports them from
here, so that nothing low imports the face.

>>> from luckylab.games.registry import GAMES, new_game
>>> sorted(GAMES)
['doctorwho', 'island', 'kill', 'panic', 'save']
>>> new_game("kill", players=3, seed=2).game_name
'kill'
"""

from __future__ import annotations

import importlib
from typing import Any

from ..errors import UnknownGame

__all__ = ["GAMES", "game_class", "new_game"]

GAMES: dict[str, str] = {
    "island": "luckylab.games.island:IslandGame",
    "kill": "luckylab.games.kill:KillGame",
    "save": "luckylab.games.save:SaveGame",
    "panic": "luckylab.games.panic:PanicGame",
    "doctorwho": "luckylab.games.doctorwho:DoctorWhoGame",
}
"""Game name -> the class that plays it (imported on first use)."""


def game_class(game: str) -> type:
    """The class that plays ``game`` ("island", "kill", "save", "panic")."""
    try:
        target = GAMES[game]
    except (KeyError, TypeError):
        raise UnknownGame(
            f"unknown game {game!r}; games: {', '.join(sorted(GAMES))}"
        ) from None
    module_name, class_name = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # registered but not built yet
        raise UnknownGame(f"game {game!r} is not available in this version: {exc}") from None
    return getattr(module, class_name)


def new_game(game: str = "island", players: int = 4, seed: int | None = None, **options: Any):
    """Start a new game.

    Parameters
    ----------
    game
        "island" (The Island of Doctor Lucky), "kill", "save" or "panic".
    players
        How many players (the Island takes 2..8; Strangers join with 2 or 3).
    seed
        Seeds every random thing in the game; the same seed and actions replay the same game.
        A whole number >= 0, or None for a fresh random game (negative seeds are refused:
        ``random.Random`` would play ``-5`` as ``5``).
    **options
        Rule options of that game, for example ``youre_out=True`` or ``cat_blocks="outward"``.
        Unknown names and values of the wrong type (``youre_out="no"``, ``turn_cap=True``)
        raise :class:`OptionError`; they are never coerced.

    Examples
    --------
    >>> game = new_game("island", players=3, seed=7)
    >>> len(game.seats), game.strangers
    (6, (1, 3, 5))
    """
    from .base import check_options

    cls = game_class(game)
    check_options(cls, game, players, seed, options)
    return cls(players=players, seed=seed, **options)
