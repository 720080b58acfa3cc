"""Bots for Doctor Who: The Card Game. They read only ``game.observation(seat)``,
``game.legal_actions()`` (or some kinds of it) and their seat's view, ``game.view(seat)``
(:class:`~luckylab.games.doctorwho.DoctorWhoView`: the card list, and the Defend and Attack
actions grouped by Location, ``legal_defences()``, ``legal_attacks()``): never another seat's
hand or a face-down card of someone else.

``greedy`` (the default)
    Scores every legal action by what it gains now (Locations, safe attacks, defences it can
    see will hold) and plays the best while it is worth something. It is a *careless passer*:
    what it cannot use it discards or passes at random.
``careful``
    Plays like ``greedy`` but, before passing, keeps back (reserve) or burns (discard for TP)
    the cards that would help its right-hand neighbour most, and passes the three weakest.
``bluffer``
    Like ``careful``, and also plays weak (strength 1-2) Defenders face down on bare Locations
    and weak Enemies face down against bare Locations: a stack that might be strong.
``random``
    Uniform over the legal actions: the baseline.

>>> from luckylab import new_game
>>> game = new_game("doctorwho", players=3, seed=4)
>>> bots = [Greedy(seed=1), Careful(seed=2), Bluffer(seed=3)]
>>> while not game.is_over:
...     _ = game.apply(bots[game.current_player].choose(game))
>>> game.finished, len(game.result().extra["scores"])
(True, 3)
"""

from __future__ import annotations

import functools
from typing import Any

from ..games.doctorwho import (
    Attack,
    Buy,
    Defend,
    Discard,
    MatchDiscard,
    Pass,
    PlayLocation,
    PlaySupport,
    Reserve,
    TakeOver,
    UseIronsides,
    UseValiant,
)
from ..games.protocol import Observation
from .base import Agent, RandomAgent

__all__ = ["AGENTS", "DEFAULT", "Bluffer", "Careful", "Greedy", "help_value", "stack_estimate"]

UNKNOWN_CARD = 2.0
"""What a bot guesses a face-down Defender or Enemy is worth (the deck's average is about 2)."""

_GOOD_SUPPORT = {"Jammy Dodger": 4, "K-9": 3, "Bad Wolf": 3, "Captain Jack": 3,
                 "Collecting on Debts": 3, "Chameleon Arch": 3, "TARDIS": 2, "Crack in Time": 2,
                 "Mr Clever": 2}


SCORED = (PlayLocation, Defend, Attack, TakeOver, PlaySupport)
"""The kinds of action :meth:`Greedy.score` may value above 0 (the rest end a turn)."""
DECISIONS = (UseIronsides, UseValiant, MatchDiscard)
"""The decisions inside a conflict."""

_STRENGTHS: dict[int, tuple[Any, list[int]]] = {}
_SCORES = ("score", "location_value", "defend_value", "attack_value", "support_score")
_FIRST: dict[int, tuple[Any, bool]] = {}


@functools.cache
def _bundled_scores(cls: type) -> bool:
    """Does ``cls`` score actions the way :class:`Greedy` does (a subclass may not)?"""
    return all(getattr(cls, m) is getattr(Greedy, m) for m in _SCORES)


def _locations_first(cards: Any) -> bool:
    """Does every Location outscore anything else :class:`Greedy` (or :class:`Bluffer`) can
    do? A Location scores 10 + 2 VP + TP; the best of the rest, with ``V`` the largest VP of
    a Location: a defence 7 + V, Captain Jack 7 + V, an attack 2 + 2 V (5 + V bluffing), a
    takeover 6 + V, TARDIS or Crack in Time 1 + 5 counters. True for the bundled deck
    (14 against 11)."""
    known = _FIRST.get(id(cards))
    if known is None or known[0] is not cards:
        places = [c for c in cards if c.kind in ("location", "starting")]
        most = max(c.vp for c in places)
        least = min(10 + 2 * c.vp + c.tp for c in places if c.kind == "location")
        known = _FIRST[id(cards)] = (cards, least > max(7 + most, 2 + 2 * most, 1 + 5))
    return known[1]


def _strength(cards: Any, ids: tuple[int, ...]) -> int:
    """The strength of cards ``ids`` added up (a table per card list, made once)."""
    known = _STRENGTHS.get(id(cards))
    if known is None or known[0] is not cards:
        known = _STRENGTHS[id(cards)] = (cards, [c.strength for c in cards])
    table, total = known[1], 0
    for c in ids:
        total += table[c]
    return total


def help_value(card: Any) -> float:
    """How much a card would help whoever receives it: strength for Defenders and Enemies,
    VP + TP for a Location, a rough worth for Support cards."""
    if card.kind in ("defender", "enemy"):
        return float(card.strength)
    if card.kind == "location":
        return float(card.vp + card.tp)
    return float(_GOOD_SUPPORT.get(card.name, 1))


