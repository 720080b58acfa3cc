"""Bots for Kill Doctor Lucky: a random baseline and two readable strategies.

``opportunist`` (the default)
    Attacks whenever it can (with its best Weapon there), plans kills one or two moves ahead
    with its free step and its Move and Room cards, and otherwise snoops for cards close to
    where Doctor Lucky is going. It foils whenever it can cover what is still needed, as cheaply
    as possible.
``patient``
    Collects cards and attacks only when the attempt is worth at least 3 (a good Weapon, or a
    Weapon in its special room). It keeps its Failure cards unless it is the last player asked,
    hoping someone earlier pays: a lesson in what stinginess costs.
``random``
    Uniform over the legal actions: the baseline every strategy should beat.

>>> from luckylab import new_game
>>> from luckylab.agents.kill import Opportunist
>>> game = new_game("kill", players=3, seed=2)
>>> bots = [Opportunist(seed=s) for s in range(3)]
>>> while not game.is_over:
...     _ = game.apply(bots[game.current_player].choose(game))
>>> game.finished, game.winner in range(3)
(True, True)
"""

from __future__ import annotations

from ..games.kill import Attack, Foil, KillGame, PlayCard, Snoop, Step, attack_value
from .base import Agent, RandomAgent

__all__ = ["AGENTS", "DEFAULT", "Opportunist", "Patient", "best_weapon", "cheapest_foil",
           "kill_plan"]


def best_weapon(game: KillGame, seat: int, space: str) -> tuple[int | None, int]:
    """The Weapon in ``seat``'s hand worth most on ``space`` and its value (None, 1: bare hands)."""
    best: tuple[int | None, int] = (None, 1)
    kinds, cards = game._kinds, game.cards
    for c in game.hands[seat]:
        if kinds[c] == "weapon":
            value = attack_value(cards[c], space)
            if value > best[1]:
                best = (c, value)
    return best


def cheapest_foil(game: KillGame) -> Foil | None:
    """The legal Foil that covers what is still needed with the fewest points (then the fewest
    cards), or None if the current player's Failure cards cannot cover it."""
    needed = game.foil.needed
    luck = game._luck
    best, best_cost = None, None
    for a in game.legal_actions():  # the first of the cheapest wins, as min() would pick
        points = sum(luck[c] for c in a.cards)
        if points >= needed and (best_cost is None or (points, len(a.cards)) < best_cost):
            best, best_cost = a, (points, len(a.cards))
    return best


def kill_plan(game: KillGame, seat: int, min_value: int = 1):
    """The next action of a murder this turn worth at least ``min_value``, or None.

    Looks one move ahead (attack now; step, or play one card, to stand alone with him) and two
    (a free step or a card now that sets up the other).
    """
    here, doc = game.position[seat], game.doctor
    safe = game.unseen_spaces(seat)  # K-KILL-1: nobody else may see the murder space

    values: dict[str, int] = {}

    def worth(space: str) -> bool:
        if space not in safe:
            return False
        if space not in values:
            values[space] = best_weapon(game, seat, space)[1]
        return values[space] >= min_value

    if not safe:
        return None
    # can_attack(seat): with him, and no other player sees the space (it is in ``safe``)
    if here == doc and worth(here):
        return Attack(best_weapon(game, seat, here)[0])
    tables = game._t  # the board's precomputed doors, shared by every game
    doors = tables.doors
    may_step = not game.stepped
    kinds, deck = game._kinds, game.cards
    cards = [c for c in sorted(game.hands[seat]) if kinds[c] in ("move", "room")]
    doc_ok, here_ok = worth(doc), worth(here)
    # One move: step in on him, or a card that brings us together.
    if may_step and doc_ok and doc in doors[here]:
        return Step(doc)
    targets = game._targets  # (card, start) -> (set, sorted), the rules' card_targets
    for c in cards:
        if doc_ok and doc in targets(deck[c], here)[0]:
            return PlayCard(c, "self", doc)
        if here_ok and here in targets(deck[c], doc)[0]:
            return PlayCard(c, "doctor", here)
    # Two moves: step somewhere a card can then bring him, or use a card to get next to him.
    if may_step and cards:
        doctor_reach = set().union(*(targets(deck[c], doc)[0] for c in cards))
        for q in tables.exits[here]:
            if q in doctor_reach and worth(q):
                return Step(q)
        if doc_ok:
            for c in cards:
                for q in targets(deck[c], here)[1]:
                    if doc in doors[q]:
                        return PlayCard(c, "self", q)
    return None


class Opportunist(Agent):
    """Attack at every chance; otherwise snoop near where Doctor Lucky is heading."""

    trusted = True  # builds only legal actions (checked by tests/test_game_digests.py)
    reads_events = False

    name = "opportunist"
    min_value = 1

    def choose(self, game: KillGame):
        seat = game.current_player
        if game.phase == "foil":
            return self.foil(game, seat)
        plan = kill_plan(game, seat, self.min_value)
        if plan is not None:
            return plan
        if game.phase == "turn":
            return self.snoop(game, seat)
        return game.legal_actions()[-1]  # EndTurn: a plan fell through, keep the cards

    def snoop(self, game: KillGame, seat: int) -> Snoop:
        """Stay or step into a named room (to draw), as close as possible to Doctor Lucky's
        next room; with no named room in reach, stay."""
        here = game.position[seat]
        tables = game._t
        target = tables.doctor_next[game.doctor]  # doctor_next(game.board, game.doctor)
        rooms = tables.rooms
        options = [s for s in (here, *tables.exits[here]) if s in rooms]
        if not options:
            return Snoop(here)
        dist = game.board._dist
        return Snoop(min(options, key=lambda s: dist[s][target]))

    def foil(self, game: KillGame, seat: int) -> Foil:
        return cheapest_foil(game) or Foil(())


class Patient(Opportunist):
    """Attack only for 3 or more; foil only as the last one asked."""

    name = "patient"
    min_value = 3

    def foil(self, game: KillGame, seat: int) -> Foil:
        if seat != game.foil.order[-1]:
            return Foil(())
        return cheapest_foil(game) or Foil(())


AGENTS: dict[str, type[Agent]] = {
    "opportunist": Opportunist,
    "patient": Patient,
    "random": RandomAgent,
}
DEFAULT = "opportunist"
