"""House rules in Save Doctor Lucky are obeyed on ``simulate``'s default path (issue 41, item 2).

A lesson exercise changes a rule by subclassing :class:`~luckylab.games.save.SaveGame`. Each
subclass here changes one rule the way an exercise would; registered as a game and played by
the default bot (``rider``, the bundled class: the quiet, trusted path of ``simulate``), the
games obey the changed rule. The fused turns (:mod:`luckylab.games.save.fast`) were written for
``SaveGame`` itself, so ``play_out`` runs them only for that very class, unchanged
(:func:`luckylab.games.fused.plays_as_written`): with that guard switched off, each test below
fails, and the unchanged class still takes the fused turns.

The fused turns apply each action through the engine's own step (``_do_rescue`` ...), so what
they would get wrong for a subclass is what they stand in for: the bot's decisions (the rider
asks the rules through its view: may I rescue? who sees me? what is this worth?), the witness
check behind them, and the failure round's bookkeeping.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from luckylab import simulate
from luckylab.agents.save import TrainRiderAgent
from luckylab.games import registry
from luckylab.games.save import SaveGame, fast, rules

GAMES = 20


class NoRescues(SaveGame):
    """House rule: nobody may try a rescue (``S-SAVE-1`` taken away); the ship sinks."""

    def rescue_problem(self, seat: int) -> str | None:
        return "house rule: no rescue attempts at this table"


class OneMorePoint(SaveGame):
    """House rule: a rescue fails only when the Failure points discarded *exceed* what it is
    worth (``S-FAIL-1``: "reaches" made "exceeds"), so every attempt needs one point more to
    stop (``S-SAVE-2``)."""

    def rescue_value(self, aid: int | None, space: str) -> int:
        return super().rescue_value(aid, space) + 1


class StrictlyMore(SaveGame):
    """House rule: a rescue is stopped only by *more* Failure points than it is worth
    (``S-FAIL-1``: "reaches" made "exceeds"; the attempt keeps its value)."""

    def foil_threshold(self, value: int) -> int:
        return value + 1


class SameRoomWitnesses(SaveGame):
    """House rule: only a player in the same room sees you; nobody sees down a line of doors
    (``S-SIGHT-1`` taken away from ``S-SAVE-1``)."""

    rescued_with: ClassVar[list[list[int]]] = []
    """The test's record: the pawns in the rescuer's room at each rescue attempt."""

    def witnesses(self, seat: int, space: str | None = None) -> list[int]:
        here = self.positions[seat] if space is None else space
        return [s for s in self.seats if s != seat and self.positions[s] == here]

    def _do_rescue(self, seat, action) -> None:
        SameRoomWitnesses.rescued_with.append(self.pawns_at(self.positions[seat]))
        super()._do_rescue(seat, action)


@pytest.fixture
def house(monkeypatch):
    """Register a house rule's class as the game ``save_house`` for one test (the registry is
    restored after it); returns a function playing ``GAMES`` seeded games of it with the
    default bot, on ``simulate``'s default path (or ``checked=True``)."""
    monkeypatch.setattr(registry, "GAMES", dict(registry.GAMES))
    monkeypatch.setattr(registry, "_LOADERS", dict(registry._LOADERS))

    def play(cls: type[SaveGame], checked: bool = False) -> list:
        registry.register_game("save_house", cls)
        return simulate("save_house", players=4, games=GAMES, seed=1, agents=TrainRiderAgent,
                        checked=checked)

    return play


@pytest.fixture
def fused_calls(monkeypatch) -> list[int]:
    """Counts the games the fused turns play (one entry per game)."""
    calls: list[int] = []
    play_out = fast.play_out

    def counted(game) -> None:
        calls.append(1)
        play_out(game)

    monkeypatch.setattr(fast, "play_out", counted)
    return calls


def _without_the_guard(monkeypatch) -> None:
    """What ``play_out`` did before the guard: the fused turns for any class."""
    monkeypatch.setattr(rules, "plays_as_written", lambda game, cls: True)


def _games(results) -> list:
    return [(r.winner, r.loser, r.turns, r.extra["end"], r.extra["attempts"]) for r in results]