def stack_estimate(cards: Any, stack: list[Any]) -> float:
    """Estimated strength of a stack as one seat sees it: face-up (or own) cards count their
    strength, each face-down card ``UNKNOWN_CARD``."""
    return sum(UNKNOWN_CARD if c is None else cards[c].strength for c in stack)


class Greedy(Agent):
    """Best immediate gain; careless about what it passes."""

    name = "greedy"
    trusted = True  # it only ever returns one of game.legal_actions()
    reads_events = False
    fused_turn = "doctorwho"  # the engine may play its turns itself (games.doctorwho.fast)
    careful = False
    bluff = False

    def choose(self, game: Any) -> Any:
        seat = game.current_player
        view = game.view(seat)
        cards = view.cards
        own = _bundled_scores(type(self))  # then defences and attacks a Location at a time
        # In a conflict: its decision. In a turn: only the kinds that can score above 0 (the
        # rest end the turn), so the best of them is the best of every legal action.
        kinds = (PlayLocation, TakeOver, PlaySupport) if own else SCORED
        actions = game.legal_actions(*kinds, *DECISIONS)
        if actions and isinstance(actions[0], DECISIONS):
            return self.decide(actions, game.observation(seat, text=False))
        n = sum(1 for a in actions if isinstance(a, PlayLocation))  # they come first
        first, others = actions[:n], actions[n:]
        if first and own and _locations_first(cards):  # nothing else can outscore them
            return max(first, key=lambda a: self.location_value(cards[a.card]))
        defences = view.legal_defences() if own else []
        attacks = view.legal_attacks() if own else []
        if not (first or defences or attacks or others):
            return self.dispose(game, None, cards)
        obs = game.observation(seat, text=False)  # the bot reads only the data
        best = self.best(obs, cards, first, defences, attacks, others)
        return best if best is not None else self.dispose(game, obs, cards)

    def best(self, obs: Observation, cards: Any, first: list[Any], defences: list[Any],
             attacks: list[Any], others: list[Any]) -> Any:
        """The first action of the highest score above 0, in the order of legal_actions() (so
        that ties go the same way), or None: ``first`` (Locations) and ``others`` are
        actions, ``defences`` and ``attacks`` grouped by Location."""
        seat = obs.seat
        locs = {loc["card"]: loc for loc in obs["locations"]}
        best, best_score = None, 0.0
        for a in first:
            s = self.score(a, obs, locs, cards)
            if s > best_score:
                best, best_score = a, s
        power: dict[tuple[int, ...], int] = {}  # the same cards come up at every Location
        for kind, groups, value in ((Defend, defences, self.defend_value),
                                    (Attack, attacks, self.attack_value)):
            for lid, picks in groups:
                loc, vp = locs[lid], cards[lid].vp
                for cs in picks:
                    strength = power.get(cs)
                    if strength is None:
                        strength = power[cs] = _strength(cards, cs)
                    s = value(loc, vp, strength, len(cs), seat, cards)
                    if s > best_score:
                        best, best_score = kind(lid, cs), s
        for a in others:
            s = self.score(a, obs, locs, cards)
            if s > best_score:
                best, best_score = a, s
        return best

    def decide(self, actions: list[Any], obs: Observation) -> Any:
        """A decision inside a conflict (Ironsides, The Valiant, the matching discard)."""
        first = actions[0]
        if isinstance(first, UseIronsides):  # pay only when +1 helps (win, or fewer kept)
            conflict = obs["conflict"]
            return UseIronsides(conflict["defence"] < conflict["attack"])
        if isinstance(first, UseValiant):
            return UseValiant(True)
        return max(actions, key=lambda a: (-len(a.cards), a.cards))  # keep the strongest

    # -- what an action is worth now ----------------------------------------------------------
    def score(self, a: Any, obs: Observation, locs: dict[int, Any], cards: Any) -> float:
        if isinstance(a, PlayLocation):
            return self.location_value(cards[a.card])
        if isinstance(a, Defend):
            return self.defend_value(locs[a.loc], cards[a.loc].vp, _strength(cards, a.cards),
                                     len(a.cards), obs.seat, cards)
        if isinstance(a, Attack):
            return self.attack_value(locs[a.loc], cards[a.loc].vp, _strength(cards, a.cards),
                                     len(a.cards), obs.seat, cards)
        if isinstance(a, TakeOver):
            return 6 + cards[a.loc].vp
        if isinstance(a, PlaySupport):
            return self.support_score(a, obs, locs, cards)
        return 0.0

    def location_value(self, card: Any) -> float:
        """Playing Location ``card``: its VP twice and its TP."""
        return 10 + 2 * card.vp + card.tp

    def defend_value(self, loc: Any, vp: int, strength: int, n: int, seat: int,
                     cards: Any) -> float:
        """``n`` Defenders of total ``strength`` played on ``loc`` (a Location of the
        observation) worth ``vp``."""
        if loc["enemies"]:
            threat = stack_estimate(cards, loc["enemies"])
            return 8 + vp - n if strength >= threat else -1
        if loc["defenders"] or loc["tardis"]:
            return -1
        if self.bluff and n == 1 and strength <= 2:
            return 3 + vp
        return 2 + vp - n if strength >= 3 else -1

    def attack_value(self, loc: Any, vp: int, strength: int, n: int, seat: int,
                     cards: Any) -> float:
        """``n`` Enemies of total ``strength`` sent by ``seat`` at ``loc`` (a Location of the
        observation) worth ``vp``."""
        if loc["attacker"] == seat:
            return -1  # reinforcing: not worth a card to a greedy bot
        if loc["tardis"]:
            return 1 + vp - strength if n == 1 else -1
        if loc["defenders"]:
            guess = UNKNOWN_CARD * len(loc["defenders"])
            return 4 + vp - n if strength > guess + 1 else -1
        if self.bluff and n == 1 and strength <= 2:
            return 5 + vp
        return 3 + 2 * vp - n if strength >= 3 else -1

    def support_score(self, a: PlaySupport, obs: Observation, locs: dict[int, Any],
                      cards: Any) -> float:
        name = cards[a.card].name
        seat = obs["seat"]
        if name in ("Jammy Dodger", "K-9", "Bad Wolf", "Chameleon Arch"):
            return 6 + cards[a.loc].vp - (1 if name == "K-9" else 0)
        if name in ("Captain Jack", "Collecting on Debts"):
            return 7 + cards[a.loc].vp if len(locs[a.loc]["enemies"]) == 1 else 2
        if name == "TARDIS":
            return 1 + obs["tardises"][seat]
        if name == "Crack in Time":
            return 1 + obs["daleks"][seat]
        if name == "Mr Clever":
            return 1 + len(a.cards)
        if name in ("Sonic Screwdriver", "Psychic Paper", "Vincent Van Gogh"):
            hidden = sum(e is None for e in locs[a.loc]["enemies"])
            return 1.5 if hidden else 0.5
        if name in ("Wilf", "Ood", "Ironsides"):
            return 0.5
        return 0.0  # Regeneration: only when nothing else

    # -- getting rid of cards -----------------------------------------------------------------
    def dispose(self, game: Any, obs: Observation | None, cards: Any) -> Any:
        """Nothing is worth doing: end the turn (careless: any way that is legal). ``obs``:
        the observation if ``choose`` read it already, else None."""
        passes = game.legal_actions(Pass)
        if passes:
            return self.rng.choice(passes)
        actions = game.legal_actions(Discard, Buy)
        discards = [a for a in actions if isinstance(a, Discard) and len(a.cards) == 1]
        buys = [a for a in actions if isinstance(a, Buy)]
        if not discards and buys:
            return buys[0]
        if not discards:
            return self.rng.choice(game.legal_actions())
        return self.rng.choice(discards)


