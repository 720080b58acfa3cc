"""Who plays whom, in which seat, on which deal: duplicate deals and seat rotation.

A tournament is a list of *blocks*. A block is one line-up (``players`` entrants) and one
seeded deal, played ``players`` times: in rotation ``r`` the entrant listed ``k``-th sits in
player position ``(k + r) % players``. So every entrant of the line-up plays every seat once
on the very same cards, and a lucky deal or a good seat favours nobody (duplicate bridge plays
its hands the same way). Line-ups are picked so that every entrant plays as often as every
other (the ones with the fewest games so far, ties broken by the seed), and the order within a
line-up is shuffled, so who sits next to whom varies too.

The schedule is a pure function of the entrants' names, ``players`` and ``seed``, and its
first blocks do not depend on how many games are asked for: a longer run extends a shorter
one, game for game.

>>> deals = schedule(["a", "b", "c"], players=3, games=6, seed=1)
>>> [d.seats for d in deals[:3]]
[('c', 'b', 'a'), ('a', 'c', 'b'), ('b', 'a', 'c')]
>>> len({d.seed for d in deals[:3]})
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import TournamentError

__all__ = ["Deal", "blocks_for", "bot_seed", "schedule"]


@dataclass(frozen=True)
class Deal:
    """Game ``index`` of a tournament: its ``block``, ``rotation``, the deal's ``seed`` (the
    same for the whole block), and the entrant in each player position (``seats``)."""

    index: int
    block: int
    rotation: int
    seed: int
    seats: tuple[str, ...]


def blocks_for(games: int, players: int) -> int:
    """Whole blocks needed for at least ``games`` games (a block is ``players`` games).

    >>> blocks_for(2000, 4), blocks_for(10, 3)
    (500, 4)
    """
    return -(-games // players)


def schedule(names: Sequence[str], players: int, games: int, seed: int) -> list[Deal]:
    """The games of a tournament, rounded up to whole blocks (see the module docstring)."""
    names = sorted(names)
    if len(set(names)) != len(names):
        raise TournamentError("every entrant needs its own name")
    if len(names) < players:
        raise TournamentError(f"{players} players need at least {players} entrants, "
                              f"not {len(names)}")
    lineups = random.Random(f"luckylab tournament line-ups {seed}")
    deals = random.Random(seed)
    played = dict.fromkeys(names, 0)
    out: list[Deal] = []
    for block in range(blocks_for(games, players)):
        ties = {name: lineups.random() for name in names}
        chosen = sorted(names, key=lambda n: (played[n], ties[n]))[:players]
        lineups.shuffle(chosen)
        for name in chosen:
            played[name] += players
        deal_seed = deals.getrandbits(63)
        for r in range(players):
            seats = tuple(chosen[(k - r) % players] for k in range(players))
            out.append(Deal(len(out), block, r, deal_seed, seats))
    return out


def bot_seed(deal_seed: int, name: str) -> int:
    """The seed of ``name``'s bot on a deal: the same in every rotation of the block.

    >>> bot_seed(5, "a") == bot_seed(5, "a") != bot_seed(5, "b")
    True
    """
    return random.Random(f"{deal_seed}:{name}").getrandbits(32)
