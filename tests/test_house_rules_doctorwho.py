"""House rules for Doctor Who: a subclass that changes a rule is played by its own rules on
:func:`luckylab.simulate`'s default path (issue 41, item 2).

``simulate`` plays a quiet game of bundled bots through ``DoctorWhoGame.play_out``, which runs
the fused turns of :mod:`luckylab.games.doctorwho.fast` (the default bots and the original rules
in one loop) only for the class ``DoctorWhoGame`` itself, as written
(:func:`luckylab.games.fused.plays_as_written`). Each subclass here changes a rule the way a
lesson exercise would; the default path must play it exactly as ``checked=True`` does (the
readable rules, every action checked) and show the change, and the same subclass with the guard
removed must not (so that these tests fail if the guard goes). The unchanged class still takes
the fused turns.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

import luckylab
from luckylab.agents import readable, register_agents
from luckylab.agents.doctorwho import AGENTS, DEFAULT
from luckylab.errors import IllegalAction
from luckylab.games import registry
from luckylab.games.doctorwho import fast, rules
from luckylab.games.doctorwho.rules import DoctorWhoGame

GAMES = 20
HOUSE = "doctorwho_house"


class Played(DoctorWhoGame):
    """Keeps each game it finishes (``simulate`` returns results only)."""

    played: ClassVar[list[DoctorWhoGame]]

    def result(self) -> Any:
        type(self).played.append(self)
        return super().result()


class NoAttacks(Played):
    """House rule: nobody sends Enemies at a Location (``D-ENE-1`` struck out)."""

    def _attack_targets(self, seat: int) -> list[int]:
        return []

    def _check_attack(self, seat: int, a: Any) -> None:
        raise IllegalAction("house rule: no attacks")


class ThreeCountersEnd(Played):
    """House rule: three counters of a kind in play end the game (``D-END-1`` says five)."""

    def _begin_turn(self) -> None:
        seat = self.turn_player
        if self.daleks_in_play(seat) >= 3 or self.tardis_in_play(seat) >= 3:
            self._finish(f"{self._p(seat)} has three counters of a kind in play (house rule)")
        else:
            super()._begin_turn()


class TwoDaleks(Played):
    """House rule: two Dalek counters each (ruling 2: no new attack without a free one)."""

    def has_free_dalek(self, seat: int) -> bool:
        return self.daleks_in_play(seat) < 2


class OpenAttacks(Played):
    """House rule: Enemies are played face up, for everyone to see (``D-ENE-1`` says face
    down); their reveal TP are paid as they are played (ruling 5)."""

    def _do_attack(self, seat: int, a: Any) -> None:
        super()._do_attack(seat, a)
        loc = self.locs[a.loc]
        turning = [e for e in a.cards if e in loc.enemies and e not in loc.up]
        loc.up.update(turning)
        self._reveal_tp(seat, loc.owner, turning)


@pytest.fixture
def fused_calls(monkeypatch):
    """How many games the fused turns played (``fast.play_out`` counted)."""
    calls = []
    real = fast.play_out

    def counted(*args: Any, **kwargs: Any) -> None:
        calls.append(args[0])
        real(*args, **kwargs)

    monkeypatch.setattr(fast, "play_out", counted)
    return calls


@pytest.fixture
def house(monkeypatch, fused_calls):
    """``play(cls, guard=True, checked=False)``: ``simulate`` a game registered as ``HOUSE``
    and played by ``cls`` with the bundled bots (the registry is restored afterwards); the
    results and the games ``cls`` finished."""
    monkeypatch.setitem(registry.GAMES, HOUSE, "")  # absent before: removed again after
    monkeypatch.setitem(registry._LOADERS, HOUSE, None)
    monkeypatch.setitem(readable.REGISTERED, HOUSE, None)

    def play(cls: type[Played], guard: bool = True, checked: bool = False,
             players: int = 4) -> tuple[list[Any], list[DoctorWhoGame]]:
        registry.register_game(HOUSE, cls)
        register_agents(HOUSE, AGENTS, DEFAULT)
        cls.played = []
        with monkeypatch.context() as patch:
            if not guard:  # the fast path as it was: any engine of the bots' game
                patch.setattr(rules, "plays_as_written", lambda game, cls: True)
            results = luckylab.simulate(HOUSE, players=players, games=GAMES, seed=1,
                                        checked=checked)
        return results, cls.played

    return play


def _as_written(house, cls: type[Played]) -> tuple[list[Any], list[DoctorWhoGame]]:
    """``cls`` through ``simulate``'s default path, checked against ``checked=True``."""
    results, games = house(cls)
    assert results == house(cls, checked=True)[0]  # the readable rules, every action checked
    assert len(games) == GAMES
    return results, games


