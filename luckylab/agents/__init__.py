"""Bots that play the games: short, readable classes a student can copy and change.

Each game has its own module (``luckylab.agents.island``, ...) with an ``AGENTS`` table
(name -> class) and a ``DEFAULT`` name used by :func:`luckylab.simulate`.
"""

from __future__ import annotations

from ..errors import OptionError
from ..games.registry import BUNDLED
from . import readable
from .base import Agent, RandomAgent
from .readable import readable_bots, readable_names

__all__ = ["Agent", "RandomAgent", "agent_class", "agent_names", "register_agents"]

# The look-ahead bots: "ismcts" (luckylab.agents.ismcts) plays every bundled game; "pimc"
# (luckylab.agents.search, the older determinized-voting baseline) Island and Kill. agent_class
# finds them; agent_names leaves them out (slow bots: menus and tournaments opt in to ismcts).
_SEARCH_GAMES = ("island", "kill", "save", "panic", "doctorwho")
_PIMC_GAMES = ("island", "kill")


def register_agents(game: str, agents: dict[str, type[Agent]], default: str) -> None:
    """Bots for a game added with :func:`luckylab.games.registry.register_game`: ``agents``
    maps names to :class:`Agent` classes, ``default`` names the one :func:`luckylab.simulate`
    seats when none is given (``docs/adding-a-game.md``).

    >>> register_agents("kill", {"random": RandomAgent}, "random")
    Traceback (most recent call last):
    luckylab.errors.OptionError: 'kill' has its own bots; register bots for your own game
    """
    if game in BUNDLED:
        raise OptionError(f"{game!r} has its own bots; register bots for your own game")
    if not (isinstance(agents, dict) and agents and all(
            isinstance(n, str) and isinstance(c, type) and issubclass(c, Agent)
            for n, c in agents.items())):
        raise OptionError("agents maps bot names to Agent classes, e.g. {'random': RandomAgent}")
    if default not in agents:
        raise OptionError(f"default must be one of {', '.join(agents)}, not {default!r}")
    readable.REGISTERED[game] = (dict(agents), default)


def agent_names(game: str, look_ahead: bool = False) -> list[str]:
    """The agent names available for ``game``, the default first.

    The look-ahead bot ``"ismcts"`` (:mod:`luckylab.agents.ismcts`, slow: a tenth of a second
    or more a decision) is listed last, and only with ``look_ahead=True``. (The older baseline
    ``"pimc"`` of Island and Kill, :mod:`luckylab.agents.search`, is never listed.)

    >>> agent_names("kill")
    ['opportunist', 'patient', 'random']
    >>> agent_names("kill", look_ahead=True)
    ['opportunist', 'patient', 'random', 'ismcts']
    >>> agent_names("save", look_ahead=True)[-1]
    'ismcts'
    """
    extra = ["ismcts"] if look_ahead and game in _SEARCH_GAMES else []
    return [*readable_names(game), *extra]


def agent_class(game: str, name: str | None = None) -> type[Agent]:
    """The agent class called ``name`` for ``game`` (its default when ``name`` is None).

    An unknown name raises :class:`~luckylab.errors.OptionError` listing the names allowed:

    >>> from luckylab.errors import OptionError
    >>> try:
    ...     agent_class("save", "pimc")
    ... except OptionError as exc:
    ...     print(str(exc).replace("; ", ";\\n"))
    no agent 'pimc' for save;
    agents: rider, greedy, random, cautious, ismcts (the baseline 'pimc' plays island and kill only)
    """
    bots, default = readable_bots(game)
    name = default if name is None else name
    if name == "ismcts" and game in _SEARCH_GAMES:  # the look-ahead bot
        from .ismcts import AGENTS as LOOK_AHEAD

        return LOOK_AHEAD[game]
    if name == "pimc" and game in _PIMC_GAMES:  # the older baseline (luckylab.agents.search)
        from .search import AGENTS as BASELINE

        return BASELINE[game]
    try:
        return bots[name]
    except (KeyError, TypeError):
        allowed = ", ".join(agent_names(game, look_ahead=True))
        if game in _PIMC_GAMES:
            allowed += ", pimc"
        elif game in _SEARCH_GAMES:
            allowed += f" (the baseline 'pimc' plays {' and '.join(_PIMC_GAMES)} only)"
        raise OptionError(f"no agent {name!r} for {game}; agents: {allowed}") from None
