"""House rules for Panic Island!: a subclass of ``PanicGame`` that changes one rule, the way a
lesson exercise would, is obeyed by ``luckylab.simulate`` on its default path (issue 41, item 2).

Panic has no fused turns: the default path hands the bundled bots' ``choose`` to
``PanicGame.play_out``, which applies their actions through the trusted path
(``apply_trusted``: the do methods of ``HANDLERS``, looked up on the subclass) without checking
them. So a house rule must live in the rules' methods, which the engine and the bots both ask
(``can_wake_gouga``, ``can_save``, ``_reveal_cost``, ``rainbow``; the bots read them through
``game.view(seat)``), or in a handler, which is resolved on each class. Each test plays the
subclass through ``simulate`` (registered as ``panic_house`` for the test only), checks the
changed rule, and that ``checked=True`` (every action checked by ``apply``) plays the same games.
"""

from __future__ import annotations

from collections import Counter

import pytest

import luckylab
from luckylab import IllegalAction
from luckylab.agents.panic import PerfectRecallAgent
from luckylab.games import registry
from luckylab.games.panic import GougaCall, PanicGame, Reveal, WakeGouga

GAMES = 20  # per check: enough for Gouga, pairs and obstacles to matter, and quick


class NoGouga(PanicGame):
    """P-GOUGA-1 changed: Gouga sleeps through the whole game (nobody may wake him)."""

    def can_wake_gouga(self) -> bool:
        return False


class NoPairs(PanicGame):
    """P-SAVE-1 changed: no card saves another; only Gouga saves."""

    def can_save(self, saver, saved, rainbow=None) -> bool:
        return False


class NativesSaveEggs(PanicGame):
    """P-SAVE-1 changed: a native also saves an egg of its colour (the book says never)."""

    def can_save(self, saver, saved, rainbow=None) -> bool:
        if saver.kind == "native" and saved.kind == "egg":
            return saver.colour == saved.colour
        return super().can_save(saver, saved, rainbow)


class SlowHands(PanicGame):
    """P-TIME-1 changed: every reveal costs 10 seconds of the hourglass (slippery cards)."""

    def _reveal_cost(self) -> float:
        return 10.0


class EndlessRainbow(PanicGame):
    """P-OBS-3 changed: a Rainbow is always in force (colours always cross for saving)."""

    @property
    def rainbow(self) -> bool:
        return True


class VolcanoStaysDown(PanicGame):
    """A handler changed (P-VOLC-1): the volcano may not be turned at all."""

    def _check_reveal(self, player, action):
        if action.place == self.volcano:
            raise IllegalAction("house rule: the volcano stays face down")
        super()._check_reveal(player, action)


class CountedReveals(PanicGame):
    """A do handler changed: every reveal is counted (and played as written)."""

    counted = 0

    def _do_reveal(self, player, action):
        type(self).counted += 1
        super()._do_reveal(player, action)


def _register(monkeypatch: pytest.MonkeyPatch, cls: type) -> str:
    """Register ``cls`` as the game ``panic_house`` for this test only."""
    name = "panic_house"
    monkeypatch.setitem(registry.GAMES, name, "")  # restored (removed) after the test
    monkeypatch.setitem(registry._LOADERS, name, lambda: cls)
    registry.register_game(name, cls)
    return name


def _simulate(monkeypatch: pytest.MonkeyPatch, cls: type, **options) -> list:
    """``luckylab.simulate`` of ``cls`` with the default bot in every seat: the default path
    (trusted ``play_out``; the bots read the events, so the game is not quiet)."""
    return luckylab.simulate(_register(monkeypatch, cls), players=4, games=GAMES, seed=3,
                             agents=PerfectRecallAgent, **options)


def _played(cls: type, seed: int) -> PanicGame:
    """One game of ``cls`` played as ``simulate`` plays it (the default bots' ``choose``
    handed to ``play_out``)."""
    game = cls(players=4, seed=seed)
    game.play_out([PerfectRecallAgent(seed=seed * 10 + s).choose for s in range(4)])
    return game


def _pair_saves(game: PanicGame) -> list:
    """(saver, saved) cards of every save made by a pair of cards (not by Gouga)."""
    cards = {c.name: c for c in game.cards}
    return [(cards[e.data["by"]], game.cards[e.data["card"]]) for e in game.events
            if e.kind == "save" and e.data["by"] != "Gouga"]


# -- Gouga (P-GOUGA-1) -----------------------------------------------------------------------


def test_P_GOUGA_1_a_house_rule_that_never_wakes_gouga_is_obeyed_by_simulate(monkeypatch):
    results = _simulate(monkeypatch, NoGouga)
    assert {r.extra["gouga"] for r in results} == {"asleep"}
    assert all(r.attempts == 0 and r.extra["gouga_saves"] == 0 for r in results)
    assert results == _simulate(monkeypatch, NoGouga, checked=True)
    woken = luckylab.simulate("panic", players=4, games=GAMES, seed=3)
    assert any(r.extra["gouga"] != "asleep" for r in woken)  # the book's Gouga wakes
    game = NoGouga(players=2, seed=1)
    assert WakeGouga() not in game.legal_actions()
    with pytest.raises(IllegalAction, match="cannot be woken now"):
        game.apply(WakeGouga())
    assert not game.view(0).can_wake_gouga()


