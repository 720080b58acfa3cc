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

The bots read the game through the seat's view (``game.view(seat)``: its hand, the board's
doors and card reach, the rules' answers such as ``can_attack``); the helpers at the end of this
module do that, so the strategies read as plain rules.

>>> from luckylab import new_game
>>> from luckylab.agents.kill import Opportunist
>>> game = new_game("kill", players=3, seed=2)
>>> bots = [Opportunist(seed=s) for s in range(3)]
>>> while not game.is_over:
...     _ = game.apply(bots[game.current_player].choose(game))
>>> game.view().finished, game.view().winner in range(3)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..boards.board import Board
from ..games.kill import Attack, EndTurn, Foil, KillGame, KillView, PlayCard, Snoop, Step
from ..games.kill.actions import Action
from ..games.kill.rules import attack_value
from .base import Agent, RandomAgent

__all__ = ["AGENTS", "DEFAULT", "Opportunist", "Patient", "RandomKillAgent", "best_weapon",
           "cheapest_foil", "kill_plan", "nearest_room"]


def best_weapon(view: KillView, seat: int, space: str) -> tuple[int | None, int]:
    """The Weapon in ``seat``'s hand worth most on ``space`` and its value (None, 1: bare hands)."""
    best: tuple[int | None, int] = (None, 1)
    kinds, cards = view.kinds, view.cards
    for c in view.hand_of(seat):
        if kinds[c] == "weapon":
            value = attack_value(cards[c], space)
            if value > best[1]:
                best = (c, value)
    return best


def cheapest_foil(game: KillGame) -> Foil | None:
    """The legal Foil that covers what is still needed with the fewest points (then the fewest
    cards), or None if the current player's Failure cards cannot cover it."""
    view = game.view(game.current_player)
    needed = view.needed
    known = _remembered_foil(view, needed)  # a hand like this one, needing as much, was seen
    if known is not _UNKNOWN:
        return known  # type: ignore[return-value]
    luck = view.luck
    best, best_cost = None, None
    for a in game.legal_actions():  # the first of the cheapest wins, as min() would pick
        points = sum(luck[c] for c in a.cards)
        if points >= needed and (best_cost is None or (points, len(a.cards)) < best_cost):
            best, best_cost = a, (points, len(a.cards))
    _remember_foil(view, needed, best)
    return best


def kill_plan(view: KillView, seat: int, min_value: int = 1) -> Action | None:
    """The next action of a murder this turn worth at least ``min_value``, or None.

    Looks one move ahead (attack now; step, or play one card, to stand alone with him) and two
    (a free step or a card now that sets up the other).
    """
    here, doc = view.position(seat), view.doctor
    safe = view.unseen_spaces(seat)  # K-KILL-1: nobody else may see the murder space
    if not safe:
        return None
    worth = _murder_test(view, seat, safe, min_value)  # worth(space): a good place for it?
    if here == doc and view.can_attack(seat) and worth(here):
        return Attack(best_weapon(view, seat, here)[0])
    doors = view.doors  # the board's doors, shared by every game
    reach = view.reach  # reach[card][start] = (targets, targets sorted): card_targets
    may_step = not view.stepped
    cards = view.moving_cards(seat)
    doc_ok, here_ok = worth(doc), worth(here)
    # One move: step in on him, or a card that brings us together.
    if may_step and doc_ok and doc in doors[here]:
        return Step(doc)
    for c in cards:
        if doc_ok and doc in reach[c][here][0]:
            return PlayCard(c, "self", doc)
        if here_ok and here in reach[c][doc][0]:
            return PlayCard(c, "doctor", here)
    # Two moves: step somewhere a card can then bring him, or use a card to get next to him.
    if may_step and cards:
        doctor_reach = set().union(*[reach[c][doc][0] for c in cards])
        for q in view.exits[here]:
            if q in doctor_reach and worth(q):
                return Step(q)
        if doc_ok:
            next_to_him = doors[doc]
            for c in cards:
                landing = reach[c][here][0] & next_to_him
                if landing:
                    return PlayCard(c, "self", min(landing))  # the first in sorted order
    return None


