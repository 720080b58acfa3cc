"""The readable bots of every game, by name: the table the look-ahead bots and the registry
(:func:`luckylab.agents.agent_class`) read.

Each game has its own module (``luckylab.agents.island``, ...) with an ``AGENTS`` table
(name -> class) and a ``DEFAULT`` name; a game added with
:func:`luckylab.agents.register_agents` has a made-up module of the same shape.

>>> readable_names("kill")
['opportunist', 'patient', 'random']
>>> readable_class("kill", "patient").__name__
'Patient'
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..errors import OptionError

__all__ = ["readable_class", "readable_module", "readable_names"]

REGISTERED: dict[str, ModuleType] = {}
"""The agents modules of games added with ``register_agents`` (by game name)."""


def readable_module(game: str) -> ModuleType:
    """The agents module of ``game`` (imported by name on first use, so that the import graph
    sees it and ``import luckylab.agents`` stays light)."""
    from ..errors import UnknownGame

    if game in REGISTERED:
        return REGISTERED[game]
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


def readable_names(game: str) -> list[str]:
    """The readable bots of ``game``, its default first."""
    module = readable_module(game)
    names = list(module.AGENTS)
    names.remove(module.DEFAULT)
    return [module.DEFAULT, *names]


def readable_class(game: str, name: str | None = None) -> Any:
    """The readable bot ``name`` of ``game`` (its default when None); an unknown name raises
    :class:`~luckylab.errors.OptionError` naming the readable bots."""
    module = readable_module(game)
    name = module.DEFAULT if name is None else name
    try:
        return module.AGENTS[name]
    except (KeyError, TypeError):
        raise OptionError(f"no readable bot {name!r} for {game}; readable bots: "
                          f"{', '.join(readable_names(game))}") from None
