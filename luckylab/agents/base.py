"""The agent interface, and the simplest agent of all."""

from __future__ import annotations

import functools
import random
from typing import Any

from ..errors import OptionError
from ..games.base import _TITLES, check_seed
from ..games.registry import GAMES

__all__ = ["Agent", "RandomAgent", "check_game"]


class Agent:
    """A bot. ``choose(game)`` returns one legal action for ``game.current_player``.

    Every agent owns a ``random.Random`` made from its seed, so a seeded game with seeded
    agents replays bit for bit.
    """

    name = "agent"
    trusted = False
    """A bundled bot that only ever builds legal actions sets this: ``luckylab.simulate`` then
    skips re-checking its actions (the digest tests replay such games with full checks)."""
    reads_events = True
    """False for a bundled bot that never reads ``game.events``: the simulation then skips
    writing the events' text."""
    draws = True
    """False, in a bot's own class (not inherited), for a bot whose ``choose`` never draws from
    its generator: the search bot, which makes thousands of bots, then hands it one shared,
    idle generator instead of seeding one (the same play, without the seeding's cost)."""
    fused_turn: str | None = None
    """Set (to its game's name) only by a game's default bot, or a variant of it that the
    engine knows (its ``fused_profile`` says how it differs), in its own class: the engine may
    then play that bot's turns itself, the same games faster (``luckylab.games.fused``). A
    subclass does not inherit the promise."""
    game_name: str | None = None
    """The game this bot plays (a bot in ``luckylab.agents.<game>`` knows it from its module;
    a subclass inherits it). ``choose`` on another game's state raises
    :class:`~luckylab.errors.OptionError` before the bot reads anything. None: any game."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        home = cls.__module__.rpartition(".")[2]
        if cls.__dict__.get("game_name") is None and cls.__module__.startswith(
                "luckylab.agents.") and home in GAMES:
            cls.game_name = home
        choose = cls.__dict__.get("choose")
        if choose is not None and not getattr(choose, "_checks_game", False):
            cls.choose = _checking_game(choose)  # type: ignore[method-assign]

    def __init__(self, seed: int | random.Random | None = None) -> None:
        if not isinstance(seed, random.Random):
            check_seed(seed)  # nan, -5, 2.5 or "x" would not reproduce: refused
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, game: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def probability(self, game: Any, action: Any) -> float | None:
        """The chance that this bot plays ``action`` in ``game``, where the bot can say
        without choosing (None: it cannot; ask ``choose``). An opponent model reads it
        (:mod:`luckylab.agents.models`)."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _checking_game(choose: Any) -> Any:
    """``choose``, refusing first a game state of another game than the bot's."""

    @functools.wraps(choose)
    def checked(self: Agent, game: Any) -> Any:
        mine = self.game_name
        if mine in GAMES and getattr(game, "game_name", None) != mine:
            check_game(self, game)
        return choose(self, game)

    checked._checks_game = True  # type: ignore[attr-defined]
    return checked


def check_game(agent: Agent, game: Any) -> None:
    """OptionError unless ``agent`` plays ``game`` (a state of its game, or it plays any).

    >>> from luckylab.agents.kill import Opportunist
    >>> from luckylab.games.registry import new_game
    >>> Opportunist(seed=1).choose(new_game("island", players=3, seed=1))
    Traceback (most recent call last):
    luckylab.errors.OptionError: Opportunist is a bot for Kill Doctor Lucky; it cannot play island
    """
    mine = agent.game_name
    theirs = getattr(game, "game_name", None)
    if mine in GAMES and theirs != mine:
        what = theirs if isinstance(theirs, str) and theirs in GAMES else (
            f"a {type(game).__name__}")
        raise OptionError(f"{type(agent).__name__} is a bot for {_TITLES.get(mine, mine)}; "
                          f"it cannot play {what}")


class RandomAgent(Agent):
    """Picks uniformly among ``game.legal_actions()``: the baseline every strategy should beat."""

    name = "random"
    trusted = True
    reads_events = False

    def choose(self, game: Any) -> Any:
        return game.random_action(self.rng)  # rng.choice(game.legal_actions()), by the protocol

    def probability(self, game: Any, action: Any) -> float:
        """One over the number of legal moves for each legal move (0 for any other).

        >>> from luckylab.games.registry import new_game
        >>> game = new_game("kill", players=2, seed=1)
        >>> RandomAgent(seed=1).probability(game, game.legal_actions()[0]) * len(
        ...     game.legal_actions())
        1.0
        """
        legal = game.legal_actions()
        return legal.count(action) / len(legal) if legal else 0.0
