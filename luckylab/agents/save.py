"""Bots for Save Doctor Lucky: a random baseline and three readable strategies.

The strategies share the same small helpers (below), and differ in two choices: *when* to try
a rescue, and *whether* to spend Failure cards or leave it to the players after you.

``greedy``
    Tries a rescue whenever one is legal (moving into Doctor Lucky's room first if a card or
    the free step gets it there in front of a witness), and blocks every attempt it can.
``rider``
    Rides the "Lucky Train": stands where Doctor Lucky goes next, so that he walks in and hands
    it another turn, and snoops for cards. It tries a rescue only with an attempt worth 3 or
    more, or once half the ship has sunk; it passes a failure round to the players after it
    unless they look short of cards (or it is last, where ``S-FAIL-3`` may force it).
``cautious``
    Plays against the sinking clock: until ``patience`` decks have sunk (3 by default: the
    ship is down to its last deck) it tries only strong attempts, worth 4 or more; after that
    it tries at every chance. It rides the Lucky Train for cards meanwhile and blocks every
    attempt it can. Waiting saves your Aid cards and lets the others spend their Failures, but
    the ship may sink first (``S-SINK-2``): nobody wins then.

The bots read the game through its view (``game.view(seat)``, a
:class:`~luckylab.games.save.SaveView`): what their seat may know, and the rules' answers
(may I rescue here? who would see me there? what is this attempt worth?). So a house rule
written in a subclass of ``SaveGame`` reaches them too.

>>> from luckylab import new_game
>>> game = new_game("save", players=4, seed=3)
>>> agent = GreedyAgent(seed=0)
>>> action = agent.choose(game)
>>> action in game.legal_actions()
True
"""

from __future__ import annotations

from typing import Any

from ..games.save import (
    DOCTOR,
    SELF,
    EndTurn,
    Foil,
    PlayMove,
    Rescue,
    SaveGame,
    SaveView,
    Snoop,
    Step,
)
from .base import Agent, RandomAgent

__all__ = [
    "AGENTS", "DEFAULT", "CautiousAgent", "GreedyAgent", "SaveRandomAgent", "TrainRiderAgent",
    "best_aid",
    "cheapest_block",
    "setup_move", "snoop_towards",
]


def best_aid(view: SaveView, seat: int, room: str) -> tuple[int, int | None]:
    """The most valuable attempt ``seat`` can make in ``room``: ``(value, aid card or None)``,
    as the rules value it (``view.rescue_value``, ``S-SAVE-2``)."""
    value = view.rescue_value
    best: tuple[int, int | None] = (value(None, room), None)
    for c in view.aids_in_hand(seat):
        worth = value(c, room)
        if worth > best[0]:
            best = (worth, c)
    return best


def cheapest_block(view: SaveView, legal: list[Foil] | None = None) -> Foil | None:
    """The legal discard that stops the attempt with the fewest points (then fewest cards);
    the first such in ``legal``. Without ``legal``, the same answer from the view's
    :meth:`~luckylab.games.save.SaveView.cheapest_foil`, which need not list every discard."""
    if legal is None:
        return view.cheapest_foil()
    attempt = view.attempt
    needed = attempt.needed if attempt else 0
    best, best_cost = None, None
    card = view.card
    for action in legal:
        cost = (sum([card(c).luck for c in action.cards]), len(action.cards))
        if cost[0] >= needed and (best_cost is None or cost < best_cost):
            best, best_cost = action, cost
    return best


def setup_move(view: SaveView, seat: int) -> Step | PlayMove | None:
    """A step or Move card after which ``seat`` could try a rescue: it ends in Doctor Lucky's
    room (or brings him to ``seat``) in front of a witness. The free step first: it costs no
    card."""
    here, doctor = view.position(seat), view.doctor
    seen_by, reach = view.witnesses, view.move_destinations
    if not view.step_used and doctor in view.exits(here) and seen_by(seat, doctor):
        return Step(doctor)
    for card in view.moves_in_hand(seat):
        if doctor in reach(card, here) and seen_by(seat, doctor):
            return PlayMove(card, SELF, doctor)
        if here in reach(card, doctor) and seen_by(seat, here):
            return PlayMove(card, DOCTOR, here)
    return None


def snoop_towards(view: SaveView, seat: int, room: str) -> Snoop | EndTurn:
    """The snooping step that ends closest to ``room`` (staying put on a tie); after an active
    start, when snooping is no longer possible, end the turn."""
    if view.phase != "turn":
        return EndTurn()
    here = view.position(seat)
    options = [here, *view.exits(here)]
    dist = view.board.distance
    return Snoop(min(options, key=lambda to: (dist(to, room), to != here)))