class Opportunist(Agent):
    """Attack at every chance; otherwise snoop near where Doctor Lucky is heading."""

    trusted = True  # builds only legal actions (checked by tests/test_game_digests.py)
    reads_events = False
    fused_turn = "kill"  # the engine may play its turns itself (luckylab.games.kill.fast)
    draws = False  # never draws from its generator

    name = "opportunist"
    min_value = 1

    def choose(self, game: KillGame):
        seat = game.current_player
        view = game.view(seat)
        phase = view.phase
        if phase == "foil":
            return self.foil(game, seat)
        plan = kill_plan(view, seat, self.min_value)
        if plan is not None:
            return plan
        if phase == "turn":
            return self.snoop(game, seat)
        return EndTurn()  # a plan fell through: keep the cards

    def snoop(self, game: KillGame, seat: int) -> Snoop:
        """Stay or step into a named room (to draw), as close as possible to Doctor Lucky's
        next room; with no named room in reach, stay."""
        view = game.view(seat)
        return Snoop(nearest_room(view.board, view.position(seat), view.doctor_next))

    def foil(self, game: KillGame, seat: int) -> Foil:
        return cheapest_foil(game) or Foil(())


class Patient(Opportunist):
    """Attack only for 3 or more; foil only as the last one asked."""

    name = "patient"
    min_value = 3
    draws = False
    fused_turn = "kill"  # the engine may play its turns itself, as this profile says:
    fused_profile = {"min_value": min_value, "foil": "last"}  # (luckylab.games.kill.fast)

    def foil(self, game: KillGame, seat: int) -> Foil:
        if seat != game.view(seat).foil.order[-1]:  # type: ignore[union-attr]
            return Foil(())
        return cheapest_foil(game) or Foil(())


class RandomKillAgent(RandomAgent):
    """Uniform over the legal actions, as :class:`~luckylab.agents.base.RandomAgent`: the
    engine's ``random_action`` counts the actions and builds only the one it picks (the same
    draw, so the same games)."""


# -- helpers: the bots' questions answered from the seat's view --------------------------------


def _murder_test(view: KillView, seat: int, safe: frozenset[str],
                 min_value: int) -> Callable[[str], bool]:
    """``kill_plan``'s test of a space: unseen by the others (in ``safe``) and ``seat``'s best
    attack there worth ``min_value``. Bare hands are worth 1, so ``min_value`` 1 asks only
    for ``safe``; for more, each space's best Weapon is looked up once."""
    if min_value <= 1:
        return safe.__contains__
    values: dict[str, int] = {}

    def worth(space: str) -> bool:
        if space not in safe:
            return False
        if space not in values:
            values[space] = best_weapon(view, seat, space)[1]
        return values[space] >= min_value

    return worth


# cheapest_foil's answers. The legal Foils, their order and their points depend only on the
# values of the Failure cards in hand (in id order), so the answer for one hand, written as
# the places of the cards to play among them, serves every hand with the same values.
# (values in id order, points needed) -> places of the cards to play, or None: cannot foil
_FOIL_ANSWERS: dict[tuple[tuple[int, ...], int], tuple[int, ...] | None] = {}
_UNKNOWN = object()


def _remembered_foil(view: KillView, needed: int) -> Foil | None | object:
    failures = view.failure_cards(view.seat)  # type: ignore[arg-type]  # sorted by id
    luck = view.luck
    places = _FOIL_ANSWERS.get((tuple([luck[c] for c in failures]), needed), _UNKNOWN)
    if places is None or places is _UNKNOWN:
        return places
    return Foil(tuple([failures[i] for i in places]))


def _remember_foil(view: KillView, needed: int, foil: Foil | None) -> None:
    failures = view.failure_cards(view.seat)  # type: ignore[arg-type]
    luck = view.luck
    if len(_FOIL_ANSWERS) >= 20_000:  # a memory bound
        _FOIL_ANSWERS.clear()
    _FOIL_ANSWERS[tuple([luck[c] for c in failures]), needed] = (
        None if foil is None else tuple(failures.index(c) for c in foil.cards))


@lru_cache(maxsize=4096)
def nearest_room(board: Board, here: str, target: str) -> str:
    """Of ``here`` and its neighbours (sorted), the first named room (where a snoop draws) as
    close as possible to ``target``; ``here`` if none is a room. Remembered per board.

    >>> from luckylab import load_board
    >>> mansion = load_board("kill-doctor-lucky")
    >>> nearest_room(mansion, "Drawing Room", "Kitchen"), nearest_room(mansion, "Foyer", "Kitchen")
    ('Dining Hall', 'Drawing Room')
    """
    options = [s for s in (here, *sorted(board.graph[here])) if board.kind(s) == "room"]
    if not options:
        return here
    return min(options, key=lambda s: board.distance(s, target))


AGENTS: dict[str, type[Agent]] = {
    "opportunist": Opportunist,
    "patient": Patient,
    "random": RandomKillAgent,
}
DEFAULT = "opportunist"
