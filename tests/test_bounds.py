"""Bounds and input checks of the public API (issue 29, "Public API" and "Runaways"): every
refusal is a LuckyLabError that says what is allowed, raised before any work; every size a
user's option controls has a documented bound (docs/limits.md)."""

from __future__ import annotations

import itertools
import math
import random
import time

import pytest

import luckylab
from luckylab.agents import agent_class, agent_names
from luckylab.analysis import luck
from luckylab.boards.board import _CAT_MODES
from luckylab.boards.loading import board_from_data
from luckylab.errors import BoardError, LuckyLabError, OptionError
from luckylab.simulation import MAX_GAMES, MAX_LISTED_GAMES, iter_simulate, play_game

# -- the luck functions: generated odd inputs ---------------------------------------------------

ODD = [None, 3, -1, 0, 2.5, math.nan, "x", "", b"x", True, [], [None], [-1], [10**12], {},
       {1: 2}, object(), [1.5], [[1]], range(3), 10**12, "island", [0, 1, 1, 2]]

BASES = {
    luck.luck_distribution: {"cards": [0, 1, 1, 2, 3], "k": 2, "exact": False, "known": ()},
    luck.p_at_least: {"cards": [0, 1, 1, 2, 3], "k": 2, "value": 2, "exact": False,
                      "known": ()},
    luck.p_foil: {"attack": 5, "hand_sizes": [2, 2], "deck": None, "known": (),
                  "exact": False},
    luck.players_needed: {"attack": 5, "hand_sizes": [2, 2], "deck": None, "known": (),
                          "exact": False},
    luck.monte_carlo_p_foil: {"attack": 5, "hand_sizes": [2, 2], "deck": None, "known": (),
                              "samples": 50, "seed": 0, "engine": "numpy"},
    luck.monte_carlo_players_needed: {"attack": 5, "hand_sizes": [2, 2], "deck": None,
                                      "known": (), "samples": 50, "seed": 0,
                                      "engine": "python"},
    luck.monte_carlo_luck_distribution: {"cards": [0, 1, 1, 2, 3], "k": 2, "samples": 50,
                                         "seed": 0, "known": (), "engine": "numpy"},
    luck.foil_report: {"attack": 5, "hand_sizes": [2, 2], "deck": None, "known": (),
                       "samples": 50, "seed": 0, "engine": "numpy"},
}


def _calls():
    """Every argument of every function replaced by every odd value, one at a time, then 300
    seeded pairs of replacements."""
    for fn, base in BASES.items():
        for name, value in itertools.product(base, ODD):
            yield fn, {**base, name: value}
    rng = random.Random(29)
    for _ in range(300):
        fn = rng.choice(list(BASES))
        base = BASES[fn]
        a, b = rng.sample(list(base), 2)
        yield fn, {**base, a: rng.choice(ODD), b: rng.choice(ODD)}


def test_every_odd_input_to_the_luck_functions_is_answered_or_refused_clearly():
    unclear, refused, answered = [], 0, 0
    for fn, kwargs in _calls():
        start = time.perf_counter()
        try:
            fn(**kwargs)
            answered += 1
        except LuckyLabError as exc:
            assert str(exc), (fn.__name__, kwargs)
            refused += 1
        except Exception as exc:  # noqa: BLE001 - the point: nothing else may escape
            unclear.append(f"{fn.__name__}({kwargs!r:.120}): {type(exc).__name__}: {exc}")
        assert time.perf_counter() - start < 5, (fn.__name__, kwargs)
    assert not unclear, "\n".join(unclear[:20])
    assert refused > 500 and answered > 50  # both kinds of input were generated


@pytest.mark.parametrize(("call", "words"), [
    (lambda: luck.luck_distribution(3, 1), "deck must be a list"),
    (lambda: luck.luck_distribution([10**12], 1), "from 0 to 1000"),
    (lambda: luck.luck_distribution([1, 2], 1, exact="yes"), "exact must be True or False"),
    (lambda: luck.p_foil(5, None), "hand_sizes must be a list of whole numbers"),
    (lambda: luck.p_foil(5, [2], known=3), "known must be a list"),
    (lambda: luck.monte_carlo_p_foil(5, [2], samples=10**12), "from 1 to 100,000,000"),
    (lambda: luck.monte_carlo_p_foil(5, [2], seed=1.5), "seed must be a whole number"),
    (lambda: luck.monte_carlo_p_foil(5, [2], engine="fortran"), "engines: numpy, python"),
])
def test_the_audits_luck_inputs_are_refused_with_what_is_allowed(call, words):
    with pytest.raises(OptionError, match=words):
        call()


