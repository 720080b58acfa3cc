"""Beliefs: deal the hidden cards as the opponents' own passes suggest.

A look-ahead bot that may not see the other hands deals them anew for every simulated game
(``game.determinize``), every deal of the unseen cards as likely as any other. But the table
has told it more than that. When Doctor Lucky is attacked, each other player is asked in turn
to foil the attempt; a player who **passes** while its hand could have covered what was still
needed did something a bot that foils when it can would not do. After such a pass, a deal that
gives that player enough Luck to foil is less likely to be the real one. This module keeps such
deals more rarely: Bayes' rule, worked by dealing again.

**The evidence.** :func:`declines` reads the seat's past (the ``foil`` events every player sees)
for each pass, or payment too small, by another player: who (``seat``), how much was still
needed after it (``needed``). Until that player may have gained a card (its turn, a draw, a
card passed to it: :data:`GAINS`), its hand only loses cards, and the cards it pays in later
attempts are played face up. So the cards it *certainly* held when it passed are the cards it
holds now plus those it has paid since (``paid``). Once it may have gained one, the pass tells
no more (what it drew is unknown) and is dropped.

**The likelihood.** A world *contradicts* a decline when those certain cards could have
covered what was needed: ``value(hand now) + value(paid since) >= needed``. A bot that foils
whenever it can would never have passed then; one that free-rides (lets a later player pay)
might. So a world that contradicts ``k`` declines has likelihood ``keep ** k`` (``keep``: how
often a player able to foil passes anyway; 1 ignores the evidence, 0 trusts it completely),
one that contradicts none has likelihood 1.

**Sampling by rejection** (:class:`Beliefs`): deal a world as before; keep it with probability
``keep ** k``; otherwise deal again. Each kept world is then distributed exactly as the
uniform deal weighted by the likelihood (the posterior), as in the resampling step of a
particle filter. Rejection can be slow when the evidence is strong, so after ``tries`` deals
the world that contradicted fewest declines is kept (the latest of those that tie; counted by
:attr:`Beliefs.capped`).

A worked example (Kill Doctor Lucky, 3 players, seed 1). Player 1 (seat 0) cannot see 90 cards:
51 that are no Failure card, 24 worth 1 point, 11 worth 2 and 4 worth 3; Player 2 (seat 1) holds
6 of them. An attack needs 2 points and Player 2 passes. In a uniform deal Player 2 holds fewer
than 2 points when it holds no Failure card, ``C(51, 6) / C(90, 6) = 0.029``, or one 1-point
card and 5 others, ``24 * C(51, 5) / C(90, 6) = 0.091``: it could have foiled in
``1 - 0.029 - 0.091 = 0.881`` of the deals. With ``keep = 0.2`` those deals are kept a fifth as
often, so after the pass ``0.881 * 0.2 / (0.881 * 0.2 + 0.119)``, about 0.60, of the worlds
the search plays in give Player 2 the points to foil (``tests/test_beliefs.py`` deals 8,000
and counts).

The games that name their foiling rules (``game.view(seat).foiling_rules()``: the Island's
Luck, Kill's and Save's Failure points) have this evidence; the others have none, and their
deals are the uniform ones. Measured, a belief this strong is right only about players who
foil whenever they can: ``benchmarks/results/search_variants_2026-12-05.md``.

>>> import luckylab, random
>>> game = luckylab.new_game("kill", players=3, seed=1)
>>> Beliefs(game, 0, keep=0.2).declines   # nobody has passed yet
[]
>>> world = Beliefs(game, 0, keep=0.2).deal(random.Random(0))
>>> world.hands[0] == game.hands[0]
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..errors import BadBudget

__all__ = ["GAINS", "Beliefs", "Decline", "declines"]


class Decline(NamedTuple):
    """A pass read from the past: ``seat`` did not cover ``needed`` (what was still needed
    after its payment, if any); since then it has paid the cards ``paid`` face up in later
    attempts and has not had a turn."""

    seat: int
    needed: int
    paid: tuple[int, ...]


GAINS = frozenset({"turn", "draw", "building_draw", "snoop"})
"""Event kinds after which their ``seat`` may hold a card it did not hold before (its turn, a
draw, the Island's draw when Doctor Lucky enters a building); an event's ``to`` seat (a card
passed to it) gains one too."""


def declines(events: Iterable[Any], me: int) -> list[Decline]:
    """The passes of the other seats that still say something about their hands now: a
    ``foil`` event (or Save's ``pass``) that left something ``needed``, by a seat that may not
    have gained a card since (no event of :data:`GAINS` for it, nothing passed ``to`` it).
    ``paid``: the cards that seat paid in later ``foil`` events (face up).

    >>> from luckylab.games.base import Event
    >>> past = [Event("foil", "", {"seat": 1, "cards": [], "needed": 2}),
    ...         Event("foil", "", {"seat": 1, "cards": [7], "needed": 0}),
    ...         Event("foil", "", {"seat": 2, "cards": [], "needed": 1}),
    ...         Event("turn", "", {"seat": 2, "turn": 5})]
    >>> declines(past, 0)
    [Decline(seat=1, needed=2, paid=(7,))]
    """
    open_: dict[int, list[Decline]] = {}
    for event in events:
        kind = getattr(event, "kind", None)
        data = getattr(event, "data", None) or {}
        seat = data.get("seat")
        if kind in GAINS:
            open_.pop(seat, None)  # it may hold a card unknown then: the pass says no more
        if "to" in data:
            open_.pop(data["to"], None)
        if kind in ("foil", "pass") and isinstance(seat, int) and seat != me:
            cards = tuple(data.get("cards") or ())
            mine = open_.setdefault(seat, [])
            if cards:
                mine[:] = [d._replace(paid=d.paid + cards) for d in mine]
            needed = data.get("needed")
            if isinstance(needed, int) and not isinstance(needed, bool) and needed > 0:
                mine.append(Decline(seat, needed, ()))
    return [d for seat in sorted(open_) for d in open_[seat]]


class Beliefs:
    """Worlds for ``seat`` dealt as :func:`declines` and ``keep`` suggest (see the module
    docstring): :meth:`deal` replaces ``game.determinize(seat, rng)`` in a search.

    Parameters
    ----------
    game
        The game as the seat is shown it (its events are its past).
    seat
        The seat that searches.
    keep
        How often a player able to foil passes anyway (0 to 1; 1: no belief, the uniform deal).
    tries
        Deals at most per world (then the deal that contradicted fewest passes).
    """

    def __init__(self, game: Any, seat: int, keep: float, tries: int = 32) -> None:
        if isinstance(keep, bool) or not isinstance(keep, (int, float)) or not 0 <= keep <= 1:
            raise BadBudget(f"keep must be a number from 0 to 1, not {keep!r}")
        if isinstance(tries, bool) or not isinstance(tries, int) or tries < 1:
            raise BadBudget(f"tries must be a whole number >= 1, not {tries!r}")
        self.game, self.seat, self.keep, self.tries = game, seat, float(keep), tries
        self._view = game.view(seat)
        rules = self._view.foiling_rules()
        self._values = None if rules is None else rules.values
        found = declines(getattr(game, "events", ()), seat) if self._values else []
        # A pass that every deal contradicts tells nothing: the passer holds enough in any
        # deal (it let the others pay). Left out, it would only cost deals.
        self.declines = [d for d in found if self._informative(d)] if keep < 1 else []
        self.dealt = 0  # worlds dealt in all
        self.capped = 0  # worlds kept only because the tries ran out

    def _informative(self, decline: Decline) -> bool:
        """Whether some deal lets the passer hold less than was needed: its cards now are
        dealt from the cards the seat cannot see, so the least it can hold is the sum of the
        smallest values there, as many as it holds cards."""
        values = self._values
        seat, needed, paid = decline
        if not (isinstance(seat, int) and not isinstance(seat, bool)
                and 0 <= seat < self.game.num_seats):
            return False  # not a seat of this game: the pass says nothing here
        if any(not (isinstance(c, int) and 0 <= c < len(values)) for c in paid):
            return False  # not this game's cards
        pool = sorted(values[c] or 0 for c in self._view.unseen_cards())
        least = sum(pool[:self._view.hand_size(seat)]) + sum(values[c] or 0 for c in paid)
        return least < needed

    def contradicted(self, world: Any) -> int:
        """How many of the declines ``world`` contradicts (the passer could have covered)."""
        values = self._values
        table = world.view(None)  # the open table: a dealt world's every hand
        count = 0
        for seat, needed, paid in self.declines:
            held = sum(values[c] or 0 for c in table.hand_of(seat)) + sum(
                values[c] or 0 for c in paid)
            count += held >= needed
        return count

    def deal(self, rng: random.Random) -> Any:
        """One world: dealt by ``game.determinize(seat, rng)``, kept with probability
        ``keep ** k`` (``k`` the declines it contradicts), else dealt again."""
        game, seat = self.game, self.seat
        if not self.declines:
            self.dealt += 1
            return game.determinize(seat, rng)
        best, fewest = None, None
        for _ in range(self.tries):
            world = game.determinize(seat, rng)
            self.dealt += 1
            k = self.contradicted(world)
            if k == 0 or rng.random() < self.keep ** k:
                return world
            if fewest is None or k <= fewest:
                best, fewest = world, k
        self.capped += 1
        return best