# -- what saves what (P-SAVE-1) --------------------------------------------------------------


def test_P_SAVE_1_a_house_rule_where_no_pair_saves_is_obeyed_by_simulate(monkeypatch):
    results = _simulate(monkeypatch, NoPairs)
    assert all(r.extra["score"] == r.extra["gouga_saves"] for r in results)  # Gouga's only
    assert results == _simulate(monkeypatch, NoPairs, checked=True)
    book = luckylab.simulate("panic", players=4, games=GAMES, seed=3)
    assert any(r.extra["score"] > r.extra["gouga_saves"] for r in book)


def test_P_SAVE_1_natives_that_save_eggs_do_so_on_the_default_path(monkeypatch):
    house = [_played(NativesSaveEggs, seed) for seed in range(GAMES)]
    kinds = Counter((a.kind, b.kind) for g in house for a, b in _pair_saves(g))
    assert kinds[("native", "egg")] > 0
    assert all(a.colour == b.colour for g in house for a, b in _pair_saves(g))
    book = [_played(PanicGame, seed) for seed in range(GAMES)]
    assert not any(a.kind == "native" and b.kind == "egg"
                   for g in book for a, b in _pair_saves(g))  # natives never save eggs
    results = _simulate(monkeypatch, NativesSaveEggs)
    assert [r.extra["score"] for r in results] != [
        r.extra["score"] for r in luckylab.simulate("panic", players=4, games=GAMES, seed=3)]
    assert results == _simulate(monkeypatch, NativesSaveEggs, checked=True)


# -- the clock (P-TIME-1) and what is seen (P-OBS-3) -----------------------------------------


def test_P_TIME_1_a_reveal_that_costs_ten_seconds_is_obeyed_by_simulate(monkeypatch):
    results = _simulate(monkeypatch, SlowHands)
    # 120 s of sand, 10 s a reveal: at most 12 reveals, so at most 12 turns and Gouga calls
    assert max(r.turns for r in results) <= 12
    assert results == _simulate(monkeypatch, SlowHands, checked=True)
    book = luckylab.simulate("panic", players=4, games=GAMES, seed=3)
    assert max(r.turns for r in book) > 12
    game = SlowHands(players=2, seed=1)
    game.apply(Reveal("r1c1"))
    assert game.time_left == 110.0


def test_P_OBS_3_an_endless_rainbow_crosses_every_pair_on_the_default_path(monkeypatch):
    house = [_played(EndlessRainbow, seed) for seed in range(GAMES)]
    pairs = [(a, b) for g in house for a, b in _pair_saves(g)]
    assert pairs and all(a.colour != b.colour for a, b in pairs)
    book = [_played(PanicGame, seed) for seed in range(GAMES)]
    assert any(a.colour == b.colour for g in book for a, b in _pair_saves(g))
    assert EndlessRainbow(players=2, seed=1).view(0).rainbow
    results = _simulate(monkeypatch, EndlessRainbow)
    assert results == _simulate(monkeypatch, EndlessRainbow, checked=True)


# -- the handlers are looked up on each class --------------------------------------------------


def test_a_check_handler_of_a_subclass_is_obeyed_by_apply():
    assert VolcanoStaysDown._handlers["turn"][Reveal][0] is VolcanoStaysDown._check_reveal
    assert PanicGame._handlers["turn"][Reveal][0] is PanicGame._check_reveal
    house, book = VolcanoStaysDown(players=2, seed=1), PanicGame(players=2, seed=1)
    with pytest.raises(IllegalAction, match="the volcano stays face down"):
        house.apply(Reveal(house.volcano))
    assert house.history == [] and house.view().time_left == 120.0
    book.apply(Reveal(book.volcano))  # P-VOLC-1: the book lets you, and you lose
    assert book.is_over and book.result().extra["end"] == "volcano"


def test_a_do_handler_of_a_subclass_is_obeyed_by_the_trusted_path(monkeypatch):
    CountedReveals.counted = 0
    game = _played(CountedReveals, seed=5)
    reveals = sum(type(a) is Reveal for a in game.history)
    assert reveals > 0 and CountedReveals.counted == reveals
    CountedReveals.counted = 0
    results = _simulate(monkeypatch, CountedReveals)
    assert CountedReveals.counted > 0
    book = luckylab.simulate("panic", players=4, games=GAMES, seed=3)
    assert [(r.turns, r.extra) for r in results] == [(r.turns, r.extra) for r in book]
    assert CountedReveals._by_kind[Reveal][1] is CountedReveals._do_reveal
    assert PanicGame._by_kind[GougaCall][1] is PanicGame._do_gouga_call
