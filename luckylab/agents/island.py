"""Bots for The Island of Doctor Lucky. Read one, copy it, change one idea, and play it off.

Each agent answers four kinds of question, one method each, and ``choose`` routes to them:

- ``phase1(game, me)``: move, move the cat, throw a Hazard, or pass;
- ``phase2(game, me)``: draw, attack, or pass;
- ``foil(game, me)``: which cards to discard against an attack (``Foil(())`` passes);
- ``penalty(game, me)``: hit by a Hazard, give a card or discard Luck.

A bot reads what its seat may know through ``game.view(me)`` (an
:class:`~luckylab.games.island.IslandView`: the board, the pawns, its own hand, how many cards
the others hold, and the rules' answers such as ``view.can_attack(me)``), and may ask the game
for its ``legal_actions()``. The helpers at the end take the game (or the seat's view, which
``view.view(me)`` returns as it is) and a seat.

>>> import luckylab
>>> from luckylab.agents.island import CautiousAgent
>>> game = luckylab.new_game("island", players=4, seed=3)
>>> agents = [CautiousAgent(seed=seat) for seat in range(4)]
>>> while not game.is_over:
...     _ = game.apply(agents[game.current_player].choose(game))
>>> game.winner is not None or game.turn >= game.turn_cap
True
"""

from __future__ import annotations

from typing import Any

from ..games.island import (
    DOCTOR,
    Attack,
    DiscardLuck,
    Draw,
    Foil,
    GiveCard,
    IslandGame,
    Move,
    MoveCat,
    Pass,
    PlayHazard,
)
from ..games.protocol import SeatView
from .base import Agent

__all__ = ["AGENTS", "DEFAULT", "AggressiveAgent", "CautiousAgent", "IslandAgent",
           "RandomIslandAgent"]


class IslandAgent(Agent):
    """The shared skeleton: route each decision to a method. Subclasses fill them in."""

    trusted = True  # builds only legal actions (checked by tests/test_game_digests.py)
    reads_events = False

    def choose(self, game: IslandGame) -> Any:
        me = game.current_player
        phase = game.phase  # what is being decided (the protocol)
        if phase == "phase1":
            return self.phase1(game, me)
        if phase == "phase2":
            return self.phase2(game, me)
        if phase == "foil":
            return self.foil(game, me)
        return self.penalty(game, me)

    def phase1(self, game: IslandGame, me: int) -> Any:
        return Pass()

    def phase2(self, game: IslandGame, me: int) -> Any:
        view = game.view(me)
        if view.can_attack(me):
            return Attack(best_weapon(view, me))
        return Draw() if view.can_draw(me) else Pass()

    def foil(self, game: IslandGame, me: int) -> Any:
        return Foil(())

    def penalty(self, game: IslandGame, me: int) -> Any:
        """Give away the card worth least to us (Luck first, then a Weapon's value)."""
        view = game.view(me)
        cards = view.cards
        worst = min(view.hand, key=lambda c: (cards[c].luck, cards[c].value or 0, c))
        return GiveCard(worst)