def test_samples_have_one_bound_shared_with_the_command_line():
    from luckylab.__main__ import main

    assert luck.MAX_SAMPLES == 10**8
    assert main(["foil", "--attack", "5", "--hands", "2",
                 "--samples", str(luck.MAX_SAMPLES + 1)]) == 2


def test_the_exact_table_is_bounded_and_the_bound_keeps_real_decks():
    start = time.perf_counter()
    with pytest.raises(OptionError, match="monte_carlo"):
        luck.luck_distribution(list(range(1000)), 3)
    with pytest.raises(OptionError, match="monte_carlo"):
        luck.luck_distribution([0, 1, 1, 2, 3, 4] * 100, 3)  # 600 cards: ~25 s before
    assert time.perf_counter() - start < 0.5
    island_like = [0] * 50 + [1] * 100 + [2] * 50 + [3] * 12 + [4] * 12  # 224 cards
    assert luck.luck_table(island_like).size == 224
    assert luck.luck_distribution("island", 6)  # the real decks are far inside the bound


def test_a_big_deck_deals_in_small_blocks():
    est = luck.monte_carlo_p_foil(30, [10], deck=[1, 2, 3] * 3000, samples=20, seed=1)
    assert est.samples == 20
    # below 128 cards the blocks (and so the seeded estimates) are as before
    assert luck.monte_carlo_p_foil(20, [6, 6, 6], samples=5_000, seed=42).hits == \
        luck.monte_carlo_p_foil(20, [6, 6, 6], samples=5_000, seed=42).hits


def test_foil_question_refuses_a_game_without_a_foiling_round():
    panic = luckylab.new_game("panic", players=3, seed=1)
    with pytest.raises(OptionError, match="foil_question reads a live Island, Kill or Save game"):
        luck.foil_question(panic)
    with pytest.raises(OptionError, match="Island, Kill or Save game"):
        luck.foil_question(object())


# -- simulate ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "words"), [
    ({"seed": None}, "None is refused"),
    ({"seed": -1}, "seed must be a whole number"),
    ({"agents": 3}, "agents must be None, an agent name"),
    ({"agents": int}, "agents must be None, an agent name"),
    ({"agents": [3, None, None, None]}, "agents must be None, an agent name"),
    ({"executor": 3}, "executor must be None or a concurrent.futures.Executor"),
    ({"detail": "yes"}, "detail must be True or False"),
    ({"progress": 1}, "progress must be True or False"),
    ({"checked": None}, "checked must be True or False"),
    ({"games": MAX_GAMES + 1}, "from 0 to 10,000,000|at most 1,000,000 games"),
    ({"games": -1}, "games must be a whole number"),
])
def test_simulate_refuses_unclear_options_before_playing(kwargs, words):
    with pytest.raises(OptionError, match=words):
        luckylab.simulate("island", 4, **{"games": 2, **kwargs})
    with pytest.raises(OptionError, match=words):
        iter_simulate("island", 4, **{"games": 2, **kwargs})


def test_simulate_keeps_at_most_a_bounded_list():
    with pytest.raises(OptionError, match="stream them with iter_simulate"):
        luckylab.simulate("island", 4, games=MAX_LISTED_GAMES + 1)
    assert MAX_LISTED_GAMES <= MAX_GAMES


def test_play_game_refuses_a_seed_of_none_and_non_bool_flags():
    with pytest.raises(OptionError, match="None is refused"):
        play_game("island", 4, None)
    with pytest.raises(OptionError, match="detail must be True or False"):
        play_game("island", 4, 1, detail="no")
    assert play_game("island", 4, 1).seed == 1


# -- a bot on another game's state ---------------------------------------------------------------

GAMES = ["island", "kill", "save", "panic", "doctorwho"]


@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_bot_refuses_another_games_state(game):
    states = {g: luckylab.new_game(g, players=3, seed=1) for g in GAMES if g != game}
    for name in agent_names(game, look_ahead=True):
        cls = agent_class(game, name)
        if cls is luckylab.agents.RandomAgent:  # plays any game's legal_actions()
            continue
        assert cls.game_name == game
        for other, state in states.items():
            with pytest.raises(OptionError, match=f"it cannot play {other}"):
                cls(seed=1).choose(state)


