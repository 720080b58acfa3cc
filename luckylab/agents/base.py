"""The agent interface, and the simplest agent of all."""

from __future__ import annotations

import random
from typing import Any

from ..games.base import check_seed

__all__ = ["Agent", "RandomAgent"]


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

    def __init__(self, seed: int | random.Random | None = None) -> None:
        if not isinstance(seed, random.Random):
            check_seed(seed)  # nan, -5, 2.5 or "x" would not reproduce: refused
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, game: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(Agent):
    """Picks uniformly among ``game.legal_actions()``: the baseline every strategy should beat."""

    name = "random"
    trusted = True
    reads_events = False

    def choose(self, game: Any) -> Any:
        return self.rng.choice(game.legal_actions())
