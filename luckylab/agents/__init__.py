"""Bots that play the games: short, readable classes a student can copy and change.

Each game has its own module (``luckylab.agents.island``, ...) with an ``AGENTS`` table
(name -> class) and a ``DEFAULT`` name used by :func:`luckylab.simulate`.
"""

from __future__ import annotations

from types import ModuleType

from ..errors import OptionError
from .base import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent", "agent_class", "agent_names"]

# Games with an "ismcts" agent (luckylab.agents.search). agent_class finds it; agent_names
# leaves it out (a slow bot: menus and tournaments that loop over the names opt in).
_SEARCH_GAMES = ("island", "kill")


def _module(game: str) -> ModuleType:
    """The agents module of ``game`` (imported by name on first use, so that the import graph
    sees it and ``import luckylab.agents`` stays light)."""
    from ..errors import UnknownGame

    if game == "island":
        from . import island as module
    elif game == "kill":
        from . import kill as module
    elif game == "save":
        from . import save as module
    elif game == "panic":
        from . import panic as module
    elif game == "doctorwho":
        from . import doctorwho as module
    else:
        raise UnknownGame(f"no agents for game {game!r}")
    return module


def agent_names(game: str, look_ahead: bool = False) -> list[str]:
    """The agent names available for ``game``, the default first.

    The look-ahead bot ``"ismcts"`` (:mod:`luckylab.agents.search`, slow: tens of
    milliseconds a decision) is listed last, and only with ``look_ahead=True``, for the games
    that have it.

    >>> agent_names("kill")
    ['opportunist', 'patient', 'random']
    >>> agent_names("kill", look_ahead=True)
    ['opportunist', 'patient', 'random', 'ismcts']
    >>> agent_names("save", look_ahead=True) == agent_names("save")
    True
    """
    module = _module(game)
    names = list(module.AGENTS)
    names.remove(module.DEFAULT)
    extra = ["ismcts"] if look_ahead and game in _SEARCH_GAMES else []
    return [module.DEFAULT, *names, *extra]


def agent_class(game: str, name: str | None = None) -> type[Agent]:
    """The agent class called ``name`` for ``game`` (its default when ``name`` is None).

    An unknown name raises :class:`~luckylab.errors.OptionError` listing the names allowed:

    >>> from luckylab.errors import OptionError
    >>> try:
    ...     agent_class("save", "ismcts")
    ... except OptionError as exc:
    ...     print(str(exc).replace("; ", ";\\n"))
    no agent 'ismcts' for save;
    agents: rider, greedy, random, cautious (the look-ahead bot 'ismcts' plays island and kill only)
    """
    module = _module(game)
    name = module.DEFAULT if name is None else name
    if name == "ismcts" and game in _SEARCH_GAMES:  # the look-ahead bot (luckylab.agents.search)
        from .search import AGENTS as LOOK_AHEAD

        return LOOK_AHEAD[game]
    try:
        return module.AGENTS[name]
    except (KeyError, TypeError):
        allowed = ", ".join(agent_names(game, look_ahead=True))
        if game not in _SEARCH_GAMES:
            allowed += f" (the look-ahead bot 'ismcts' plays {' and '.join(_SEARCH_GAMES)} only)"
        raise OptionError(f"no agent {name!r} for {game}; agents: {allowed}") from None
