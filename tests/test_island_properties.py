"""Properties of whole Island games, over many seeded games with every kind of agent."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import luckylab
from luckylab import new_game
from luckylab.agents.island import AGENTS
from luckylab.games.base import jump_target
from luckylab.games.island import Draw

agent_names = st.sampled_from(sorted(AGENTS))


def play_checked(players, seed, names, youre_out=False, turn_cap=400):
    game = new_game("island", players=players, seed=seed, youre_out=youre_out,
                    turn_cap=turn_cap)
    bots = [AGENTS[names[s % len(names)]](seed=seed + s) for s in game.seats]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None and not game.is_stranger(seat)
        action = bots[seat].choose(game)
        if isinstance(action, Draw):
            assert game.watchers(seat) == frozenset(), "I-DRAW-1: nobody draws while seen"
        events = game.apply(action)
        places = game.card_places()
        every = sorted(c for cards in places.values() for c in cards)
        assert every == list(range(72)), "every card is in exactly one place"
        assert game._held == sum(game.hand_luck(s) for s in game.hands)
        check_turn_order(game, events)
    return game


def check_turn_order(game, events):
    """I-DOC-3 / I-DOC-4: jumps happen only after the first round, to the right seat, and
    the next turn belongs to that seat."""
    for i, event in enumerate(events):
        if event.kind != "doctor_moves":
            continue
        data = event.data
        if "jump" in data:
            assert data["jump"] == jump_target(game.seats, data["last_active"],
                                               data["occupants"]) or game.eliminated
            following = [e for e in events[i + 1:] if e.kind in ("turn", "turn_cap")]
            if following and following[0].kind == "turn":
                assert following[0].data["seat"] == data["jump"]
        else:
            assert not data["occupants"] or data["first_round"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32),
       names=st.lists(agent_names, min_size=1, max_size=3), youre_out=st.booleans())
def test_every_game_ends_and_keeps_every_card_accounted(players, seed, names, youre_out):
    game = play_checked(players, seed, names, youre_out)
    result = game.result()
    assert game.is_over
    assert result.finished == (result.winner is not None)
    assert result.finished or result.turns >= 400  # I-END-2: capped, never endless
    if result.loser is not None:
        assert result.loser != result.winner and not game.is_stranger(result.loser)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_the_same_seed_and_actions_replay_the_same_game(players, seed):
    game = play_checked(players, seed, ["aggressive", "cautious"])
    again = luckylab.replay(game.record())
    assert [e.text for e in again.events] == [e.text for e in game.events]
    assert again.result() == game.result()


def test_replay_record_is_plain_json():
    import json

    game = play_checked(4, 11, ["aggressive"])
    record = json.loads(json.dumps(game.record()))
    assert luckylab.replay(record).result() == game.result()


def test_illegal_actions_from_a_random_position_change_nothing():
    from luckylab.games.island import Attack, Foil, Move, MoveCat

    game = new_game("island", players=4, seed=9)
    before = game.record(), dict(game.position), [list(h) for h in game.hands.values()]
    for bad in [Attack(), Foil(()), Move.to(game.current_player, "Skull Rock"),
                MoveCat(game.cat), "pass", None]:
        with contextlib.suppress(luckylab.IllegalAction):
            game.apply(bad)
    assert (game.record(), dict(game.position),
            [list(h) for h in game.hands.values()]) == before


def test_clone_is_independent():
    game = new_game("island", players=4, seed=2)
    twin = game.clone()
    game.apply(game.legal_actions()[1])
    assert twin.history == [] and twin.board is game.board and twin.cards is game.cards


def test_a_made_up_world_copies_what_light_copy_copies():
    """determinize's copy names what play changes in place; the generic copy looks at every
    attribute's type. They must agree (same attributes, values, and which are shared), so a
    mutable attribute added to the game and not named in _CHANGING fails here."""
    import random

    from luckylab.games.copying import light_copy
    from luckylab.games.island.view import SHARED as _SHARED

    phases = set()
    for players, youre_out in ((2, False), (3, True), (4, False), (5, True)):
        for seed in range(6):
            game = new_game("island", players=players, seed=seed, youre_out=youre_out)
            bots = [AGENTS[sorted(AGENTS)[(seed + s) % 3]](seed=s) for s in game.seats]
            while not game.is_over:
                phases.add(game.phase)
                made = game._made_up_copy()
                generic = light_copy(game, _SHARED, logs=False, fresh=frozenset({"rng"}))
                assert list(vars(made)) == list(vars(generic))
                for name, value in vars(generic).items():
                    mine, theirs = getattr(made, name), getattr(game, name)
                    assert mine == value, name
                    assert (mine is theirs) == (value is theirs), name
                for name in ("hands", "under"):
                    for s, cards in getattr(game, name).items():
                        assert getattr(made, name)[s] is not cards
                if game.foil is not None:
                    assert made.foil.order is not game.foil.order
                    assert made.foil.asked is not game.foil.asked
                world = game.determinize(game.current_player, random.Random(seed))
                assert type(world.rng) is random.Random and world.rng is not game.rng
                game.apply(bots[game.current_player].choose(game))
    assert phases == {"phase1", "phase2", "foil", "penalty"}
