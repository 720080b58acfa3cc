"""luckylab's games as OpenSpiel games, checked by OpenSpiel's own tests and bots.

``pyspiel.random_sim_test`` (OpenSpiel's conformance test: legal actions, chance outcomes,
strings for every player, clones, returns) runs on every game and every player count, with a
short turn cap so that it stays fast; the ``slow`` tests play whole games. OpenSpiel's
``MCTSBot`` and ``ISMCTSBot`` play games to their end. Two deliberately broken adapters (a
hidden card leaked into a seat's strings, an illegal id offered as legal) are caught by
:func:`~luckylab.interop.openspiel.check_open_spiel_game`.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from luckylab.errors import IllegalAction, MissingExtra  # noqa: E402
from luckylab.interop import openspiel as lo  # noqa: E402

SHORT = {"turn_cap": 3}
"""A turn cap that ends a game after a few turns (every turn's kinds of decision still come
up; the game ends through the engines' ordinary turn-cap end)."""

COUNTS = [("island", p, SHORT) for p in range(2, 9)] + \
         [("kill", p, SHORT) for p in range(2, 9)] + \
         [("save", 2, {**SHORT, "allow_two_players": True})] + \
         [("save", p, SHORT) for p in range(3, 8)] + \
         [("panic", p, {}) for p in range(1, 9)] + \
         [("doctorwho", 2, {**SHORT, "two_player": True})] + \
         [("doctorwho", p, SHORT) for p in (3, 4)]


def _id(case: tuple[str, int, dict]) -> str:
    return f"{case[0]}-{case[1]}p"


@pytest.mark.parametrize("case", COUNTS, ids=_id)
def test_random_sim_test_on_every_game_and_player_count(case):
    name, players, params = case
    game = lo.load(name, players=players, **params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("case", [("island", 4, {}), ("kill", 2, {}), ("save", 4, {}),
                                  ("panic", 4, {}), ("doctorwho", 4, {})], ids=_id)
def test_random_sim_test_on_whole_games(case):
    name, players, params = case
    pyspiel.random_sim_test(lo.load(name, players=players, **params), num_sims=1,
                            serialize=False, verbose=False)


def test_the_games_are_registered_with_their_parameters():
    names = {t.short_name for t in pyspiel.registered_games()}
    assert {f"luckylab_{g}" for g in lo.GAME_SPECS} <= names
    game = pyspiel.load_game("luckylab_island", {"players": 3, "youre_out": True})
    assert game.num_players() == 6  # 3 players and 3 Strangers
    assert game.get_parameters()["youre_out"] is True
    assert game.num_distinct_actions() == 240
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == lo.DEALS
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1.0) < 1e-9


def test_compact_ids_fit_openspiel_and_name_distinct_actions():
    for name in lo.GAME_SPECS:
        game = lo.load(name, players=4)
        assert game.num_distinct_actions() <= 608
        state = game.new_initial_state()
        state.apply_action(5)
        legal = state.legal_actions()
        words = [state.action_to_string(state.current_player(), a) for a in legal]
        assert len(set(words)) == len(words)


def test_a_deal_outside_the_chance_outcomes_is_refused():
    state = lo.load("kill", players=2, deals=8).new_initial_state()
    with pytest.raises(IllegalAction, match="0 to 7"):
        state.apply_action(8)


def test_a_game_played_twice_from_the_same_deal_and_ids_is_the_same():
    game = lo.load("save", players=4, **SHORT)
    rng = np.random.RandomState(3)
    one = game.new_initial_state()
    one.apply_action(11)
    while not one.is_terminal():
        one.apply_action(int(rng.choice(one.legal_actions())))
    two = game.new_initial_state()
    for action in one.history():
        two.apply_action(action)
    assert two.engine.state_digest() == one.engine.state_digest()
    assert two.returns() == one.returns()


def _play(game, bot, rng, max_decisions=10_000):
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.randint(len(state.chance_outcomes()))))
            continue
        state.apply_action(bot.step(state))
        decisions += 1
        assert decisions < max_decisions
    return state


BOT_GAMES = [("island", 2, {"turn_cap": 4}), ("kill", 2, {"turn_cap": 6}),
             ("save", 3, {"turn_cap": 4}), ("panic", 2, {}), ("doctorwho", 3, {"turn_cap": 3})]


@pytest.mark.parametrize("case", BOT_GAMES, ids=_id)
def test_mcts_and_ismcts_bots_play_to_the_end(case):
    name, players, params = case
    game = lo.load(name, players=players, **params)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    for bot in (mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng),
                ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rng)):
        state = _play(game, bot, rng)
        assert state.is_terminal() and len(state.returns()) == game.num_players()


class _NoRollout(mcts.Evaluator):
    """Values every leaf at 0 with uniform priors: the bots' tree search without random
    rollouts, so that whole games stay quick (their strength is not what is tested here)."""

    def evaluate(self, state):
        return np.zeros(state.get_game().num_players())

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.slow
@pytest.mark.parametrize("case", [("island", 2, {}), ("kill", 2, {}), ("save", 3, {}),
                                  ("panic", 4, {}), ("doctorwho", 3, {})], ids=_id)
