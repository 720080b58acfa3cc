"""House rules for Kill Doctor Lucky: a subclass of ``KillGame`` that changes one rule, the way a
lesson exercise would, is obeyed by ``luckylab.simulate`` on its default path (issue 41, item 2).

The default path hands a quiet game of bundled bots to the fused turns
(``luckylab.games.kill.fast``), which play the rules as written in ``KillGame``; the guard
``plays_as_written`` in ``KillGame.play_out`` sends any other class through the readable rules.
Each test shows the changed rule obeyed, then the same subclass with the guard switched off
(``plays_as_written`` patched to say yes) *not* obeying it: so the test fails if the guard goes.
"""

from __future__ import annotations

import pytest

import luckylab
from luckylab.agents.kill import Opportunist
from luckylab.cards import load_deck
from luckylab.games import registry
from luckylab.games.kill import KillGame, attack_value, fast, rules

DECK = load_deck("kill")
GAMES = 12  # per check: enough for attempts, foils and sight to matter, small enough to be quick


class NoMurders(KillGame):
    """K-KILL-1 changed: nobody may attack, ever (a peaceful evening at the mansion)."""

    def can_attack(self, seat: int) -> bool:
        return False


class StrictFoiling(KillGame):
    """K-FAIL-1 changed: an attempt is foiled only by *more* Failure points than its value."""

    def foil_threshold(self, value: int) -> int:
        return value + 1


class SeeTwoDoors(KillGame):
    """K-SIGHT-1 changed: a player also sees every space up to two doors away (around
    corners: straight-line sight already reaches every space one door away)."""

    def sight(self, space: str) -> frozenset[str]:
        return super().sight(space) | self.board.reachable(space, 2)


def _register(monkeypatch: pytest.MonkeyPatch, cls: type) -> str:
    """Register ``cls`` as the game ``kill_house`` for this test only."""
    name = "kill_house"
    monkeypatch.setitem(registry.GAMES, name, "")  # restored (removed) after the test
    monkeypatch.setitem(registry._LOADERS, name, lambda: cls)
    registry.register_game(name, cls)
    return name


def _simulate(monkeypatch: pytest.MonkeyPatch, cls: type, **options) -> list:
    """``luckylab.simulate`` of ``cls`` with the default bot in every seat, on the default path
    (quiet, trusted, ``play_out``)."""
    return luckylab.simulate(_register(monkeypatch, cls), players=4, games=GAMES, seed=3,
                             agents=Opportunist, **options)


def _without_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "plays_as_written", lambda game, cls: True)


def _played(cls: type, seed: int):
    """One game of ``cls`` played as ``simulate`` plays it (quiet, the default bots' ``choose``
    handed to ``play_out``)."""
    game = cls(players=4, seed=seed)
    game.quieten()
    game.play_out([Opportunist(seed=seed * 10 + s).choose for s in range(4)])
    game.quieten(False)
    return game


# -- attacks ---------------------------------------------------------------------------------


def _no_attempts(results) -> bool:
    return all(r.attempts == 0 and not r.finished for r in results)


def test_K_KILL_1_a_house_rule_forbidding_attacks_is_obeyed_by_simulate(monkeypatch):
    results = _simulate(monkeypatch, NoMurders, turn_cap=120)
    assert _no_attempts(results)  # nobody attacked: every game ran to its turn cap
    assert results == _simulate(monkeypatch, NoMurders, turn_cap=120, checked=True)
    game = NoMurders(players=2, seed=1)
    assert not any(type(a).__name__ == "Attack" for a in game.legal_actions())


def test_K_KILL_1_without_the_guard_the_fused_turns_would_murder_anyway(monkeypatch):
    _without_the_guard(monkeypatch)
    assert not _no_attempts(_simulate(monkeypatch, NoMurders, turn_cap=120))


# -- the foil threshold ----------------------------------------------------------------------


def _strictly_more(results) -> bool:
    """Every attempt (its value the attack's, as the book counts it) was foiled exactly when the
    Failure points played went past its value."""
    attempts = [a for r in results for a in r.extra["attempts"]]
    assert attempts, "no attempt to look at"
    return all(
        a["value"] == attack_value(None if a["weapon"] is None else DECK[a["weapon"]],
                                   a["space"])
        and a["foiled"] == (a["points"] > a["value"]) for a in attempts)


def test_K_FAIL_1_a_house_rule_on_the_foil_threshold_is_obeyed_by_simulate(monkeypatch):
    results = _simulate(monkeypatch, StrictFoiling)
    assert _strictly_more(results)
    assert results == _simulate(monkeypatch, StrictFoiling, checked=True)
    game = StrictFoiling(players=3, seed=2)  # the events say what is needed: the value + 1
    game.play_out([Opportunist(seed=s).choose for s in range(3)])
    attempt = next(e for e in game.events if e.kind == "attempt")
    answer = next(e for e in game.events[game.events.index(attempt):] if e.kind == "foil")
    assert answer.data["needed"] + answer.data["points"] == attempt.data["value"] + 1


def test_K_FAIL_1_without_the_guard_the_fused_turns_would_foil_at_the_old_threshold(
        monkeypatch):
    _without_the_guard(monkeypatch)
    assert not _strictly_more(_simulate(monkeypatch, StrictFoiling))


# -- sight -----------------------------------------------------------------------------------


def _every_attack_legal(cls: type, seeds: range) -> bool:
    """Whether every game played on the default path replays, action by action, through
    ``apply`` (every check) under the house rule, with attacks among them."""
    attacks = 0
    for seed in seeds:
        game = _played(cls, seed)
        again = cls(players=4, seed=seed)
        for action in game.history:
            try:
                again.apply(action)
            except luckylab.IllegalAction:
                return False
        attacks += len(game.attempt_log)
    assert attacks, "no attack to look at"
    return True


def test_K_SIGHT_1_a_house_rule_on_sight_is_obeyed_by_simulate(monkeypatch):
    assert _every_attack_legal(SeeTwoDoors, range(GAMES))
    game = SeeTwoDoors(players=3, seed=4)
    here = game.position[0]
    assert game.board.reachable(here, 2) <= game.sight(here) and game.watchers(1) == [0, 2]
    plain = _simulate(monkeypatch, KillGame)
    assert _simulate(monkeypatch, SeeTwoDoors) == _simulate(monkeypatch, SeeTwoDoors,
                                                            checked=True) != plain


def test_K_SIGHT_1_without_the_guard_the_fused_turns_would_attack_in_sight(monkeypatch):
    _without_the_guard(monkeypatch)
    assert not _every_attack_legal(SeeTwoDoors, range(GAMES))


# -- the fused turns still play the rules as written -------------------------------------------


def test_the_rules_as_written_still_take_the_fused_turns_and_a_house_rule_does_not(monkeypatch):
    calls = []
    real = fast.play_out

    def counted(game, profiles):
        calls.append(type(game))
        real(game, profiles)

    monkeypatch.setattr(fast, "play_out", counted)
    luckylab.simulate("kill", players=4, games=3, seed=1)
    assert calls == [KillGame] * 3
    calls.clear()
    for cls in (NoMurders, StrictFoiling, SeeTwoDoors):
        _simulate(monkeypatch, cls, turn_cap=60)
    assert calls == []
    monkeypatch.setattr(KillGame, "can_attack", lambda self, seat: False)  # a patched class
    luckylab.simulate("kill", players=4, games=2, seed=1, turn_cap=60)
    assert calls == []