class Careful(Greedy):
    """Greedy, but never hands its right-hand neighbour the cards that would help them most."""

    name = "careful"
    careful = True
    fused_turn = "doctorwho"  # games.doctorwho.fast plays it too, as its profile says
    fused_profile = {"dispose": "careful"}

    def dispose(self, game: Any, obs: Observation | None, cards: Any) -> Any:
        if obs is None:
            obs = game.observation(game.current_player, text=False)
        actions = game.legal_actions(Pass, Reserve, Discard)
        value = {c: help_value(cards[c]) for c in obs["hand"] + obs["reserve"]}
        if obs["endgame"]:  # one action a turn, no passing: burn the least useful card
            discards = [a for a in actions if isinstance(a, Discard) and len(a.cards) == 1]
            if discards:
                return min(discards, key=lambda a: (value[a.cards[0]], a.cards))
            return super().dispose(game, obs, cards)
        # the three weakest cards go to the right; the rest are reserved or burnt first
        keep = sorted(value, key=lambda c: (value[c], c))
        to_pass = set(keep[:3])
        extra = [c for c in obs["hand"] if c not in to_pass]
        if extra:
            strong = max(extra, key=lambda c: (value[c], c))
            for a in actions:
                if isinstance(a, Reserve) and a.cards == (strong,):
                    return a
            for a in actions:
                if isinstance(a, Discard) and a.cards == (strong,):
                    return a
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes:
            return min(passes, key=lambda a: (sum(value[c] for c in a.cards), a.cards))
        return super().dispose(game, obs, cards)


class Bluffer(Careful):
    """Careful, and plays weak cards face down where a stack alone may scare or tempt."""

    name = "bluffer"
    bluff = True
    fused_turn = "doctorwho"
    fused_profile = {"dispose": "careful", "bluff": True}


AGENTS: dict[str, type[Agent]] = {
    "greedy": Greedy,
    "careful": Careful,
    "bluffer": Bluffer,
    "random": RandomAgent,
}
DEFAULT = "greedy"
