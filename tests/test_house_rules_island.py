"""A house rule is the rule that runs: a subclass of ``IslandGame`` that changes a rule is
obeyed by ``luckylab.simulate`` on its default path (issue 41, item 2).

The engine's fused turns (``luckylab.games.island.fast``) play the book's rules with the
default bots, faster; they run only for ``IslandGame`` itself, with none of its methods
replaced (``luckylab.games.fused.plays_as_written``). Each test plays a house rule through
``simulate`` as a student would, checks the rule held, and checks that without the guard the
fused turns would have played the book's rule instead (so the test fails when the guard goes).
"""

from __future__ import annotations

import functools

import pytest

import luckylab
from luckylab.games.island import IslandGame, fast, rules
from luckylab.simulation import play_game


class NoAttacks(IslandGame):
    """``I-KILL-1`` changed: nobody may attack Doctor Lucky (players and Strangers alike)."""

    def can_attack(self, seat: int) -> bool:
        return False


class StrictlyMoreLuck(IslandGame):
    """``I-FOIL-2`` changed: a foil needs strictly more Luck than the attack."""

    def foil_threshold(self, value: int) -> int:
        return value + 1


class CatBlindsNobody(IslandGame):
    """``I-SIGHT-2`` changed: the cat blocks no sight."""

    def sight(self):
        return _sight_without_cat(self.board)


@functools.cache
def _sight_without_cat(board):
    return {space: board.visible_from(space) for space in board.spaces}


def _without_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path as it was before the guard: any game of the Island's name took it."""
    monkeypatch.setattr(rules, "plays_as_written", lambda game, cls: True)


def _murders(results) -> int:
    return sum(r.attempts for r in results)


def test_I_KILL_1_a_house_rule_forbidding_attacks_holds_in_simulate(monkeypatch):
    results = luckylab.simulate(NoAttacks, players=4, games=6, seed=1)
    assert _murders(results) == 0 and all(r.winner is None for r in results)
    assert all(r.game == "island" and r.turns == 2000 for r in results)  # stopped at the cap
    _without_guard(monkeypatch)
    assert _murders(luckylab.simulate(NoAttacks, players=4, games=6, seed=1)) > 0


def test_I_KILL_1_strangers_obey_the_house_rule_too():
    results = luckylab.simulate(NoAttacks, players=2, games=3, seed=4, turn_cap=300)
    assert _murders(results) == 0


def test_I_FOIL_2_a_house_rule_asking_strictly_more_luck_holds_in_simulate(monkeypatch):
    def foiled(results):
        spent = [(a["luck_spent"], a["value"]) for r in results for a in r.extra["attempts"]
                 if a["foiled"]]
        return sum(s == v for s, v in spent), sum(s > v for s, v in spent)

    exactly, more = foiled(luckylab.simulate(StrictlyMoreLuck, players=4, games=40, seed=2))
    assert exactly == 0 and more > 50
    book_exactly, _ = foiled(luckylab.simulate("island", players=4, games=40, seed=2))
    assert book_exactly > 50  # by the book, reaching the value is enough
    _without_guard(monkeypatch)
    exactly, _ = foiled(luckylab.simulate(StrictlyMoreLuck, players=4, games=40, seed=2))
    assert exactly > 0


@pytest.mark.parametrize("house", [NoAttacks, StrictlyMoreLuck, CatBlindsNobody])
def test_the_default_path_plays_the_same_games_as_the_checked_path(house, monkeypatch):
    """The default path (quiet, trusted) and ``checked=True`` play the same games of a house
    rule; without the guard they differ (the fused turns play the book)."""
    seeds = range(12)

    def both():
        return ([play_game(house, 4, s, turn_cap=400) for s in seeds],
                [play_game(house, 4, s, checked=True, turn_cap=400) for s in seeds])

    default, checked = both()
    assert default == checked
    book = [play_game("island", 4, s, turn_cap=400) for s in seeds]
    assert book != checked  # the house rule changes games
    _without_guard(monkeypatch)
    default, checked = both()
    assert default != checked


def test_I_SIGHT_2_the_cat_that_blinds_nobody_changes_who_sees_whom():
    game, book = CatBlindsNobody(players=4, seed=1), IslandGame(players=4, seed=1)
    board = book.board
    looker, space = next((a, b) for a in board.spaces for b in board.visible_from(a)
                         if a != b and b not in board.visible_from(a, b))  # the cat on b
    for g in (game, book):
        g.cat, g.position[0], g.position[1] = space, space, looker
    assert space not in book.sight()[looker] and 1 not in book.watchers(0)
    assert space in game.sight()[looker] and 1 in game.watchers(0)
    assert not game.can_draw(0)


def test_the_book_rules_take_the_fused_turns_and_a_house_rule_does_not(monkeypatch):
    calls = []
    real = fast.play_out
    monkeypatch.setattr(fast, "play_out", lambda *a, **k: (calls.append(1), real(*a, **k)))
    luckylab.simulate("island", players=4, games=3, seed=1)
    assert len(calls) == 3
    luckylab.simulate(StrictlyMoreLuck, players=4, games=3, seed=1)
    assert len(calls) == 3


def test_a_rule_replaced_on_the_class_itself_is_obeyed(monkeypatch):
    monkeypatch.setattr(IslandGame, "can_attack", lambda self, seat: False)
    assert _murders(luckylab.simulate("island", players=4, games=4, seed=1, turn_cap=300)) == 0


def test_a_rule_replaced_on_one_game_is_obeyed():
    from luckylab.agents.island import CautiousAgent

    game = IslandGame(players=4, seed=1)
    game.can_attack = lambda seat: False
    game.quieten()
    bots = [CautiousAgent(seed=s) for s in range(4)]
    game.play_out([b.choose for b in bots])
    assert game.turn == game.turn_cap and not game.attempt_log


def test_a_method_of_the_games_mixins_replaced_takes_the_readable_path(monkeypatch):
    """The guard watches the methods IslandGame takes from its own package (ids.py,
    view.py) too: replaced there, or shadowed on the class, the fused turns stand aside."""
    from luckylab.games.island.ids import IslandIds

    calls = []
    real = fast.play_out
    monkeypatch.setattr(fast, "play_out", lambda *a, **k: (calls.append(1), real(*a, **k)))
    luckylab.simulate("island", players=4, games=2, seed=1)
    assert len(calls) == 2
    monkeypatch.setattr(IslandIds, "move_actions", IslandIds.move_actions)  # the same, anew?
    luckylab.simulate("island", players=4, games=2, seed=1)
    assert len(calls) == 4  # the very same function: nothing replaced
    monkeypatch.setattr(IslandIds, "move_actions", lambda self, seat: iter(()))
    luckylab.simulate("island", players=4, games=2, seed=1, turn_cap=50)
    assert len(calls) == 4
    monkeypatch.undo()
    monkeypatch.setattr(fast, "play_out", lambda *a, **k: (calls.append(1), real(*a, **k)))
    monkeypatch.setattr(IslandGame, "move_actions", lambda self, seat: iter(()), raising=False)
    luckylab.simulate("island", players=4, games=2, seed=1, turn_cap=50)
    assert len(calls) == 4