def test_mcts_and_ismcts_bots_play_whole_games(case):
    name, players, params = case
    game = lo.load(name, players=players, **params)
    rng = np.random.RandomState(2)
    for bot in (mcts.MCTSBot(game, 2.0, 2, _NoRollout(), random_state=rng),
                ismcts.ISMCTSBot(game, _NoRollout(), 2.0, 2, random_state=rng)):
        state = _play(game, bot, rng)
        assert state.is_terminal() and state.engine.is_over


# -- the adapter's own check, and two broken adapters it catches -----------------------------


@pytest.mark.parametrize("name", sorted(lo.GAME_SPECS))
def test_every_game_keeps_hidden_cards_out_of_its_strings(name):
    params = {} if name == "panic" else {"turn_cap": 8}
    assert lo.check_open_spiel_game(lo.load(name, players=3, **params), seeds=[1, 2],
                                    every=5) > 3


class _LeakyState(lo.LuckyLabOpenSpielState):
    """Shows each seat the next seat's observation (its hand) too."""

    def view(self, seat):
        text = super().view(seat)
        if self.engine is None:
            return text
        return text + self.engine.observation((seat + 1) % self.engine.num_seats).key()


class _LooseState(lo.LuckyLabOpenSpielState):
    """Offers one id that is not legal, besides the legal ones."""

    def _legal_actions(self, player):
        legal = super()._legal_actions(player)
        if not legal:
            return legal
        extra = next(i for i in range(self.get_game().num_distinct_actions()) if i not in legal)
        return sorted([*legal, extra])


def _broken(state_class):
    base = lo.GAME_CLASSES["kill"]
    cls = type("BrokenKill", (base,), {"new_initial_state": lambda self: state_class(self)})
    return cls({"players": 2, "turn_cap": 4})


def test_a_hidden_card_in_an_information_state_is_caught():
    with pytest.raises(AssertionError, match="information state changes"):
        lo.check_open_spiel_game(_broken(_LeakyState), seeds=[1], every=3)


def test_an_illegal_id_offered_as_legal_is_caught():
    with pytest.raises(AssertionError, match="is refused"):
        lo.check_open_spiel_game(_broken(_LooseState), seeds=[1], every=3)


def test_the_adapter_without_open_spiel_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # `import pyspiel` now fails
    monkeypatch.delitem(sys.modules, "luckylab.interop.openspiel")
    with pytest.raises(MissingExtra, match=r"pip install 'luckylab\[openspiel\]'"):
        import luckylab.interop.openspiel  # noqa: F401


def test_a_luckylab_action_is_played_through_its_compact_path():
    state = lo.load("island", players=2).new_initial_state()
    state.apply_action(3)
    rng = np.random.RandomState(0)
    for _ in range(40):
        engine = state.engine
        action = engine.legal_actions()[int(rng.randint(len(engine.legal_actions())))]
        twin = engine.clone()
        twin.apply(action)
        for step in state.compact_path(action):
            state.apply_action(step)
        assert state.engine.state_digest() == twin.state_digest()


def _doc_examples():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "interop.md").read_text("utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_docs_openspiel_example_runs(capsys):
    code = next(c for c in _doc_examples() if "pyspiel" in c)
    exec(compile(code, "docs/interop.md", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert printed.startswith("[") and printed.count(",") == 1


def test_the_remembered_action_ids_are_the_engines_ids():
    game = lo.load("island", players=2)
    state = game.new_initial_state()
    state.apply_action(11)
    rng = np.random.RandomState(11)
    variant = lo.variant(lo.GAME_SPECS["island"], game.get_parameters())
    for _ in range(60):
        engine = state.engine
        actions = engine.legal_actions()
        assert variant.protocol_ids(engine, actions) == sorted(map(engine.action_id, actions))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert variant.known  # the ids were remembered, and agree with the engine's each time


def test_an_action_the_engine_takes_but_does_not_list_is_played_through_apply_unlisted():
    import random

    from luckylab.games.island import Foil

    game = lo.load("island", players=2)
    state = game.new_initial_state()
    state.apply_action(0)
    rng = random.Random(0)
    unlisted = None
    while unlisted is None:  # play to a foil where a one-card payment is not listed
        engine = state.engine
        listed = engine.legal_actions()
        if isinstance(listed[0], Foil) and len(state.legal_actions()) > 1:
            ids = {engine.action_id(a) for a in listed}
            unlisted = next((Foil((c,)) for c in sorted(engine.hands[engine.current_player])
                             if engine.action_id(Foil((c,))) not in ids), None)
        if unlisted is None:
            state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalAction, match="not legal now"):
        state.compact_path(unlisted)
    before = len(state.engine.history)
    state.apply_unlisted(unlisted)
    engine = state.engine
    assert len(engine.history) == before + 1
    ids = lo.variant(lo.GAME_SPECS["island"], game.get_parameters()).ids
    assert state.legal_actions() == ids.legal(sorted(map(engine.action_id,
                                                         engine.legal_actions())))
    fresh = game.new_initial_state()
    fresh.apply_action(0)
    fresh.apply_action(fresh.legal_actions()[0])  # the first move, one digit chosen
    assert not fresh.engine.history  # in the middle of a decision
    with pytest.raises(IllegalAction, match="between decisions"):
        fresh.apply_unlisted(unlisted)
