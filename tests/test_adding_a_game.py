"""docs/adding-a-game.md builds a sixth game in its Python blocks: that very code keeps the
protocol, stays small, and prints what the page says it prints."""

from __future__ import annotations

import contextlib
import io
import random
import re
import sys
import types
from pathlib import Path

import pytest

from luckylab.errors import IllegalAction, LuckyLabError
from luckylab.games.conformance import check_game, check_state

DOC = Path(__file__).parent.parent / "docs" / "adding-a-game.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(DOC.read_text(encoding="utf-8"))
            if lang == language]


def game_blocks() -> list[str]:
    """The page's Python that builds, plays and checks the game (not the registration, which
    changes the session's tables: its test runs it on copies)."""
    return [b for b in blocks("python") if "register_game(" not in b]


def registration_block() -> str:
    (block,) = [b for b in blocks("python") if "register_game(" in b]
    return block


@pytest.fixture(scope="module")
def toy():
    """The page's Python blocks run top to bottom in a fresh module (what they print kept)."""
    name = "adding_a_game_doc"
    module = types.ModuleType(name)
    sys.modules[name] = module  # a real module: dataclasses and check_fields look it up
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile("".join(game_blocks()), str(DOC), "exec"), module.__dict__)
        module.printed = out.getvalue()
        yield module
    finally:
        del sys.modules[name]


def test_the_game_is_well_under_200_lines():
    lines = sum(block.count("\n") for block in game_blocks())
    assert 100 < lines < 200, f"{lines} lines of Python on the page"


def test_the_pages_game_keeps_the_protocol(toy):
    check_game("foil", players=2, seeds=range(20, 60), every=1, new_game=toy.new_foil_game)


def test_the_page_prints_what_it_shows(toy):
    shown = blocks("text")[0]
    assert toy.printed == shown


def test_the_checker_catches_an_observation_that_shows_the_other_hand(toy):
    class Leaky(toy.FoilGame):
        def observation(self, seat):
            obs = super().observation(seat)
            return type(obs)(seat, {**obs.data, "other": self.hands[1 - seat]}, obs.text)

    game = Leaky(2, seed=4)
    with pytest.raises(AssertionError, match="hidden from that seat"):
        check_state(game, random.Random(1))


@pytest.mark.parametrize("bad", ["attack 5", None, ("attack", 5)])
def test_foreign_actions_are_refused(toy, bad):
    game = toy.new_foil_game(seed=1)
    with pytest.raises(IllegalAction, match="not a Three-Card Foil action"):
        game.apply(bad)


def test_refused_actions_change_nothing(toy):
    game = toy.new_foil_game(seed=2)
    card = game.hands[0][0]
    digest, record = game.state_digest(), game.record()
    for action in (toy.Attack(True), toy.Attack(float(card)), toy.Attack(game.hands[1][0]),
                   toy.Foil(()), toy.Attack(10)):
        with pytest.raises(LuckyLabError):
            game.apply(action)
    assert game.state_digest() == digest and game.record() == record
    game.apply(toy.Attack(card))
    hand = game.hands[1]
    with pytest.raises(IllegalAction):
        game.apply(toy.Foil(tuple(reversed(hand))))  # not in canonical (sorted) order


def test_returns_split_a_draw_and_reward_the_winner(toy):
    outcomes = set()
    for seed in range(60):
        game = toy.new_foil_game(seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        outcomes.add(game.returns())
        assert game.returns() == {None: (0.5, 0.5), 0: (1.0, 0.0),
                                  1: (0.0, 1.0)}[game.winner]
    assert outcomes == {(0.5, 0.5), (1.0, 0.0), (0.0, 1.0)}


def test_the_stand_in_new_game_refuses_other_games_and_options(toy):
    with pytest.raises(LuckyLabError):
        toy.new_foil_game("kill", players=2, seed=1)
    with pytest.raises(LuckyLabError):
        toy.new_foil_game(players=3, seed=1)
    with pytest.raises(LuckyLabError):
        toy.new_foil_game(seed=1, cards=12)


def test_registered_as_the_page_says_it_simulates(toy, monkeypatch):
    import luckylab
    from luckylab.agents import readable
    from luckylab.games.registry import _LOADERS

    monkeypatch.setattr(luckylab.games.registry, "GAMES", dict(luckylab.GAMES))
    monkeypatch.setattr(luckylab.games.registry, "_LOADERS", dict(_LOADERS))
    monkeypatch.setattr(readable, "REGISTERED", dict(readable.REGISTERED))
    exec(registration_block(), vars(toy))  # the page's own registration code
    results = luckylab.simulate("foil", 2, games=20, seed=1)
    assert len(results) == 20 and all(r.finished for r in results)
    game = luckylab.new_game("foil", players=2, seed=3)
    assert type(game) is toy.FoilGame
    check_game("foil", players=2, seeds=[1, 2])  # registered: no new_game= needed
