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

from collections.abc import Callable
from typing import Any

from ..errors import UnknownGame

__all__ = ["BUNDLED", "GAMES", "game_class", "new_game", "register_game"]

GAMES: dict[str, str] = {
    "island": "luckylab.games.island.rules:IslandGame",
    "kill": "luckylab.games.kill.rules:KillGame",
    "save": "luckylab.games.save.rules:SaveGame",
    "panic": "luckylab.games.panic.rules:PanicGame",
    "doctorwho": "luckylab.games.doctorwho.rules:DoctorWhoGame",
}
"""Game name -> the class that plays it (imported on first use)."""


def _island() -> type:
    from .island import IslandGame

    return IslandGame


def _kill() -> type:
    from .kill.rules import KillGame

    return KillGame


def _save() -> type:
    from .save.rules import SaveGame

    return SaveGame


def _panic() -> type:
    from .panic.rules import PanicGame

    return PanicGame


def _doctorwho() -> type:
    from .doctorwho.rules import DoctorWhoGame

    return DoctorWhoGame


_LOADERS: dict[str, Callable[[], type]] = {
    "island": _island, "kill": _kill, "save": _save, "panic": _panic, "doctorwho": _doctorwho,
}

def register_game(name: str, cls: type) -> None:
    """Add a game played by ``cls`` (a :class:`~luckylab.games.base.GameBase` subclass) under
    ``name``, for this Python session: ``new_game(name, ...)``, ``replay`` and
    ``luckylab.games.conformance.check_game`` then find it (``docs/adding-a-game.md``).
    A bundled game's name cannot be taken.

    >>> from luckylab.games.kill import KillGame
    >>> register_game("kill", KillGame)
    Traceback (most recent call last):
    luckylab.errors.UnknownGame: 'kill' is a bundled game; register yours under another name
    """
    from .base import GameBase

    if not (isinstance(name, str) and name.isidentifier()):
        raise UnknownGame(f"a game name is a short identifier such as 'foil', not {name!r}")
    if name in BUNDLED:
        raise UnknownGame(f"{name!r} is a bundled game; register yours under another name")
    if not (isinstance(cls, type) and issubclass(cls, GameBase)):
        raise UnknownGame(f"register_game needs a GameBase subclass, not {cls!r}")
    GAMES[name] = f"{cls.__module__}:{cls.__qualname__}"
    _LOADERS[name] = lambda: cls


BUNDLED = frozenset(_LOADERS)
"""The names of the games that come with luckylab."""

# Each game module is imported by name in the code above (not by a string), so the import
# graph that tests/test_layering.py reads sees every dependency; GAMES says the same in words.


def game_class(game: str | type) -> type:
    """The class that plays ``game`` ("island", "kill", "save", "panic", "doctorwho"), or
    ``game`` itself when it is a game class (a house rule: a subclass of an engine).

    >>> game_class("save").__name__
    'SaveGame'
    >>> from luckylab.games.island import IslandGame
    >>> class HouseRules(IslandGame): ...
    >>> game_class(HouseRules) is HouseRules
    True
    """
    if isinstance(game, type):
        from .base import GameBase

        if issubclass(game, GameBase):
            return game
        raise UnknownGame(f"a game is a name ({', '.join(sorted(GAMES))}) or a game class "
                          f"(a GameBase subclass), not {game!r}")
    try:
        load = _LOADERS[game] if game in GAMES else None
    except TypeError:  # an unhashable name
        load = None
    if load is None:
        raise UnknownGame(
            f"unknown game {game!r}; games: {', '.join(sorted(GAMES))}"
        ) from None
    return load()


def new_game(game: str | type = "island", players: int = 4, seed: int | None = None,
             **options: Any):
    """Start a new game.

    Parameters
    ----------
    game
        "island" (The Island of Doctor Lucky), "kill", "save", "panic" or "doctorwho"; or a
        game class, such as your subclass of ``IslandGame`` that plays a house rule.
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
    check_options(cls, cls.game_name if isinstance(game, type) else game, players, seed,
                  options)
    return cls(players=players, seed=seed, **options)
