"""A bot of a tournament is shown its seat's world, not the real game (issue 39, item 1).

The world keeps what the seat may know (its hand, the board, the past as it saw it) and deals
every hidden card anew: a bot that reads another hand reads a plausible one, not the real one.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from luckylab import new_game
from luckylab.agents import agent_class
from luckylab.agents.readable import readable_bots
from luckylab.games import shown
from luckylab.games.shown import SeatPasts, Unseen, seat_world, world_and_seed
from luckylab.tournament.worlds import WorldReceiver, WorldSender

GAMES = ["island", "kill", "save", "panic", "doctorwho"]


def played(game_name: str, seed: int, players: int = 4):
    """Positions of a game of the default bots, one every few decisions: (game, past)."""
    game = new_game(game_name, players=players, seed=seed)
    past = SeatPasts(game)
    bots = [agent_class(game_name)(seed=seed * 10 + s) for s in range(game.num_seats)]
    step = 0
    while not game.is_over and step < 600:
        seat = game.current_player
        if step % 5 == 0:
            yield game, past
        game.apply(bots[seat].choose(game))
        past.catch_up(seat)
        step += 1


def differences(a: Any, b: Any) -> list[str]:
    out = []
    for key in a.__dict__.keys() | b.__dict__.keys():
        x, y = a.__dict__.get(key, "missing"), b.__dict__.get(key, "missing")
        if isinstance(x, random.Random) and isinstance(y, random.Random):
            same = x.getstate() == y.getstate()
        else:
            same = x == y
        if not same:
            out.append(key)
    return sorted(out)


def leaks(game_name: str, seeds: range) -> dict[str, int]:
    """Where a seat's world depends on more than the seat may know. ``other`` is a game the seat
    cannot tell from the real one, with other secrets: the hidden cards dealt anew, another
    seed, another generator, no past of its own. Dealt with the same generator, the worlds of
    both must be the very same world: anything the real game passed on that the seat may not
    know (a seed, a generator, a hand, a face-down card, the whole history) makes them differ."""
    found: dict[str, int] = {}
    for seed in seeds:
        for k, (game, past) in enumerate(played(game_name, seed)):
            seat = game.current_player
            other = game.determinize(seat, random.Random(k))
            other.seed, other.rng = 10_000 + k, random.Random(k)
            a = seat_world(game, seat, random.Random(99), past)
            b = seat_world(other, seat, random.Random(99), past)
            for key in differences(a, b):
                found[key] = found.get(key, 0) + 1
    return found


@pytest.mark.parametrize("game_name", GAMES)
def test_a_seat_world_depends_only_on_what_the_seat_may_know(game_name):
    assert leaks(game_name, range(3)) == {}


def test_the_leak_check_finds_a_world_that_keeps_the_seed_or_the_generator(monkeypatch):
    real = world_and_seed

    def careless(game, seat, rng, past=None):
        world, seed = real(game, seat, rng, past)
        world.seed = game.seed  # from the seed and the past, the real deal can be replayed
        world.rng = copy.deepcopy(game.rng)  # and the real generator knows every card to come
        world.history = game.history.copy()  # and the whole past, the passed cards included
        return world, seed

    monkeypatch.setattr(shown, "world_and_seed", careless)
    found = leaks("kill", range(1))
    assert {"seed", "rng", "history"} <= set(found), found


@pytest.mark.parametrize("game_name", GAMES)
def test_the_world_keeps_the_seats_hand_and_deals_the_others_anew(game_name):
    game, past = next(p for p in played(game_name, 5) if len(p[0].history) > 10)
    seat = game.current_player
    world = seat_world(game, seat, random.Random(1), past)
    assert world.seed is None and world is not game
    assert world.observation(seat).data == game.observation(seat).data
    assert world.legal_actions() == game.legal_actions()
    assert len(world.history) == len(game.history)
    if getattr(type(game), "hidden_information", True):
        assert any(world.hands[s] != game.hands[s] for s in range(len(game.hands))
                   if s != seat)


@pytest.mark.parametrize("game_name", GAMES)
def test_readable_bots_decide_the_same_on_the_real_game_and_on_their_seats_world(game_name):
    """1,000 seeded decisions of every readable bot of the game: a bot that reads only what its
    seat may know (its view) cannot tell the two apart."""
    bots, _ = readable_bots(game_name)
    for bot_name, cls in bots.items():
        same, differ, seed = 0, [], 0
        while same + len(differ) < 1000:
            game = new_game(game_name, players=4, seed=seed)
            past, rng = SeatPasts(game), random.Random(seed)
            players = [cls(seed=100 * seed + s) for s in range(game.num_seats)]
            while not game.is_over and same + len(differ) < 1000:
                seat = game.current_player
                twin = copy.deepcopy(players[seat])  # the same bot, its generator included
                action = players[seat].choose(game)
                if twin.choose(seat_world(game, seat, rng, past)) == action:
                    same += 1
                else:
                    differ.append((seed, len(game.history)))
                game.apply(action)
                past.catch_up(seat)
            seed += 1
        assert differ == [], f"{bot_name} reads what its seat may not know: {differ[:5]}"


def test_a_pass_is_seen_whole_by_the_passer_and_as_unseen_by_the_others():
    game = new_game("doctorwho", players=3, seed=2)
    past = SeatPasts(game)
    bots = [agent_class("doctorwho")(seed=s) for s in range(3)]
    while not any(a.type_name == "pass" for a in game.history):
        seat = game.current_player
        game.apply(bots[seat].choose(game))
        past.catch_up(seat)
    k = next(i for i, a in enumerate(game.history) if a.type_name == "pass")
    passer = next(s for s in range(3) if past.history[s][k] == game.history[k])
    for seat in range(3):
        if seat != passer:
            assert past.history[seat][k] == Unseen("pass", passer)
    world = seat_world(game, (passer + 1) % 3, random.Random(0), past)
    assert world.history[k] == Unseen("pass", passer)


def test_the_card_a_penalty_passes_is_told_only_to_the_two_players():
    for seed in range(40):
        game = new_game("island", players=4, seed=seed)
        past = SeatPasts(game)
        bots = [readable_bots("island")[0]["random"](seed=s) for s in range(game.num_seats)]
        while not game.is_over:
            seat = game.current_player
            game.apply(bots[seat].choose(game))
            past.catch_up(seat)
        given = [i for i, e in enumerate(game.events) if e.kind == "penalty"
                 and "card" in e.data]
        if given:
            break
    else:
        pytest.fail("no penalty card was given in 40 games")
    event = game.events[given[0]]
    for seat in range(game.num_seats):
        seen = past.events[seat][given[0]]
        assert seen.text == event.text
        told = seat in (event.data["seat"], event.data["to"])
        assert ("card" in seen.data) == told


@pytest.mark.parametrize("game_name", GAMES)
def test_the_world_a_worker_rebuilds_is_the_world_the_referee_dealt(game_name):
    sender = WorldSender(game_name, 4, {})
    receiver = WorldReceiver(game_name, 4, {})
    sender.new_game()
    receiver.new_game()
    for k, (game, past) in enumerate(played(game_name, 3)):
        seat = game.current_player
        if seat != 0:
            continue
        message = sender.world(game, seat, random.Random(k), past)
        rebuilt = receiver.world(message)
        here = seat_world(game, seat, random.Random(k), past)
        assert differences(rebuilt, here) == []
        assert rebuilt.seed is None and game.seed not in (None,)
        assert len(message) < 64_000
