"""The readable bots of every game, by name: the table the look-ahead bots and the registry
(:func:`luckylab.agents.agent_class`) read.

Each game has its own module (``luckylab.agents.island``, ...) with an ``AGENTS`` table
(name -> class) and a ``DEFAULT`` name; a game added with
:func:`luckylab.agents.register_agents` has a table and a default of its own in
:data:`REGISTERED`.

>>> readable_names("kill")
['opportunist', 'patient', 'random']
>>> readable_class("kill", "patient").__name__
'Patient'
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import OptionError
from .base import Agent

__all__ = ["readable_bots", "readable_class", "readable_names"]

REGISTERED: dict[str, tuple[Mapping[str, type[Agent]], str]] = {}
"""The bots of games added with ``register_agents``: game -> (name -> class, default name)."""


def readable_bots(game: str) -> tuple[Mapping[str, type[Agent]], str]:
    """The ``AGENTS`` table (name -> class) and the ``DEFAULT`` name of ``game``'s bots.

    The game's module is imported on first use, by name, so that the import graph sees it and
    ``import luckylab.agents`` stays light (and by its own path, ``.island``: a
    ``from . import island`` would read the package's ``__init__``, which imports this module).

    >>> bots, default = readable_bots("save")
    >>> default, bots[default].__name__
    ('rider', 'TrainRiderAgent')
    """
    from ..errors import UnknownGame

    if game in REGISTERED:
        return REGISTERED[game]
    load = _LOADERS.get(game) if isinstance(game, str) else None
    if load is None:
        raise UnknownGame(f"no agents for game {game!r}")
    return load()


def _island() -> tuple[Mapping[str, type[Agent]], str]:
    from .island import AGENTS, DEFAULT

    return AGENTS, DEFAULT


def _kill() -> tuple[Mapping[str, type[Agent]], str]:
    from .kill import AGENTS, DEFAULT

    return AGENTS, DEFAULT


def _save() -> tuple[Mapping[str, type[Agent]], str]:
    from .save import AGENTS, DEFAULT

    return AGENTS, DEFAULT


def _panic() -> tuple[Mapping[str, type[Agent]], str]:
    from .panic import AGENTS, DEFAULT

    return AGENTS, DEFAULT


def _doctorwho() -> tuple[Mapping[str, type[Agent]], str]:
    from .doctorwho import AGENTS, DEFAULT

    return AGENTS, DEFAULT


_LOADERS = {"island": _island, "kill": _kill, "save": _save, "panic": _panic,
            "doctorwho": _doctorwho}
"""The bundled games' bot modules, each imported by name on first use (the registry of bots,
beside the registry of games, :mod:`luckylab.games.registry`)."""


def readable_names(game: str) -> list[str]:
    """The readable bots of ``game``, its default first."""
    bots, default = readable_bots(game)
    return [default, *(name for name in bots if name != default)]


def readable_class(game: str, name: str | None = None) -> type[Agent]:
    """The readable bot ``name`` of ``game`` (its default when None); an unknown name raises
    :class:`~luckylab.errors.OptionError` naming the readable bots."""
    bots, default = readable_bots(game)
    name = default if name is None else name
    try:
        return bots[name]
    except (KeyError, TypeError):
        raise OptionError(f"no readable bot {name!r} for {game}; readable bots: "
                          f"{', '.join(readable_names(game))}") from None
