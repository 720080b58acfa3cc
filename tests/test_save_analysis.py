"""luckylab.analysis.sinking: the sinking clock, the odds of a witness, seeded outcome summaries.

Exact claims are checked against the engine (the clock against games in which everybody snoops)
and against brute-force enumeration (the witness odds); the simulation helpers against
luckylab.simulate itself.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from luckylab import load_board, simulate
from luckylab.agents.save import CautiousAgent, GreedyAgent, best_aid
from luckylab.analysis.sinking import (
    outcome_rates,
    p_watched,
    patience_agent,
    patience_sweep,
    pile_sizes,
    rescue_curve,
    seat_bots,
    simulate_mixes,
    sinking_clock,
    sinking_snapshots,
    witness_odds,
)
from luckylab.games.base import GameResult
from luckylab.games.save import EndTurn, Rescue, SaveGame, Snoop, hand_size, sinking_boards
from luckylab.simulation import play_game

SHIP = load_board("save-doctor-lucky")


# -- the clock -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_S_SETUP_3_piles_hold_the_cards_left_after_the_deal_lower_decks_larger(players):
    piles = pile_sizes(players)
    assert list(piles) == ["D", "C", "B", "A"]  # bottom deck first: the order they are drawn
    assert sum(piles.values()) == 90 - players * hand_size(players)
    sizes = list(piles.values())
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)  # the extra cards go to the lower decks


def test_pile_sizes_follow_the_hand_size_option():
    assert sum(pile_sizes(4, hand_size=10).values()) == 90 - 40


@pytest.mark.parametrize("players", [3, 4, 7])
def test_S_SINK_1_everybody_snooping_sinks_each_deck_on_the_clock(players):
    """S-SINK-1, S-SNOOP-1: with every turn a snooping turn, deck D sinks exactly after
    sinking_clock()["D"] turns, C after sinking_clock()["C"], ...; the last sinks deck A and
    ends the game (S-SINK-2)."""
    clock = sinking_clock(players)
    game = SaveGame(players=players, seed=5)
    sank_at = {}
    while not game.is_over:
        seat = game.current_player
        events = game.apply(Snoop(game.positions[seat]))
        for e in events:
            if e.kind == "sink" or (e.kind == "game_over" and "deck" in e.data):  # the last
                sank_at[e.data["deck"]] = game.turns
    assert sank_at == clock
    assert game.result().extra["end"] == "sunk"


def test_active_turns_do_not_move_the_clock():
    """S-ACT-1: an active turn draws no card, so no pile gets shorter."""
    game = SaveGame(players=4, seed=5)
    before = {d: len(p) for d, p in game.piles.items()}
    for _ in range(30):
        game.apply(EndTurn())
    assert {d: len(p) for d, p in game.piles.items()} == before
    assert game.sunk == ()


# -- who sees his room --------------------------------------------------------------------------
def _watched_by_enumeration(board, others):
    """Every placement of Doctor Lucky and ``others`` pawns, counted one by one."""
    rooms = board.spaces
    hits = total = 0
    for doctor in rooms:
        for pawns in itertools.product(rooms, repeat=others):
            total += 1
            hits += any(board.sees(p, doctor) for p in pawns)
    return Fraction(hits, total)


@pytest.mark.parametrize("sunk, others", [(3, 1), (3, 2), (3, 3), (2, 2)])
def test_S_SAVE_1_p_watched_equals_counting_every_placement(sunk, others):
    board = sinking_boards(SHIP)[sunk]
    assert p_watched(board, others) == _watched_by_enumeration(board, others)


def test_p_watched_grows_with_more_pawns_and_rejects_bad_counts():
    values = [p_watched(SHIP, k) for k in range(7)]
    assert values[0] == 0
    assert values == sorted(values) and len(set(values)) == 7
    with pytest.raises(ValueError, match="others"):
        p_watched(SHIP, -1)


def test_witness_odds_one_row_per_stage_and_a_smaller_ship_is_easier_to_watch():
    """The lesson's claim: as the decks sink, a rescue's witness gets likelier (S-SINK-1 crowds
    every pawn onto fewer rooms), and an unseen spot (what Kill Doctor Lucky needs) rarer."""
    rows = witness_odds(others=3)
    assert [(r.afloat, r.rooms) for r in rows] == [
        (afloat, len(b))
        for afloat, b in zip(["ABCD", "ABC", "AB", "A"], sinking_boards(SHIP), strict=True)]
    watched = [r.p_watched for r in rows]
    assert watched == sorted(watched)
    assert all(r.p_unseen == 1 - r.p_watched for r in rows)
    assert rows[0].mean_seen_from == Fraction(sum(len(SHIP.seen_by(s)) for s in SHIP.spaces),
                                              len(SHIP))


# -- bots and seeded games ------------------------------------------------------------------------
def test_seat_bots_play_the_game_play_game_plays():
    seed = 11
    game = SaveGame(players=5, seed=seed)
    bots = seat_bots(game, seed, ["cautious", "greedy", "rider", "random", "cautious"])
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    expected = play_game("save", 5, seed, ["cautious", "greedy", "rider", "random", "cautious"])
    assert game.result() == expected


def test_seat_bots_needs_one_bot_per_seat():
    with pytest.raises(ValueError, match="3 agents for 4 players"):
        seat_bots(SaveGame(players=4, seed=0), 0, ["greedy"] * 3)


def test_sinking_snapshots_copy_the_game_at_each_sinking_and_at_the_end():
    shots = sinking_snapshots(players=4, seed=1, agents="cautious")
    assert shots[0].history == [] and not shots[0].sunk
    for before, after in itertools.pairwise(shots[:-1]):
        assert len(after.sunk) == len(before.sunk) + 1
    assert shots[-1].is_over
    final = play_game("save", 4, 1, "cautious")
    assert shots[-1].result() == final
    # copies, not views of one game
    assert len({id(s) for s in shots}) == len(shots)
    assert shots[0].afloat == ("A", "B", "C", "D")


def test_patience_zero_plays_exactly_like_greedy():
    """CautiousAgent with patience 0 is in a hurry from the start: greedy's rules."""
    a = simulate("save", players=4, games=8, seed=3, agents=patience_agent(0))
    b = simulate("save", players=4, games=8, seed=3, agents=GreedyAgent)
    assert a == b