class RandomIslandAgent(IslandAgent):
    """Every choice at random: first a kind of action, then one of that kind.

    Choosing the kind first keeps the agent from spending almost every Phase 1 on moving the
    cat (there are 23 cat moves but only one pass). Foiling: each card is discarded with
    probability 1/2.
    """

    name = "random"

    def phase1(self, game: IslandGame, me: int) -> Any:
        view = game.view(me)
        cards = view.cards
        hazards = [(c, t) for c in view.hand if cards[c].kind == "hazard"
                   for t in view.hazard_targets(c, me)]
        kinds = ["cat"]  # the kinds of action open now, in alphabetical order
        if hazards:
            kinds.append("hazard")
        if view.has_moves(me):  # Moves are counted only if chosen, and only that one built
            kinds.append("move")
        kinds.append("pass")
        kind = self.rng.choice(kinds)
        if kind == "move":  # the same draw as rng.choice over the list of every Move
            return view.nth_move(self.rng.randrange(view.count_moves(me)), me)
        if kind == "cat":
            return MoveCat(self.rng.choice([s for s in view.board.spaces if s != view.cat]))
        if kind == "hazard":
            return PlayHazard(*self.rng.choice(hazards))
        return self.rng.choice([Pass()])  # a draw even from one: the same games as before

    def probability(self, game: IslandGame, action: Any) -> float | None:
        """The chance of ``action`` by the draws above: a kind, then one of that kind
        (Phase 1); one of the legal moves (Phase 2); each card of the hand kept or paid with
        probability 1/2 (foiling). None for a penalty (ask ``choose``)."""
        me, phase = game.current_player, game.phase
        view = game.view(me)
        if phase == "phase1":
            cards = view.cards
            hazards = [(c, t) for c in view.hand if cards[c].kind == "hazard"
                       for t in view.hazard_targets(c, me)]
            kinds = 2 + bool(hazards) + bool(view.has_moves(me))
            if isinstance(action, Pass):
                return 1 / kinds
            if isinstance(action, MoveCat):
                spaces = [s for s in view.board.spaces if s != view.cat]
                return spaces.count(action.space) / len(spaces) / kinds
            if isinstance(action, PlayHazard):
                return hazards.count((action.card, action.target)) / len(hazards) / kinds if (
                    hazards) else 0.0
            if isinstance(action, Move):
                # (one of count_moves; a Move that is not legal here drops the world anyway)
                return 1 / view.count_moves(me) / kinds if view.has_moves(me) else 0.0
            return 0.0
        if phase == "phase2":
            legal = game.legal_actions()
            return legal.count(action) / len(legal)
        if phase == "foil":
            hand = view.hand
            paid = set(getattr(action, "cards", ()) or ())
            fits = isinstance(action, Foil) and tuple(action.cards) == tuple(
                c for c in hand if c in paid)
            return 0.5 ** len(hand) if fits else 0.0
        return None

    def phase2(self, game: IslandGame, me: int) -> Any:
        return self.rng.choice(game.legal_actions())

    def foil(self, game: IslandGame, me: int) -> Any:
        return Foil(tuple(c for c in game.view(me).hand if self.rng.random() < 0.5))

    def penalty(self, game: IslandGame, me: int) -> Any:
        """Half the time give a random card; otherwise discard cards in random order until
        their Luck covers the Hazard (giving a card if the whole hand cannot)."""
        view = game.view(me)
        hand = list(view.hand)
        if self.rng.random() < 0.5:
            return GiveCard(self.rng.choice(hand))
        self.rng.shuffle(hand)
        value, chosen, luck = view.penalty_value, [], 0
        for c in hand:
            if luck >= value:
                break
            chosen.append(c)
            luck += view.cards[c].luck
        return DiscardLuck(tuple(chosen)) if luck >= value else GiveCard(hand[0])


class CautiousAgent(IslandAgent):
    """Conserve Luck, lie low, strike when alone.

    - Phase 1: if Doctor Lucky is within reach and the attack would be unseen, go to him. If
      we are already with him but watched, move the cat onto our space (nobody then sees in).
      Otherwise step to a hiding place (unseen) to draw, or stay if we are hidden already.
    - Phase 2: attack when allowed (with the best Weapon), else draw when unseen.
    - Foiling: pay only when we must: we are the last one asked, or the players still to be
      asked cannot be expected to cover what is needed. Then pay with the fewest Luck points
      that cover it.
    """

    name = "cautious"
    fused_turn = "island"  # the engine may play its turns itself (luckylab.games.island.fast)
    draws = False  # never draws from its generator

    def phase1(self, game: IslandGame, me: int) -> Any:
        view = game.view(me)
        step = attack_move(view, me)
        if step is not None:
            return step
        if view.position(me) == view.doctor and not view.can_attack(me) and alone_with_doctor(
                view, me) and view.cat != view.doctor:
            return MoveCat(view.doctor)  # the cat blinds everyone looking in (I-SIGHT-2)
        if view.can_draw(me):
            return Pass()
        hide = hiding_move(view, me)
        return hide if hide is not None else Pass()

    def foil(self, game: IslandGame, me: int) -> Any:
        view = game.view(me)
        round_ = view.foil
        later = round_.later  # the players asked after us
        expected_later = sum(expected_luck(view, s) for s in later)
        if later and expected_later >= round_.needed:
            return Foil(())  # free-ride: someone after us will probably pay
        return Foil(cheapest_cover(view, me, round_.needed))


class AggressiveAgent(CautiousAgent):
    """Attack at every chance, and make others pay.

    - Phase 1: throw a Hazard at Doctor Lucky whenever one can hit him; otherwise go for an
      unseen attack; otherwise throw a Hazard at a lone player (they pay Luck or a card);
      otherwise hide and draw like the cautious agent.
    - Foiling: never pays unless it is the very last one asked.
    """

    name = "aggressive"
    draws = False
    fused_turn = "island"  # the engine may play its turns itself, as this profile says:
    fused_profile = {"hazards": True, "foil": "last"}  # (luckylab.games.island.fast)

    def phase1(self, game: IslandGame, me: int) -> Any:
        view = game.view(me)
        cards = view.cards
        hazards = [c for c in view.hand if cards[c].kind == "hazard"]
        for c in sorted(hazards, key=lambda c: -cards[c].value):
            if DOCTOR in view.hazard_targets(c, me):
                return PlayHazard(c, DOCTOR)
        step = attack_move(view, me)
        if step is not None:
            return step
        for c in hazards:
            targets = [t for t in view.hazard_targets(c, me) if t != DOCTOR]
            if targets:
                return PlayHazard(c, max(targets, key=view.hand_size))
        return super().phase1(game, me)

    def foil(self, game: IslandGame, me: int) -> Any:
        view = game.view(me)
        round_ = view.foil
        if len(round_.asked) + 1 < len(round_.order):
            return Foil(())
        return Foil(cheapest_cover(view, me, round_.needed))