def test_a_students_bot_knows_its_game_from_the_bot_it_extends():
    from luckylab.agents.kill import Opportunist

    class Mine(Opportunist):
        def choose(self, game):
            return super().choose(game)

    assert Mine.game_name == "kill"
    with pytest.raises(OptionError, match="Mine is a bot for Kill Doctor Lucky"):
        Mine(seed=1).choose(luckylab.new_game("island", players=3, seed=1))
    kill = luckylab.new_game("kill", players=3, seed=1)
    assert Mine(seed=1).choose(kill) == Opportunist(seed=1).choose(kill)


# -- boards ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["a" * 5000 + ".toml", "a" * 300 + ".toml", "x\0.toml"])
def test_an_over_long_or_broken_board_path_is_a_board_error(name):
    with pytest.raises(BoardError, match="path"):
        luckylab.load_board(name)


def _ring(n):
    spaces = [{"name": f"s{i}", "kind": "room", "number": i + 1,
               "adjacent": [f"s{(i - 1) % n}", f"s{(i + 1) % n}"]} for i in range(n)]
    return {"format": "graph", "name": "ring", "kinds": ["room"], "spaces": spaces}


def test_a_sight_row_holds_only_what_the_cat_changes():
    """All cat rows of a 5,000-space board took 20 s and 529 MB (a full copy per cat space)."""
    board = board_from_data(_ring(5000))
    start = time.perf_counter()
    for cat in board.spaces:
        assert board.visible_from("s0", cat=cat)
    assert time.perf_counter() - start < 3
    assert max(dict.__len__(board._sight["both"][cat]) for cat in board.spaces) == 3
    assert board.visible_from("s1", cat="s0") == {"s1", "s2"}
    assert board.visible_from("s0", cat="s0") == {"s0"}
    assert board.visible_from("s1", cat="s0", cat_blocks="outward") == {"s0", "s1", "s2"}


@pytest.mark.parametrize("name", ["isla-fortuna", "kill-doctor-lucky", "save-doctor-lucky"])
def test_sight_rows_match_the_rule_space_by_space(name):
    board = luckylab.load_board(name)
    base = board._base_sight
    for mode, cat, space in itertools.product(_CAT_MODES, board.spaces, board.spaces):
        if space == cat:
            want = {cat}
        elif mode == "both":
            want = base[space] - {cat}
        else:
            want = base[space]
        assert board.visible_from(space, cat=cat, cat_blocks=mode) == want
        assert board._sight[mode][cat].get(space) == want
    with pytest.raises(LuckyLabError):
        board.visible_from("Nowhere", cat=board.spaces[0])


def test_the_limits_page_states_every_bound():
    from pathlib import Path

    from luckylab.boards import files, geometry, graph, loading
    from luckylab.cards import decks
    from luckylab.games import base
    from luckylab.games.panic import rules as panic
    from luckylab.simulation import MAX_GAMES, MAX_LISTED_GAMES

    root = Path(__file__).resolve().parents[1]
    page = (root / "docs" / "limits.md").read_text(encoding="utf-8")
    assert "docs/limits.md" in (root / "README.md").read_text(encoding="utf-8")
    for name, value in [("MAX_TURN_CAP", base.MAX_TURN_CAP), ("MAX_ACTS", panic.MAX_ACTS),
                        ("MAX_GAMES", MAX_GAMES), ("MAX_LISTED_GAMES", MAX_LISTED_GAMES),
                        ("MAX_SAMPLES", luck.MAX_SAMPLES), ("MAX_CARDS", decks.MAX_CARDS),
                        ("MAX_CARD_LUCK", luck.MAX_CARD_LUCK),
                        ("MAX_FILE_BYTES", files.MAX_FILE_BYTES),
                        ("MAX_PATH_CHARS", loading.MAX_PATH_CHARS),
                        ("MAX_SPACES", graph.MAX_SPACES),
                        ("MAX_GEOMETRY_SPACES", geometry.MAX_GEOMETRY_SPACES)]:
        assert name in page and f"{value:,}" in page, name
    assert "EXTERNAL_TURNS_PER_SECOND" in page and "MAX_TABLE_WORK" in page
    assert luck.MAX_TABLE_WORK == 10**9 and "10⁹" in page
