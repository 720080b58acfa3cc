"""Panic Island! keeps the game protocol: what tests/test_conformance.py cannot see from outside.

The conformance checker plays random games through the protocol; these tests pin Panic's own
answers: the team's score in ``returns()``, an observation that holds what was seen face up and
nothing else, ``determinize`` dealing anew only the never-seen cards, the action ids, the
engine's quiet and trusted path, and the bound that ends a game on the real hourglass.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import luckylab
from luckylab import new_game
from luckylab.agents.panic import PerfectRecallAgent
from luckylab.errors import IllegalAction, OptionError
from luckylab.games.panic import (
    EXTERNAL_TURNS_PER_SECOND,
    GougaCall,
    PanicGame,
    Place,
    Reveal,
    TimeUp,
    WakeGouga,
)


def find(game: PanicGame, name: str, skip: tuple[str, ...] = ()) -> str:
    for place, card in game.island.items():
        if card is not None and game.cards[card].name == name and place not in skip:
            return place
    raise LookupError(name)


def put(game: PanicGame, place: str, name: str) -> None:
    """Swap a card called ``name`` onto ``place`` (before any card is seen)."""
    other = find(game, name)
    game.island[place], game.island[other] = game.island[other], game.island[place]


def played(seed: int, players: int = 3, actions: int = 10**6, **options) -> PanicGame:
    game = new_game("panic", players=players, seed=seed, **options)
    bot = PerfectRecallAgent(seed=seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bot.choose(game))
    return game


# -- returns -------------------------------------------------------------------------------------
def test_returns_give_every_seat_the_teams_won_score_over_16():
    won = lost = None
    for seed in range(40):
        game = played(seed, players=4)
        if game.won and won is None:
            won = game
        if not game.won and lost is None:
            lost = game
    assert won is not None and lost is not None
    assert won.returns() == (won.score / 16,) * 4 and 0 < won.score <= 16
    assert lost.returns() == (0.0,) * 4
    assert played(1, actions=5).returns() == (0.0,) * 3  # not over yet


def test_a_divine_escape_returns_one_and_the_volcano_zero():
    game = new_game("panic", players=2, seed=1)
    game.saved = [c.id for c in game.cards if c.scores]
    game.found = [c.id for c in game.cards if c.kind in ("raft", "paddle")]
    game.end = "time"
    assert game.returns() == (1.0, 1.0)
    game.end = "volcano"
    assert game.returns() == (0.0, 0.0)


# -- observation ---------------------------------------------------------------------------------
def test_observation_shows_what_was_seen_face_up_and_no_face_down_card_nobody_saw():
    game = new_game("panic", players=3, seed=11)
    put(game, "r1c1", "red native")
    put(game, "r1c2", "red egg")  # nothing saved: both turned back, and remembered
    game.apply(Reveal("r1c1"))
    game.apply(Reveal("r1c2"))
    obs = game.observation(2)
    assert obs["cards"] == {"r1c1": game.island["r1c1"], "r1c2": game.island["r1c2"],
                            game.volcano: game.volcano_card}
    assert obs["face_up"] == [] and len(obs["face_down"]) == 25
    assert game.observation(0).data == obs.data  # everybody sees the same turns
    assert "rN" in obs.text and "rE" in obs.text and "??" in obs.text


def test_observation_follows_a_mirage_swap():
    game = new_game("panic", players=2, seed=5)
    put(game, "r1c1", "Mirage")
    put(game, "r5c5", "yellow egg")
    egg = game.island["r5c5"]
    game.apply(Reveal("r1c1"))
    game.apply(Reveal("r5c5"))
    assert game.island["r1c1"] == egg  # swapped
    cards = game.observation(0)["cards"]
    assert cards["r1c1"] == egg and cards["r5c5"] == game.island["r5c5"]


@pytest.mark.parametrize("seed", range(6))
def test_observation_never_holds_a_card_where_nobody_saw_it(seed):
    game = played(seed, actions=25)
    seen = {a.place for a in game.history if hasattr(a, "place")} | {game.volcano}
    cards = game.observation(1)["cards"]
    assert set(cards) <= seen
    for place, card in cards.items():
        assert game.island[place] == card  # and what it holds is true


# -- determinize ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_determinize_deals_the_never_seen_cards_anew_and_keeps_the_rest(seed):
    game = played(seed, actions=12)
    before = game.state_digest(), dict(game.island), game.observation(0).key()
    seen = set(game.observation(0)["cards"])
    worlds = [game.determinize(0, random.Random(k)) for k in range(5)]
    assert (game.state_digest(), dict(game.island), game.observation(0).key()) == before
    for world in worlds:
        assert world.observation(0) == game.observation(0)
        assert world.legal_actions() == game.legal_actions()
        assert all(world.island[p] == game.island[p] for p in seen)
        assert Counter(world.island.values()) == Counter(game.island.values())
    assert len({tuple(w.island.values()) for w in worlds}) > 1  # really dealt anew


def test_a_determinized_world_plays_on_without_touching_the_original():
    game = played(2, actions=8)
    digest = game.state_digest()
    world = game.determinize(1, random.Random(3))
    bot = PerfectRecallAgent(seed=1)
    while not world.is_over:
        world.apply(bot.choose(world))
    assert game.state_digest() == digest and not game.is_over


def test_observation_and_determinize_check_the_seat():
    game = new_game("panic", players=2, seed=1)
    for bad in (2, -1, 1.0, True, "0"):
        with pytest.raises(OptionError, match="seat"):
            game.observation(bad)
        with pytest.raises(OptionError, match="seat"):
            game.determinize(bad, random.Random(1))


# -- action ids ----------------------------------------------------------------------------------
def test_every_action_has_a_stable_id_and_time_up_is_never_offered():
    game = new_game("panic", players=2, seed=1, clock="external")
    assert game.num_distinct_actions == 25 + 1 + 3 * 25 + 25 + 1
    ids = {game.action_id(game.action_from_id(i)) for i in range(game.num_distinct_actions)}
    assert ids == set(range(game.num_distinct_actions))
    assert game.action_id(Reveal("r1c1")) == 0
    assert game.action_id(TimeUp()) == game.num_distinct_actions - 1
    assert game.action_from_id(25) == WakeGouga()
    assert {type(a) for a in game.legal_actions()} == {Reveal, WakeGouga}
    assert [g.kind for g in game.choices()] == ["reveal", "gouga"]
    game.apply(TimeUp())  # the hourglass, not a seat: accepted on the real clock
    assert game.is_over and game.events[-1].kind == "game_over"


def test_gouga_calls_have_one_id_per_kind_and_place():
    game = new_game("panic", players=2, seed=1)
    game.apply(WakeGouga())
    calls = game.legal_actions()
    assert all(type(a) is GougaCall for a in calls) and len(calls) == 3 * 25
    ids = [game.action_id(a) for a in calls]
    assert len(set(ids)) == len(ids) and [game.action_from_id(i) for i in ids] == calls
    assert game.choices()[0].label.startswith("Name a kind")
    assert game.action_from_id(game.action_id(Place("r2c2"))) == Place("r2c2")


# -- the engine's own fast path ------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_quiet_trusted_play_out_plays_the_same_game(seed):
    loud = played(seed, players=4)
    quiet = new_game("panic", players=4, seed=seed)
    quiet.quieten(True)
    rng = random.Random(seed)
    quiet.play_out([lambda g: rng.choice(g.legal_actions())] * 4)
    assert quiet.events == [] and quiet.is_over
    rng = random.Random(seed)
    again = new_game("panic", players=4, seed=seed)
    while not again.is_over:
        again.apply(rng.choice(again.legal_actions()))
    assert quiet.history == again.history and quiet.result() == again.result()
    # the bots read the events: they play through the trusted path, never quiet
    bots = new_game("panic", players=4, seed=seed)
    bot = PerfectRecallAgent(seed=seed)
    bots.play_out([bot.choose] * 4)
    assert bots.history == loud.history and bots.result() == loud.result()
    assert bots.events[-1].kind == "game_over"


def test_a_subclass_of_an_action_is_played_as_its_action():
    class MyReveal(Reveal):
        pass

    a, b = new_game("panic", players=2, seed=4), new_game("panic", players=2, seed=4)
    assert [e.text for e in a.apply(MyReveal("r1c1"))] == [e.text for e in
                                                          b.apply(Reveal("r1c1"))]


def test_the_trusted_path_names_a_foreign_action():
    game = new_game("panic", players=2, seed=4)
    with pytest.raises(IllegalAction, match="not a Panic Island action"):
        game.apply_trusted("reveal r1c1")


def test_a_refused_action_changes_nothing():
    game = new_game("panic", players=2, seed=4)
    digest = game.state_digest()
    with pytest.raises(IllegalAction):
        game.apply(Place("r1c1"))
    with pytest.raises(IllegalAction):
        game.apply(TimeUp())  # the budget clock keeps its own time
    assert game.state_digest() == digest and game.history == []


# -- issue 29: the real hourglass with nobody to turn it ----------------------------------
def test_the_real_hourglass_game_ends_by_itself_after_budget_x_2_turns():
    assert EXTERNAL_TURNS_PER_SECOND == 2
    results = luckylab.simulate("panic", 4, games=2, clock="external")
    assert [r.turns for r in results] == [240, 240]
    assert {r.extra["end"] for r in results} == {"time"}
    assert all(r.extra["time_left"] == 120.0 for r in results)  # acts cost nothing there
    game = played(1, players=2, clock="external", time={"budget": 10})
    assert game.turn == 20 and game.end == "time" and "surely run out" in game.events[-1].text


def test_the_bound_never_ends_a_budget_game_and_time_up_still_ends_a_real_one():
    cheap = {"budget": 10, "reveal": 0.01, "gouga_call": 0.01, "save": 0, "place": 0,
             "Beehive": 0, "Mirage": 0, "Tornado": 0}  # 20 turns on the real clock
    game = played(3, players=2, time=cheap)
    assert game.turn > 20 and game.is_over
    game = new_game("panic", players=2, seed=3, clock="external")
    game.apply(Reveal(next(p for p in game.island if p != game.volcano)))
    game.apply(TimeUp())
    assert game.end == "time" and game.turn == 0
