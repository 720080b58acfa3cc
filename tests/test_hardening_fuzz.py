"""Generated bad input (hypothesis): loaders, new_game options, actions, replays and the CLI
raise only luckylab errors (never an internal exception) and never accept a wrong type.

``AUDIT`` counts what was tried, as the audit of issue 15 did: bad inputs tried, clear errors
(a LuckyLabError), unclear ones (anything else; the tests fail on any).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest
import tomllib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import luckylab
from luckylab import LuckyLabError, new_game
from luckylab.boards import board_from_data
from luckylab.cards import deck_from_data
from luckylab.games import island, kill, panic, save
from luckylab.games.panic import rules_from_data

DATA = Path(luckylab.__file__).parent / "data"
AUDIT: Counter = Counter()
FAST = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                    st.sampled_from(["Frog Pond", "r1c1", "Galley", "Hall", "egg", "self"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12)


def _outcome(call) -> str:
    AUDIT["tried"] += 1
    try:
        call()
    except LuckyLabError as exc:
        assert str(exc)
        AUDIT["clear"] += 1
        return "clear"
    except Exception:
        AUDIT["unclear"] += 1
        raise
    AUDIT["accepted"] += 1
    return "accepted"


def _paths(data, prefix=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:3]):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


FILES = {name: tomllib.loads((DATA / name).read_text(encoding="utf-8")) for name in (
    "isla_fortuna.toml", "save_ship.toml", "island_deck.toml", "save_deck.toml",
    "panic_island.toml")}
PATHS = {name: list(_paths(data)) for name, data in FILES.items()}
LOADERS = {
    "isla_fortuna.toml": lambda d: board_from_data(d, "f"),
    "save_ship.toml": lambda d: board_from_data(d, "f"),
    "island_deck.toml": lambda d: deck_from_data(d, "f"),
    "save_deck.toml": lambda d: deck_from_data(d, "f"),
    "panic_island.toml": lambda d: (rules_from_data(d, "f"), panic.board_from_data(d, "f")),
}


@FAST
@given(name=st.sampled_from(sorted(FILES)), data=st.data(), value=values)
def test_loaders_raise_only_luckylab_errors_for_any_field_value(name, data, value):
    path = data.draw(st.sampled_from(PATHS[name]))
    mutated = copy.deepcopy(FILES[name])
    node = mutated
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    _outcome(lambda: LOADERS[name](mutated))


@FAST
@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200).map(
    lambda b: b.decode("latin-1"))), suffix=st.sampled_from([".toml", ".json"]))
def test_any_file_text_loads_or_gives_a_luckylab_error(tmp_path_factory, text, suffix):
    path = tmp_path_factory.mktemp("f") / f"board{suffix}"
    path.write_bytes(text.encode("utf-8", errors="replace"))
    _outcome(lambda: luckylab.load_board(path))
    _outcome(lambda: luckylab.load_deck(path))


GAME_NAMES = ["island", "kill", "save", "panic"]
OPTION_NAMES = ["youre_out", "cat_blocks", "strangers", "turn_cap", "board", "hand_size",
                "deck_steps", "last_must_foil", "loser_award", "first_player", "deck",
                "obstacles", "volcano", "tired_gouga", "paddle_and_raft", "time", "clock",
                "allow_two_players", "nonsense"]


@FAST
@given(game=st.sampled_from(GAME_NAMES), players=values, seed=values,
       options=st.dictionaries(st.sampled_from(OPTION_NAMES), values, max_size=3))
def test_new_game_raises_only_luckylab_errors_and_refuses_wrong_types(game, players, seed,
                                                                       options):
    result = _outcome(lambda: new_game(game, players=players, seed=seed, **options))
    if result == "accepted":  # then every value had the right type
        assert type(players) is int and (seed is None or type(seed) is int and seed >= 0)
        for key, value in options.items():
            if key in ("youre_out", "tired_gouga", "paddle_and_raft", "last_must_foil",
                       "loser_award", "allow_two_players"):
                assert isinstance(value, bool)
            if key in ("turn_cap", "hand_size", "first_player") and value is not None:
                assert type(value) is int


ACTIONS = {"island": island, "kill": kill.actions, "save": save, "panic": panic}
GAMES = {g: new_game(g, players=4, seed=7) for g in GAME_NAMES}


def _action_classes(module):
    """The game's own action classes: defined in its module, or in its package (a game in a
    package of its own, ``luckylab.games.save``, defines them in ``.actions``)."""
    from luckylab.games.base import GameAction

    return [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, GameAction)
            and c is not GameAction  # the game's own: defined in it, or in its package
            and f"{c.__module__}.".startswith(f"{module.__name__}.")]


@FAST
@given(game=st.sampled_from(GAME_NAMES), data=st.data())
def test_actions_with_any_field_values_raise_only_illegal_action_and_change_nothing(game, data):
    import dataclasses

    module = ACTIONS[data.draw(st.sampled_from(GAME_NAMES))]
    cls = data.draw(st.sampled_from(_action_classes(module)))
    args = [data.draw(values) for _ in dataclasses.fields(cls)]
    action = cls(*args)
    state = GAMES[game].clone()
    before = json.dumps(state.record(), default=repr)
    result = _outcome(lambda: state.apply(action))
    if result == "clear":
        assert json.dumps(state.record(), default=repr) == before
    else:
        action.check_fields()  # an accepted action has fields of the right types


RECORDS = {}


def _record(game):
    if game not in RECORDS:
        from luckylab.agents.base import RandomAgent

        state = new_game(game, players=4, seed=11)
        bot = RandomAgent(seed=11)
        for _ in range(60):
            if state.is_over:
                break
            state.apply(bot.choose(state))
        RECORDS[game] = json.loads(json.dumps(state.record()))
    return RECORDS[game]


@FAST
@given(game=st.sampled_from(GAME_NAMES), data=st.data(), value=values)
def test_edited_records_replay_exactly_or_raise_a_replay_error(game, data, value):
    record = copy.deepcopy(_record(game))
    path = data.draw(st.sampled_from(list(_paths(record))))
    node = record
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    if record == _record(game):
        return
    outcome = _outcome(lambda: luckylab.replay(record))
    if outcome == "accepted":  # only an edit that changes nothing the game depends on
        assert luckylab.replay(record).state_digest() == luckylab.replay(
            _record(game)).state_digest()


WORDS = ["simulate", "board", "foil", "--players", "--games", "--seed", "--agents", "--game",
         "--json", "--attack", "--hands", "--known", "--samples", "--workers", "island", "kill",
         "save", "panic", "random", "nope", "0", "-1", "3", "99", "2.5", "x.json", "", "-3"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argv=st.lists(st.sampled_from(WORDS), min_size=1, max_size=7))
def test_any_command_line_exits_0_or_2_without_a_traceback(argv):
    import contextlib
    import io

    from luckylab.__main__ import main

    if "--games" not in argv:
        argv = [*argv, "--games", "2"] if argv[0] == "simulate" else argv
    if "--samples" not in argv and argv[0] == "foil":
        argv = [*argv, "--samples", "200"]
    if "--workers" in argv:
        return  # process pools are too slow for a generated test
    AUDIT["tried"] += 1
    out, errors = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(errors):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: usage error, exit 2
            code = exc.code
        except LuckyLabError:
            raise AssertionError("main() must turn a LuckyLabError into exit 2") from None
    err = errors.getvalue()
    assert code in (0, 2) and "Traceback" not in err
    AUDIT["clear" if code == 2 else "accepted"] += 1


@pytest.fixture(scope="module", autouse=True)
def audit_report():
    yield
    print(f"\naudit: {AUDIT['tried']} bad inputs tried, {AUDIT['clear']} clear errors, "
          f"{AUDIT['unclear']} unclear, {AUDIT['accepted']} accepted (valid after all)")


# -- Doctor Who: seeded games with the standing invariants after every action (issue 29) ------

DW_BOTS = ["random", "greedy", "careful", "bluffer"]
DW_AUDIT: Counter = Counter()


def dw_violations(game) -> list[str]:
    """The standing invariants of a Doctor Who state (empty when all hold)."""
    out = []
    places = game.card_places()
    every = sorted(c for cards in places.values() for c in cards)
    if every != list(range(len(game.cards))):
        out.append("a card is in no place or in two places")
    if min(game.tp) < 0 or sum(game.tp) > 30:
        out.append(f"Time Points {game.tp}: each >= 0, 30 in all")
    legal = game.legal_actions()
    if bool(legal) == game.is_over or (game.current_player is None) != game.is_over:
        out.append(f"{len(legal)} legal actions, is_over={game.is_over}")
    if game.phase == "turn" and len(game.available(game.turn_player)) < game.pass_n:
        out.append("the turn player is under the hand floor (no Pass can end the turn)")
    for s in range(game.players):
        if game.daleks_in_play(s) > 5 or game.tardis_in_play(s) > 5:
            out.append(f"Player {s + 1} has more than 5 counters of a kind in play")
        if game.reserve_used(s) > game.capacity(s):
            out.append(f"Player {s + 1}'s reserve is over capacity")
    for lid, loc in game.locs.items():
        types = [game.cards[d].type for d in loc.defenders]
        if len(types) != len(set(types)):
            out.append(f"two Defenders of one type on {lid}")
        if not loc.up <= set(loc.enemies):
            out.append(f"a face-up card at {lid} is not in its attack")
        deciding = game.conflict is not None and game.conflict.loc == lid
        if (loc.attacker is None) != (not loc.enemies) and not deciding:  # (an Astronaut
            # that met River Song leaves an attack of no cards until the conflict is decided)
            out.append(f"an attack at {lid} without a Dalek counter, or a counter alone")
    return out


def _dw_snapshot(game):
    """Everything a refused action must leave alone: the events and outcome (the digest), every
    action so far, whose turn it is and what each seat sees (hidden cards included)."""
    return (game.state_digest(), tuple(game.history), game.current_player,
            [game.observation(s).key() for s in range(game.players)])


def dw_fuzz(games: int, first_seed: int, refuse_every: int) -> Counter:
    """``games`` seeded games (3 and 4 players, random and bundled bots per seat), the
    invariants after every action; every ``refuse_every``-th action also tries an action
    that is not legal now (a random id, or a legal action with a junk field), which must raise
    a LuckyLabError and leave the game as it was."""
    import dataclasses
    import random

    from luckylab.agents import agent_class

    tally: Counter = Counter()
    for seed in range(first_seed, first_seed + games):
        rng = random.Random(seed)
        players = 3 + seed % 2
        state = new_game("doctorwho", players=players, seed=seed)
        bots = [agent_class("doctorwho", rng.choice(DW_BOTS))(seed=rng.getrandbits(32))
                for _ in range(players)]
        problems = dw_violations(state)
        while not state.is_over:
            if tally["actions"] % refuse_every == 0:
                legal = state.legal_actions()
                taken = {state.action_id(a) for a in legal}
                bad = [state.action_from_id(i) for i in
                       (rng.randrange(state.num_distinct_actions) for _ in range(3))
                       if i not in taken]
                action = rng.choice(legal)
                names = [f.name for f in dataclasses.fields(action)]
                if names:
                    bad.append(dataclasses.replace(action, **{rng.choice(names): rng.choice(
                        [1.5, "yes", None, True, [1], -1, 10**6])}))
                before = _dw_snapshot(state)  # one snapshot serves every refusal of the round
                for wrong in bad:
                    if wrong in legal:
                        continue
                    tally["refused tried"] += 1
                    try:
                        state.apply(wrong)
                    except LuckyLabError:
                        tally["refused"] += 1
                    except Exception as exc:  # noqa: BLE001 - counted, then failed below
                        problems.append(f"{wrong!r} raised {type(exc).__name__}: {exc}")
                    else:
                        problems.append(f"{wrong!r} was accepted")
                    if _dw_snapshot(state) != before:
                        problems.append(f"refused {wrong!r} changed the game")
            state.apply(bots[state.current_player].choose(state))
            tally["actions"] += 1
            problems += dw_violations(state)
            if problems:
                break
        tally["games"] += 1
        tally["finished"] += state.finished
        tally["violations"] += len(problems)
        if problems:
            tally["first violation"] = tally["first violation"] or seed + 1
            raise AssertionError(f"doctorwho {players}p seed {seed}: {problems[:3]}")
    DW_AUDIT.update(tally)
    return tally


def test_doctorwho_fuzz_fast():
    tally = dw_fuzz(games=24, first_seed=0, refuse_every=10)
    assert tally["violations"] == 0 and tally["games"] == tally["finished"] == 24
    assert tally["refused"] == tally["refused tried"] > 500


@pytest.mark.slow
@pytest.mark.parametrize("block", range(6))
def test_doctorwho_fuzz_3000_games(block):
    """3,000 seeded games in six blocks of 500 (3 and 4 players; random, greedy, careful and
    bluffer bots per seat): 0 invariant violations, every refused action a LuckyLabError
    that changes nothing."""
    tally = dw_fuzz(games=500, first_seed=10_000 + 500 * block, refuse_every=40)
    assert tally["violations"] == 0 and tally["games"] == tally["finished"] == 500
    assert tally["refused"] == tally["refused tried"]


@pytest.fixture(scope="module", autouse=True)
def doctorwho_fuzz_report():
    yield
    if DW_AUDIT:
        print(f"\ndoctorwho fuzz: {DW_AUDIT['games']} games ({DW_AUDIT['finished']} finished), "
              f"{DW_AUDIT['actions']} actions with the invariants after each, "
              f"{DW_AUDIT['violations']} violations; {DW_AUDIT['refused tried']} illegal "
              f"actions tried, {DW_AUDIT['refused']} refused with a LuckyLabError, state "
              "unchanged")
