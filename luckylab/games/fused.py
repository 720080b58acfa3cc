"""Which seats an engine may play itself: the default bots that declare a fused turn.

An engine's ``play_out(choosers)`` may run a fused turn module (``kill_fast`` beside ``kill``)
instead of asking the bots and applying their actions, when every chooser is the ``choose`` of a
bot that says, with the class attribute ``fused_turn = "<game>"``, that the engine plays its
turns exactly as it would (same actions, same draws from its generator). The attribute must be
the bot's class's own (a subclass that changes the play does not inherit the promise), and the
bot must carry no state of its own but its generator (``rng``).

>>> all_fused([], "kill")
True
>>> all_fused([print], "kill")
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["all_fused", "is_fused"]


def is_fused(chooser: Callable[[Any], Any], game: str) -> bool:
    """Whether ``chooser`` is the ``choose`` of a bot whose turns ``game``'s engine plays itself.

    >>> is_fused(len, "kill")
    False
    """
    bot = getattr(chooser, "__self__", None)
    cls = type(bot)
    own = cls.__dict__
    return (own.get("fused_turn") == game
            and getattr(chooser, "__func__", None) is getattr(cls, "choose", None)
            and getattr(bot, "__dict__", {}).keys() == {"rng"})


def all_fused(choosers: Sequence[Callable[[Any], Any]], game: str) -> bool:
    """Whether every chooser is a bot whose turns ``game``'s engine plays itself."""
    return all(is_fused(c, game) for c in choosers)