def _unguarded(house, cls: type[Played], fused_calls: list[Any]
               ) -> tuple[list[Any], list[DoctorWhoGame]]:
    """``cls`` through the fused turns with the guard removed: the original rules."""
    fused_calls.clear()
    results, games = house(cls, guard=False)
    assert len(fused_calls) == GAMES
    assert results != house(cls, checked=True)[0]
    return results, games


def test_the_unchanged_game_takes_the_fused_turns(fused_calls):
    results = luckylab.simulate("doctorwho", players=4, games=GAMES, seed=1)
    assert len(fused_calls) == GAMES
    assert all(type(game) is DoctorWhoGame for game in fused_calls)
    assert results == luckylab.simulate("doctorwho", players=4, games=GAMES, seed=1,
                                        checked=True)


def test_a_subclass_plays_its_own_rules_even_unchanged(house, fused_calls):
    results, _ = _as_written(house, Played)
    assert not fused_calls
    assert results == luckylab.simulate("doctorwho", players=4, games=GAMES, seed=1)


def test_D_ENE_1_a_house_rule_forbidding_attacks_is_obeyed(house, fused_calls):
    results, games = _as_written(house, NoAttacks)
    assert not fused_calls
    assert all(r.attempts == 0 for r in results)  # no conflict: nobody attacked
    assert not any(loc.attacker is not None or loc.enemies
                   for game in games for loc in game.locs.values())
    assert all(r.finished for r in results)
    unguarded, _ = _unguarded(house, NoAttacks, fused_calls)
    assert sum(r.attempts for r in unguarded) > 0  # the fused turns attack all the same


def test_D_END_1_a_house_rule_ending_at_three_counters_is_obeyed(house, fused_calls):
    results, games = _as_written(house, ThreeCountersEnd)
    assert not fused_calls
    ends = [r.extra["end"] for r in results]
    assert sum("three counters" in end for end in ends) >= GAMES // 2
    assert not any("all five counters" in end for end in ends)
    original = luckylab.simulate("doctorwho", players=4, games=GAMES, seed=1)
    # the same game until a turn begins with three counters of a kind: then it ends
    assert all(r.turns <= o.turns for r, o in zip(results, original, strict=True))
    assert sum(r.turns < o.turns for r, o in zip(results, original, strict=True)) >= GAMES // 2
    unguarded, _ = _unguarded(house, ThreeCountersEnd, fused_calls)
    assert [r.turns for r in unguarded] != [r.turns for r in results]


def test_ruling_2_D_ENE_1_a_house_rule_of_two_dalek_counters_is_obeyed(house, fused_calls):
    _, games = _as_written(house, TwoDaleks)
    assert not fused_calls
    most = max(game.daleks_in_play(s) for game in games for s in range(game.players))
    assert most == 2
    _, unguarded = _unguarded(house, TwoDaleks, fused_calls)
    assert max(game.daleks_in_play(s) for game in unguarded
               for s in range(game.players)) > 2  # the fused turns attack with five


def test_D_ENE_1_a_house_rule_of_face_up_attacks_changes_what_each_seat_sees(house,
                                                                             fused_calls):
    _, games = _as_written(house, OpenAttacks)
    assert not fused_calls
    attacked = [loc for game in games for loc in game.locs.values() if loc.enemies]
    assert attacked and all(set(loc.enemies) <= loc.up for loc in attacked)
    game = next(g for g in games if any(loc.enemies for loc in g.locs.values()))
    for seat in range(game.players):  # every seat sees every Enemy card: none is None
        assert all(None not in loc["enemies"] for loc in game.observation(seat)["locations"])
    _, unguarded = _unguarded(house, OpenAttacks, fused_calls)
    assert any(e not in loc.up for game in unguarded for loc in game.locs.values()
               for e in loc.enemies)  # the fused turns play Enemies face down