# -- S-SAVE-1 taken away: no rescue attempts ---------------------------------------------------
def test_S_SAVE_1_a_house_rule_forbidding_rescues_is_obeyed_by_simulate(house, fused_calls):
    results = house(NoRescues)
    assert all(r.attempts == 0 and r.winner is None for r in results)
    assert {r.extra["end"] for r in results} <= {"sunk", "turn cap"}
    assert not fused_calls  # a subclass plays through the readable rules
    assert _games(results) == _games(house(NoRescues, checked=True))


def test_S_SAVE_1_without_the_guard_the_fused_turns_would_rescue_anyway(house, monkeypatch):
    _without_the_guard(monkeypatch)
    assert sum(r.attempts for r in house(NoRescues)) > 0


# -- S-FAIL-1 / S-SAVE-2 changed: one Failure point more to stop a rescue ------------------------
def test_S_FAIL_1_a_house_rule_raising_the_failure_threshold_is_obeyed_by_simulate(house):
    results = house(OneMorePoint)
    cards = SaveGame(players=4, seed=1).cards
    attempts = [a for r in results for a in r.extra["attempts"]]
    assert attempts
    for a in attempts:  # every attempt worth one more than the printed rules say
        printed = 1 if a["aid"] is None else cards[a["aid"]].weapon_value(a["room"])
        assert a["value"] == printed + 1
    # The bots weigh their attempts by the house rule too: the same games as the readable
    # rules, re-checked, play; and not those of the unchanged rules.
    assert _games(results) == _games(house(OneMorePoint, checked=True))
    assert _games(results) != _games(house(SaveGame))


def test_S_FAIL_1_without_the_guard_the_fused_turns_would_weigh_attempts_by_the_old_rule(
        house, monkeypatch):
    readable = _games(house(OneMorePoint, checked=True))
    _without_the_guard(monkeypatch)
    assert _games(house(OneMorePoint)) != readable


# -- S-FAIL-1 changed: the foil threshold (FoilRound.stop, from foil_threshold) ----------------
def _stopped_at(results) -> list[tuple[int, int]]:
    """(points paid, value) of every stopped rescue."""
    cards = SaveGame(players=4, seed=1).cards
    return [(sum(cards[c].luck for _, paid in a["asked"] for c in paid), a["value"])
            for r in results for a in r.extra["attempts"] if a["foiled_by"] is not None]


def test_S_FAIL_1_a_house_rule_on_the_foil_threshold_is_obeyed_by_simulate(house):
    # The round itself carries what stops it (FoilRound.stop, set from foil_threshold), and
    # the fused turns read the round: this rule holds on either path, guard or not.
    results = house(StrictlyMore)
    stopped = _stopped_at(results)
    assert stopped and all(paid > value for paid, value in stopped)
    assert _games(results) == _games(house(StrictlyMore, checked=True))
    assert any(paid == value for paid, value in _stopped_at(house(SaveGame)))


# -- S-SIGHT-1 taken away: a witness must stand in your room -----------------------------------
def test_S_SIGHT_1_a_house_rule_changing_sight_is_obeyed_by_simulate(house):
    SameRoomWitnesses.rescued_with = []
    results = house(SameRoomWitnesses)
    assert SameRoomWitnesses.rescued_with  # rescues were tried ...
    assert all(len(pawns) >= 2 for pawns in SameRoomWitnesses.rescued_with)  # ... before company
    assert _games(results) == _games(house(SameRoomWitnesses, checked=True))


def test_S_SIGHT_1_without_the_guard_the_fused_turns_would_use_the_old_sight(house,
                                                                           monkeypatch):
    _without_the_guard(monkeypatch)
    SameRoomWitnesses.rescued_with = []
    house(SameRoomWitnesses)
    assert any(len(pawns) < 2 for pawns in SameRoomWitnesses.rescued_with)


# -- the unchanged rules keep their fused turns --------------------------------------------------
def test_the_unchanged_class_still_plays_the_fused_turns(fused_calls):
    results = simulate("save", players=4, games=5, seed=1)
    assert len(fused_calls) == 5
    assert _games(results) == _games(simulate("save", players=4, games=5, seed=1,
                                              checked=True))


def test_a_rule_replaced_on_the_class_itself_plays_through_the_rules(monkeypatch, fused_calls):
    monkeypatch.setattr(SaveGame, "rescue_problem", NoRescues.rescue_problem)
    results = simulate("save", players=4, games=5, seed=1)
    assert not fused_calls and all(r.attempts == 0 for r in results)