def test_patience_agent_is_a_cached_cautious_subclass():
    assert patience_agent(2) is patience_agent(2)
    assert issubclass(patience_agent(2), CautiousAgent) and patience_agent(2).patience == 2
    with pytest.raises(ValueError, match="patience"):
        patience_agent(-1)


def _first_weak_chance(players=4, sunk=0):
    """A seeded position where the deciding seat could try a rescue worth less than 4 with
    exactly ``sunk`` decks sunk (found by letting greedy bots play)."""
    for seed in range(200):
        game = SaveGame(players=players, seed=seed)
        bots = seat_bots(game, seed, "rider")
        while not game.is_over:
            seat = game.current_player
            if (game.phase in ("turn", "active") and game.rescue_problem(seat) is None
                    and len(game.sunk) == sunk
                    and best_aid(game.view(seat), seat, game.positions[seat])[0] < 4):
                return game
            game.apply(bots[seat].choose(game))
    raise AssertionError("no weak chance found")


def test_cautious_waits_with_a_weak_attempt_until_its_patience_runs_out():
    early = _first_weak_chance(sunk=0)
    assert not isinstance(CautiousAgent(seed=0).choose(early), Rescue)
    assert isinstance(patience_agent(0)(seed=0).choose(early), Rescue)
    late = _first_weak_chance(sunk=3)
    action = CautiousAgent(seed=0).choose(late)  # patience 3: the last deck, any attempt
    assert isinstance(action, Rescue) and action in late.legal_actions()


# -- summaries ------------------------------------------------------------------------------------
def _result(end, turns, sunk=0):
    winner = 0 if end == "rescued" else None
    return GameResult(game="save", players=4, seed=0, finished=end != "turn cap",
                      winner=winner, loser=None, turns=turns, attempts=0,
                      extra={"end": end, "decks_sunk": sunk, "attempts": []})


def test_outcome_rates_count_ends_and_where_rescues_happen():
    results = [_result("rescued", 10, 1), _result("rescued", 30, 3), _result("sunk", 90, 4),
               _result("rescued", 20, 3), _result("turn cap", 2000, 2)]
    rates = outcome_rates(results)
    assert (rates["games"], rates["rescued"], rates["sunk"], rates["unfinished"]) == (5, 3, 1, 1)
    assert rates["p_rescued"][0] == 0.6 and rates["p_sunk"][0] == 0.2
    assert rates["p_rescued"][1] < 0.6 < rates["p_rescued"][2]
    assert rates["decks_sunk_at_rescue"] == {1: 1, 3: 2}
    assert rates["median_turns"] == 30


def test_rescue_curve_counts_games_ended_by_turn_t():
    results = [_result("rescued", 10), _result("rescued", 30), _result("sunk", 20),
               _result("sunk", 40)]
    assert rescue_curve(results, [0, 10, 20, 30, 40]) == [
        (0, 0.0, 0.0), (10, 0.25, 0.0), (20, 0.25, 0.25), (30, 0.5, 0.25), (40, 0.5, 0.5)]
    with pytest.raises(ValueError):
        rescue_curve([], [1])


def test_patience_sweep_and_mixes_play_the_same_deals_as_simulate():
    rows = patience_sweep([0, 3], players=3, games=6, seed=2)
    assert [r["patience"] for r in rows] == [0, 3]
    direct = simulate("save", players=3, games=6, seed=2, agents=patience_agent(3))
    assert {k: v for k, v in rows[1].items() if k != "patience"} == outcome_rates(direct)
    runs = simulate_mixes({"greedy": "greedy", "mixed": ["greedy", "cautious", "rider"]},
                          players=3, games=4, seed=2)
    assert runs["greedy"] == simulate("save", players=3, games=4, seed=2, agents="greedy")
    assert [r.seed for r in runs["mixed"]] == [r.seed for r in runs["greedy"]]