class GreedyAgent(Agent):
    """Rescue at every chance, block every attempt it can."""

    trusted = True  # builds only legal actions (checked by tests/test_game_digests.py)
    reads_events = False

    name = "greedy"
    draws = False  # never draws from its generator

    def choose(self, game: SaveGame) -> Any:
        seat = game.current_player
        view = game.view(seat)
        if view.phase == "foil":
            return cheapest_block(view) or Foil()
        if view.rescue_problem(seat) is None:
            return Rescue(best_aid(view, seat, view.position(seat))[1])
        move = setup_move(view, seat)
        if move is not None:
            return move
        return snoop_towards(view, seat, view.doctor_next)


class TrainRiderAgent(Agent):
    """Ride the Lucky Train for cards; rescue only with a good attempt; pass the buck."""

    trusted = True  # builds only legal actions (checked by tests/test_game_digests.py)
    reads_events = False

    name = "rider"
    draws = False  # never draws from its generator
    fused_turn = "save"  # the engine may play its turns itself (luckylab.games.save.fast)
    good_attempt = 3

    def choose(self, game: SaveGame) -> Any:
        seat = game.current_player
        view = game.view(seat)
        if view.phase == "foil":
            return self._foil(game, view)
        late = len(view.afloat) <= len(view.decks) // 2
        if view.rescue_problem(seat) is None:
            value, aid = best_aid(view, seat, view.position(seat))
            if value >= self.good_attempt or late:
                return Rescue(aid)
        elif best_aid(view, seat, view.doctor)[0] >= self.good_attempt or late:
            move = setup_move(view, seat)
            if move is not None:
                return move
        # Stand where he goes next: he walks in and the turn comes back (S-DOC-4).
        return snoop_towards(view, seat, view.doctor_next)

    def _foil(self, game: SaveGame, view: SaveView) -> Foil:
        attempt = view.attempt
        assert attempt is not None
        block = cheapest_block(view)
        may_pass = view.may_pass()
        if block is None:
            return Foil() if may_pass else game.legal_actions()[0]
        if not may_pass:  # S-FAIL-3 forces the last player asked
            return block
        cards_behind = sum(view.hand_size(s) for s in attempt.asked_later)
        # Hand sizes are public: about 2 cards in 5 are Failures, worth 1.5 points each.
        return block if cards_behind < 2 * attempt.needed else Foil()


class CautiousAgent(Agent):
    """Wait for a strong attempt until ``patience`` decks have sunk; then rescue at every
    chance. Block every attempt it can."""

    trusted = True  # builds only legal actions (checked by tests/test_game_digests.py)
    reads_events = False

    name = "cautious"
    draws = False  # never draws from its generator (a patience_agent subclass: seeded anew)
    patience = 3
    """Decks that must sink before any attempt will do (3 of 4: the last deck afloat)."""
    strong_attempt = 4
    """Before that, only attempts worth this much or more (an Aid card in its own room)."""

    def choose(self, game: SaveGame) -> Any:
        seat = game.current_player
        view = game.view(seat)
        if view.phase == "foil":
            return cheapest_block(view) or Foil()
        # The clock: decks sink as the piles run out (S-SINK-1), one card per snooping turn.
        hurry = len(view.sunk) >= self.patience
        if view.rescue_problem(seat) is None:
            value, aid = best_aid(view, seat, view.position(seat))
            if value >= self.strong_attempt or hurry:
                return Rescue(aid)
        elif hurry or best_aid(view, seat, view.doctor)[0] >= self.strong_attempt:
            move = setup_move(view, seat)
            if move is not None:
                return move
        return snoop_towards(view, seat, view.doctor_next)


class SaveRandomAgent(RandomAgent):
    """:class:`~luckylab.agents.base.RandomAgent` for Save Doctor Lucky: the same action from
    the same seed, picked with :meth:`~luckylab.games.save.SaveGame.random_action`,
    which does not build the whole list of legal actions first (a speed-up, nothing else).

    >>> from luckylab import new_game
    >>> game = new_game("save", players=4, seed=3)
    >>> SaveRandomAgent(seed=1).choose(game) == RandomAgent(seed=1).choose(game)
    True
    """


AGENTS: dict[str, type[Agent]] = {
    "greedy": GreedyAgent,
    "rider": TrainRiderAgent,
    "random": SaveRandomAgent,
    "cautious": CautiousAgent,
}
"""Agent name -> class, for :func:`luckylab.agents.agent_class` and :func:`luckylab.simulate`."""

DEFAULT = "rider"