# -- small helpers the agents share (students can reuse them) --------------------------------


def best_weapon(game: IslandGame, me: int) -> int | None:
    """The Weapon in hand worth most where we stand (None if we hold none)."""
    view = game.view(me)
    here, cards = view.position(me), view.cards
    weapons = [c for c in view.hand if cards[c].kind == "weapon"]
    if not weapons:
        return None
    return max(weapons, key=lambda c: (cards[c].weapon_value(here), -c))


def alone_with_doctor(game: IslandGame, me: int) -> bool:
    """Are we on Doctor Lucky's space with no other pawn?"""
    view = game.view(me)
    positions = view.positions
    here = positions[me]
    return here == view.doctor and all(s == me or positions[s] != here for s in view.order)


def unseen_at(game: IslandGame, me: int, space: str) -> bool:
    """Would a pawn of ours on ``space`` be unseen by every other pawn (Doctor Lucky aside)?"""
    return not game.view(me).is_watched(me, space, doctor=False)


def attack_move(game: IslandGame, me: int) -> Move | None:
    """A move onto Doctor Lucky's space where we would be alone and unseen, if one exists."""
    view = game.view(me)
    target = view.doctor
    here = view.position(me)
    if here == target or view.board.distance(here, target) > view.move[me]:
        return None
    if view.pawns_at(target):  # somebody else is with him
        return None
    return Move.to(me, target) if unseen_at(view, me, target) else None


def hiding_move(game: IslandGame, me: int) -> Move | None:
    """A reachable space where nobody (Doctor Lucky included) would see us, nearest first."""
    view = game.view(me)
    budget = view.move[me]
    for space, steps in view.board.by_distance(view.position(me)):
        if steps > budget:
            break
        if steps and not view.is_watched(me, space):
            return Move.to(me, space)
    return None


def expected_luck(game: IslandGame, seat: int) -> float:
    """What a seat is expected to contribute, judged from what everyone can see: its hand
    size times the average Luck of a card (a Stranger turns up one card)."""
    # the hand sizes and the deck's size are public: any seat's view tells them
    view = game if isinstance(game, SeatView) else game.view(game.current_player)
    if view.is_stranger(seat):
        return view.mean_luck if view.deck_size else 0.0
    return view.hand_size(seat) * view.mean_luck


def cheapest_cover(game: IslandGame, me: int, needed: int) -> tuple[int, ...]:
    """The cards that reach ``needed`` Luck with the least Luck spent (then the fewest cards,
    then the fewest Weapons); empty if the hand cannot reach it.

    A small dynamic programme over Luck totals, like packing a knapsack: ``combo[total]`` is
    the best way found so far to discard exactly ``total`` Luck, and ``cost[total]`` says how
    good it is: ``cards * per_card + weapons``, so fewer cards always wins and, among as many
    cards, fewer Weapons (``per_card`` is more than the deck's size).
    """
    view = game.view(me)
    cards = view.cards
    hand = [c for c in view.hand if cards[c].luck > 0]
    if sum(cards[c].luck for c in hand) < needed:
        return ()
    cap = needed + 4  # no card has more than 4 Luck, so the cheapest cover stays below this
    per_card = len(cards) + 1
    unknown = per_card * per_card  # costlier than any real way: "no way found yet"
    cost = [0] + [unknown] * (cap - 1)
    combo: list[tuple[int, ...]] = [()] * cap
    reached = 0  # the largest total any cards so far can make
    for c in hand:
        luck = cards[c].luck
        price = per_card + (cards[c].kind == "weapon")
        for total in range(min(reached, cap - 1 - luck), -1, -1):  # downwards: each card once
            if cost[total] + price < cost[total + luck]:
                cost[total + luck] = cost[total] + price
                combo[total + luck] = (*combo[total], c)
        reached = min(reached + luck, cap - 1)
    for total in range(max(needed, 1), cap):
        if cost[total] < unknown:
            return combo[total]
    return ()


AGENTS: dict[str, type[IslandAgent]] = {
    "cautious": CautiousAgent,
    "aggressive": AggressiveAgent,
    "random": RandomIslandAgent,
}
DEFAULT = "cautious"
