"""Bad input gets a clear luckylab error (issue 15): loaders, options, action fields, replays.

Each test names what it guards. Every error the package raises on purpose is a
``LuckyLabError``; wrong types are refused, never coerced; files cost time and memory in
proportion to what they hold.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

import luckylab
from luckylab import BoardError, DeckError, IllegalAction, LuckyLabError, UnknownGame, new_game
from luckylab.boards import MAX_FILE_BYTES, load_board, read_data_file
from luckylab.cards import load_deck
from luckylab.errors import ActionFieldError, OptionError
from luckylab.games import island, kill, panic, save

DATA = Path(luckylab.__file__).parent / "data"


def ring_toml(n: int, extra: str = "") -> str:
    lines = [extra, 'format = "graph"', f'name = "Ring {n}"', 'kinds = ["room"]', ""]
    for i in range(1, n + 1):
        a, b = i % n + 1, (i - 2) % n + 1
        lines += ["[[spaces]]", f"number = {i}", f'name = "S{i}"', 'kind = "room"',
                  f'adjacent = ["S{a}", "S{b}"]', ""]
    return "\n".join(lines)


# -- action fields ---------------------------------------------------------------------------


def island_at_give_card():
    """An Island game played by bots until a GiveCard is legal (or None)."""
    from luckylab.agents.base import RandomAgent

    for seed in range(40):
        game = new_game("island", players=3, seed=seed)
        bot = RandomAgent(seed=seed)
        for _ in range(400):
            if game.is_over:
                break
            legal = game.legal_actions()
            gives = [a for a in legal if isinstance(a, island.GiveCard)]
            if gives:
                return game, gives[0]
            game.apply(bot.choose(game))
    return None, None


def test_a_float_card_id_is_refused_before_it_corrupts_an_island_game():
    game, give = island_at_give_card()
    assert game is not None
    before = (len(game.history), {k: list(v) for k, v in game.hands.items()})
    with pytest.raises(ActionFieldError, match=r"GiveCard.card must be int"):
        game.apply(island.GiveCard(float(give.card)))
    with pytest.raises(IllegalAction):  # ActionFieldError is an IllegalAction (and TypeError)
        game.apply(island.GiveCard(True))
    assert (len(game.history), {k: list(v) for k, v in game.hands.items()}) == before
    game.apply(give)


@pytest.mark.parametrize(("game_name", "action"), [
    ("kill", kill.PlayCard(True, "self", "Hall")),
    ("kill", kill.Snoop(3)),
    ("kill", kill.Foil((1.0,))),
    ("kill", kill.Attack(False)),
    ("save", save.Snoop(None)),
    ("save", save.PlayMove(2.0, "self", "Galley")),
    ("save", save.Foil([1, 2])),
    ("save", save.Rescue("Whisky")),
    ("island", island.Move(((0, 5),))),
    ("island", island.MoveCat(7)),
    ("island", island.Foil((True,))),
    ("panic", panic.Reveal(11)),
    ("panic", panic.GougaCall("egg", ("r1c1",))),
])
def test_every_action_field_type_is_checked(game_name, action):
    game = new_game(game_name, players=4, seed=3)
    n = len(game.history)
    with pytest.raises(ActionFieldError) as info:
        game.apply(action)
    assert type(action).__name__ in str(info.value) and "must be" in str(info.value)
    assert isinstance(info.value, TypeError) and isinstance(info.value, LuckyLabError)
    assert len(game.history) == n


def test_another_games_action_with_the_same_class_name_gets_a_clear_message():
    game = new_game("save", players=4, seed=3)
    with pytest.raises(IllegalAction, match=r"Snoop from luckylab.games.kill is a Kill Doctor "
                                            r"Lucky action, not a Save Doctor Lucky action"):
        game.apply(kill.Snoop(game.positions[game.current_player]))
    with pytest.raises(IllegalAction, match="not a Panic Island action"):
        new_game("panic", seed=1).apply("reveal r1c1")


# -- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "options", "match"), [
    ("island", {"youre_out": "no"}, "youre_out must be True or False"),
    ("island", {"players": True}, "2 to 8 players"),
    ("island", {"turn_cap": True}, "turn_cap"),
    ("island", {"turn_cap": 5.0}, "turn_cap"),
    ("island", {"cat_blocks": "sideways"}, "cat_blocks"),
    ("island", {"strangers": "yes"}, "strangers"),
    ("island", {"nonsense": 1}, "no option 'nonsense'"),
    ("kill", {"players": 2.0}, "players"),
    ("kill", {"board": 5}, "board"),
    ("save", {"hand_size": True}, "hand_size"),
    ("save", {"first_player": 1.0}, "first_player"),
    ("save", {"last_must_foil": 0}, "last_must_foil"),
    ("panic", {"players": True}, "1 to 8 players"),
    ("panic", {"tired_gouga": "no"}, "tired_gouga"),
    ("panic", {"time": {"budget": float("inf")}}, "finite"),
    ("panic", {"time": {"budget": float("nan")}}, "finite"),
    ("panic", {"time": {"reveal": 1e-300}}, "reveals"),
    ("panic", {"time": {"budget": 1e9}}, "reveals"),
    ("panic", {"time": [1, 2]}, "time"),
    ("panic", {"clock": ["budget"]}, "clock"),
    ("panic", {"rules_file": 3}, "rules_file"),
])
def test_options_are_validated_in_new_game(game, options, match):
    options = dict(options)
    players = options.pop("players", 4)
    with pytest.raises(OptionError, match=match) as info:
        new_game(game, players=players, seed=1, **options)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)


@pytest.mark.parametrize("seed", [float("nan"), 1.5, -5, True, b"x", "7", [1]])
@pytest.mark.parametrize("game", ["island", "kill", "save", "panic"])
def test_seeds_are_whole_numbers_at_least_0_or_None(game, seed):
    """-5 would give the same game as 5 in random.Random, nan would not reproduce, bytes would
    make record() unwritable: seeds are ints >= 0 (or None), nothing else."""
    with pytest.raises(OptionError, match="seed must be a whole number >= 0 or None"):
        new_game(game, players=4, seed=seed)
    cls = luckylab.game_class(game)
    with pytest.raises(OptionError):
        cls(players=4, seed=seed)


def test_a_good_seed_still_gives_the_same_game():
    a, b = new_game("island", seed=2**70), new_game("island", seed=2**70)
    assert a.record() == b.record() and new_game("island", seed=None).seed is None


# -- loaders ---------------------------------------------------------------------------------


def test_load_board_of_an_empty_name_says_what_is_allowed():
    with pytest.raises(UnknownGame, match="give a built-in board"):
        load_board("")
    with pytest.raises(OptionError, match="name or a file path"):
        load_board(None)


def test_load_deck_of_a_missing_json_file_says_no_file(tmp_path):
    with pytest.raises(UnknownGame, match="no deck file at"):
        load_deck("x.json")
    with pytest.raises(UnknownGame, match="built-in decks"):
        load_deck("nope")


def test_a_deck_file_in_json_loads(tmp_path):
    path = tmp_path / "deck.json"
    path.write_text(json.dumps({"cards": [{"name": "Move 1", "kind": "move", "steps": 1,
                                           "copies": 3}]}), encoding="utf-8")
    assert [c.steps for c in load_deck(path)] == [1, 1, 1]


def test_a_decks_board_path_is_resolved_against_the_deck_files_folder(tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "ring.toml").write_text(ring_toml(5), encoding="utf-8")
    (folder / "deck.toml").write_text('board = "ring.toml"\n[[cards]]\nname = "Go"\n'
                                      'kind = "move"\nsteps = 1\nroom = "S3"\n',
                                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # not the deck's folder
    assert load_deck(folder / "deck.toml")[0].room == "S3"
    (folder / "deck.toml").write_text('board = "ring.toml"\n[[cards]]\nname = "Go"\n'
                                      'kind = "move"\nsteps = 1\nroom = "S9"\n',
                                      encoding="utf-8")
    with pytest.raises(DeckError, match="'S9' is not a space of Ring 5"):
        load_deck(folder / "deck.toml")


def test_a_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "ring.toml"
    path.write_bytes(b"\xef\xbb\xbf" + ring_toml(4).encode("utf-8"))
    assert len(load_board(path)) == 4
    jpath = tmp_path / "deck.json"
    jpath.write_bytes(b"\xef\xbb\xbf" + json.dumps(
        {"cards": [{"name": "F", "kind": "failure", "luck": 1}]}).encode())
    assert len(load_deck(jpath)) == 1


def test_non_utf8_and_deeply_nested_files_are_clear_errors(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_bytes(b'name = "\xff\xfe"\n')
    with pytest.raises(BoardError, match="not UTF-8"):
        load_board(path)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(BoardError, match="nested|top level"):
        load_board(deep)
    deep2 = tmp_path / "deep2.json"
    deep2.write_text('{"a":' * 50 + "1" + "}" * 50, encoding="utf-8")
    with pytest.raises(BoardError, match="nested more than"):
        load_board(deep2)


@pytest.mark.parametrize("text", ['{"format": "graph", "x": NaN}', '{"x": Infinity}',
                                  '{"x": 1e999}'])
def test_non_finite_numbers_in_json_are_refused(tmp_path, text):
    path = tmp_path / "b.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError, match="finite"):
        read_data_file(path)


def test_non_finite_numbers_in_toml_are_refused(tmp_path):
    path = tmp_path / "b.toml"
    path.write_text(ring_toml(4).replace('kind = "room"\n', 'kind = "room"\npos = [nan, inf]\n',
                                         1), encoding="utf-8")
    with pytest.raises(BoardError, match=r"spaces\[0\].pos\[\d\]: must be a finite number"):
        load_board(path)


def test_only_regular_files_are_read_no_fifo_blocking_no_dev_zero(tmp_path):
    fifo = tmp_path / "board.toml"
    os.mkfifo(fifo)
    started = time.perf_counter()
    with pytest.raises(BoardError, match="not a regular file"):
        load_board(fifo)
    assert time.perf_counter() - started < 5
    if Path("/dev/zero").exists():
        with pytest.raises(BoardError, match="not a regular file"):
            load_board("/dev/zero")
    with pytest.raises(BoardError, match="not a regular file"):
        read_data_file(tmp_path)


def test_a_file_over_the_size_cap_is_refused(tmp_path):
    path = tmp_path / "big.toml"
    with open(path, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(BoardError, match="bytes"):
        load_board(path)


def test_a_huge_copies_count_is_refused_quickly(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('[[cards]]\nname = "F"\nkind = "failure"\nluck = 1\ncopies = 10000000\n',
                    encoding="utf-8")
    started = time.perf_counter()
    with pytest.raises(DeckError, match="at most 10000"):
        load_deck(path)
    assert time.perf_counter() - started < 2


def test_big_boards_load_in_bounded_time_and_memory(tmp_path):
    """A 400-space ring took 5 s and 1.1 GB (tables grew with the cube of the size)."""
    import tracemalloc

    path = tmp_path / "ring.toml"
    path.write_text(ring_toml(400), encoding="utf-8")
    tracemalloc.start()
    started = time.process_time()
    board = load_board(path)
    for s in board.spaces:
        board.reachable(s, 3)
        board.visible_from(s, cat=s)
    seconds = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert board.reachable("S1", 2) == {"S399", "S400", "S1", "S2", "S3"}
    assert board.distance("S1", "S201") == 200 and board.diameter == 200
    assert peak < 60e6 and seconds < 20


def test_reach_and_sight_answers_are_unchanged_on_the_built_in_boards():
    import networkx as nx

    for name in ("isla-fortuna", "kill-doctor-lucky", "save-doctor-lucky"):
        board = load_board(name)
        dist = dict(nx.all_pairs_shortest_path_length(board.graph))
        for s in board.spaces:
            for k in (0, 1, 2, 3, 50):
                assert board.reachable(s, k) == {t for t, d in dist[s].items() if d <= k}
        assert board.diameter == max(max(d.values()) for d in dist.values())


@pytest.mark.parametrize(("fmt", "text"), [
    ("graph", ring_toml(4, 'colour = "blue"')),
    ("grid", 'format = "grid"\nrows = 2\ncols = 2\ncolour = "blue"\n'),
    ("deck", 'colour = "blue"\n[[cards]]\nname = "F"\nkind = "failure"\nluck = 1\n'),
])
def test_unknown_top_level_keys_are_refused_in_every_format(tmp_path, fmt, text):
    path = tmp_path / "f.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises((BoardError, DeckError), match=r"unknown field\(s\) \['colour'\]"):
        load_deck(path) if fmt == "deck" else load_board(path)


def test_kinds_must_be_a_list_not_a_string(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text('kinds = "weaponhazardfailure"\n[[cards]]\nname = "F"\nkind = "failure"\n'
                    "luck = 1\n", encoding="utf-8")
    with pytest.raises(DeckError, match="kinds: must be a non-empty list"):
        load_deck(path)
    board = tmp_path / "b.toml"
    board.write_text(ring_toml(4).replace('kinds = ["room"]', 'kinds = "room"'),
                     encoding="utf-8")
    with pytest.raises(BoardError, match="kinds"):
        load_board(board)


def test_panic_rules_file_is_cached_by_content_not_path(tmp_path):
    text = (DATA / "panic_island.toml").read_text(encoding="utf-8")
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    a = new_game("panic", seed=1, rules_file=str(path))
    assert a.costs["budget"] == 120.0
    path.write_text(text.replace("budget = 120", "budget = 90"), encoding="utf-8")
    b = new_game("panic", seed=1, rules_file=str(path))
    assert b.costs["budget"] == 90.0
    assert a.rules_sha256 != b.rules_sha256


# -- every bad file field: a BoardError/DeckError naming the field ---------------------------

_BAD_VALUES = [None, True, 3, -1, 2.5, "x", [], [1, "a"], {"a": 1}, [[1]], {"k": [None]}]


def _field_paths(data, prefix=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*prefix, k)
            yield from _field_paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:2]):
            yield (*prefix, i)
            yield from _field_paths(v, (*prefix, i))


def _set(data, path, value):
    import copy

    data = copy.deepcopy(data)
    node = data
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return data


def _load_each_bad_field(filename, load, tmp_path):
    import tomllib

    data = tomllib.loads((DATA / filename).read_text(encoding="utf-8"))
    tried = clear = 0
    unclear = []
    for path in _field_paths(data):
        for bad in _BAD_VALUES:
            mutated = _set(data, path, bad)
            if mutated is None:
                continue
            target = tmp_path / (Path(filename).stem + ".json")
            target.write_text(json.dumps(mutated), encoding="utf-8")
            tried += 1
            try:
                load(target)
            except (BoardError, DeckError, UnknownGame) as exc:
                clear += 1
                assert str(exc)
            except LuckyLabError:
                clear += 1
            except Exception as exc:  # noqa: BLE001 - this is what the test looks for
                unclear.append((path, bad, repr(exc)))
    return tried, clear, unclear


@pytest.mark.parametrize(("filename", "loader"), [
    ("isla_fortuna.toml", load_board),
    ("save_ship.toml", load_board),
    ("island_deck.toml", load_deck),
    ("save_deck.toml", load_deck),
    ("panic_island.toml", lambda p: new_game("panic", seed=1, rules_file=str(p))),
])
def test_wrong_types_in_every_field_of_the_data_files_give_clear_errors(tmp_path, filename,
                                                                        loader):
    tried, clear, unclear = _load_each_bad_field(filename, loader, tmp_path)
    assert tried > 50
    assert unclear == []


def test_all_errors_raised_on_purpose_are_luckylab_errors():
    """No `raise ValueError(`/`TypeError(`/`KeyError(` left in the package's own code."""
    import re

    root = Path(luckylab.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"raise (ValueError|TypeError|KeyError|RuntimeError)\(f?[\"']", line):
                offenders.append(f"{path.relative_to(root)}:{n}")
    assert offenders == [], offenders


if sys.platform == "win32":  # pragma: no cover
    pytest.skip("FIFOs need POSIX", allow_module_level=True)


# -- replays that cannot lie -----------------------------------------------------------------


def played(game_name: str, seed: int, players: int = 4, limit: int = 300, **options):
    from luckylab.agents.base import RandomAgent

    game = new_game(game_name, players=players, seed=seed, **options)
    bot = RandomAgent(seed=seed)
    for _ in range(limit):
        if game.is_over:
            break
        game.apply(bot.choose(game))
    return game


def test_a_record_pins_version_board_deck_count_and_final_state():
    record = played("island", 1).record()
    assert record["luckylab"] == luckylab.__version__
    assert len(record["board_sha256"]) == 64 and len(record["deck_sha256"]) == 64
    assert record["action_count"] == len(record["actions"])
    assert "final_sha256" in record and "final_sha256" not in played("island", 1).record(
        digest=False)
    assert luckylab.replay(json.loads(json.dumps(record))).record() == record


def test_a_truncated_record_is_reported_not_replayed_as_an_unfinished_game():
    record = played("kill", 2).record()
    half = dict(record, actions=record["actions"][: len(record["actions"]) // 2])
    with pytest.raises(luckylab.ReplayError, match="truncated"):
        luckylab.replay(half)
    del half["action_count"]
    with pytest.raises(luckylab.ReplayError, match="final_sha256"):
        luckylab.replay(half)


@pytest.mark.parametrize("game_name", ["island", "kill", "save", "panic"])
def test_an_edited_action_never_replays_silently_into_another_game(game_name):
    """The audit saw 82 of 352 edited records replay a different game without a word."""
    import random

    rng = random.Random(5)
    silent = 0
    for seed in range(6):
        record = played(game_name, seed, limit=120).record()
        for _ in range(4):
            i = rng.randrange(len(record["actions"]))
            edited = json.loads(json.dumps(record))
            entry = edited["actions"][i]
            keys = [k for k in entry if k != "type"]
            if not keys:
                continue
            k = rng.choice(keys)
            entry[k] = rng.choice([0, 1, 2, "Hall", "r1c1", [], None, 3.0, True])
            if edited == record:
                continue
            try:
                luckylab.replay(edited)
                silent += 1
            except luckylab.ReplayError as exc:
                assert exc.index in (None, i)
    assert silent == 0


def test_every_refused_replay_entry_is_named_by_its_index():
    record = played("save", 4).record()
    record["actions"][3] = {"type": "snoop", "to": "Nowhere Room"}
    with pytest.raises(luckylab.ReplayError, match=r"^record action 3: ") as info:
        luckylab.replay(record)
    assert info.value.index == 3
    record["actions"][3] = {"type": "fly"}
    with pytest.raises(luckylab.ReplayError, match="record action 3: .*action types"):
        luckylab.replay(record)


@pytest.mark.parametrize("bad", [None, [], "x", {"game": "island"},
                                 {"game": "chess", "players": 4, "seed": 1, "actions": []},
                                 {"game": "island", "players": 4, "seed": -1, "actions": []},
                                 {"game": "island", "players": 4, "seed": 1, "actions": {}},
                                 {"game": "island", "players": 4, "seed": 1, "actions": [],
                                  "options": {"youre_out": "no"}},
                                 {"game": "island", "players": 4, "seed": 1, "actions": [],
                                  "action_count": "0"}])
def test_malformed_records_are_replay_errors(bad):
    with pytest.raises(luckylab.ReplayError):
        luckylab.replay(bad)


def test_another_version_board_or_deck_is_reported():
    record = played("island", 3, limit=30).record()
    with pytest.raises(luckylab.ReplayError, match="made with luckylab 0.0.1"):
        luckylab.replay(dict(record, luckylab="0.0.1"))
    assert luckylab.replay(dict(record, luckylab="0.0.1"), check_version=False)
    with pytest.raises(luckylab.ReplayError, match="another board"):
        luckylab.replay(dict(record, board_sha256="0" * 64))
    with pytest.raises(luckylab.ReplayError, match="another card list"):
        luckylab.replay(dict(record, deck_sha256="0" * 64))


def test_a_save_record_pins_the_whole_ship_even_after_decks_sank():
    game = played("save", 1, limit=2000)
    assert game.sunk
    assert luckylab.replay(game.record()).result() == game.result()


def test_an_edited_panic_rules_file_is_reported_on_replay(tmp_path):
    text = (DATA / "panic_island.toml").read_text(encoding="utf-8")
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    record = played("panic", 1, limit=20, rules_file=str(path)).record()
    assert luckylab.replay(record).record() == record
    path.write_text(text.replace('name = "Beehive"', 'name = "Wasps"').replace(
        '"Beehive"', '"Wasps"'), encoding="utf-8")
    with pytest.raises(luckylab.ReplayError):
        luckylab.replay(record)


# -- Doctor Who (issue 29) -------------------------------------------------------------------


def doctorwho_deciding(stage: str):
    """A seeded random Doctor Who game stopped at a conflict decision of ``stage``
    ("ironsides", "valiant" or "match")."""
    import random

    for seed in range(300):
        game = new_game("doctorwho", players=3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.phase == "decide" and game.observation(0)["conflict"]["stage"] == stage:
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no {stage} decision in 300 random games")


def _dw_state(game):
    return (game.state_digest(), game.record(digest=False),
            [game.observation(s).key() for s in range(game.players)])


@pytest.mark.parametrize(("stage", "action"), [
    ("turn", "Defend(float(loc), (card,))"),
    ("turn", "Defend(loc, (float(card),))"),
    ("turn", "PlaySupport(card, cards=True)"),
    ("turn", "PlaySupport(True)"),
    ("turn", "PlayLocation(card, take_from=[1])"),
    ("turn", "Attack(loc, [card])"),
    ("turn", "Buy(1.0)"),
    ("turn", "Discard((card, None))"),
    ("turn", "Pass(None)"),
    ("ironsides", "UseIronsides('yes')"),
    ("ironsides", "UseIronsides(1)"),
    ("valiant", "UseValiant(None)"),
    ("valiant", "UseValiant(0)"),
    ("match", "MatchDiscard(cards=True)"),
    ("match", "MatchDiscard(cards=[card])"),
])
def test_doctorwho_checks_every_action_field_type_before_anything_changes(stage, action):
    """The audit: a Defend with a float Location passed the legality check, then raised
    TypeError after the hand had changed; "yes" was read as True; cards=True raised TypeError."""
    from luckylab.games import doctorwho as dw

    game = new_game("doctorwho", players=3, seed=1) if stage == "turn" else (
        doctorwho_deciding(stage))
    seat = game.current_player
    loc, card = game.lines[seat][0], game.hands[seat][0]
    before = _dw_state(game)
    with pytest.raises(ActionFieldError) as info:
        game.apply(eval(action, vars(dw), {"loc": loc, "card": card}))
    assert "must be" in str(info.value) and isinstance(info.value, TypeError)
    assert _dw_state(game) == before


def test_doctorwho_a_defence_with_a_float_location_leaves_the_hand_as_it_was():
    from luckylab.games.doctorwho import Defend

    for seed in range(50):
        game = new_game("doctorwho", players=4, seed=seed)
        defends = [a for a in game.legal_actions() if isinstance(a, Defend)]
        if defends:
            break
    hand = list(game.hands[game.current_player])
    with pytest.raises(ActionFieldError):
        game.apply(Defend(float(defends[0].loc), defends[0].cards))
    assert game.hands[game.current_player] == hand
    game.apply(defends[0])


def test_doctorwho_unused_support_fields_must_be_left_empty():
    """Junk in a field the card does not use was accepted and stored in the record."""
    import dataclasses
    import random

    from luckylab.games.doctorwho import PlaySupport

    tried = 0
    for seed in range(40):
        game = new_game("doctorwho", players=3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and tried < 60:
            for a in [a for a in game.legal_actions() if isinstance(a, PlaySupport)]:
                for name, junk in (("loc", game.lines[0][0]), ("to", game.lines[1][0]),
                                   ("index", 0), ("cards", (a.card,))):
                    if getattr(a, name) in (None, ()):
                        before = _dw_state(game)
                        with pytest.raises(IllegalAction):
                            game.apply(dataclasses.replace(a, **{name: junk}))
                        assert _dw_state(game) == before
                        tried += 1
            game.apply(rng.choice(game.legal_actions()))
    assert tried >= 60


@pytest.mark.parametrize("starting", [[1.0, 2.0, 3.0], 5, "123", [1, 2, True], [1, 2], [1, 1, 2],
                                      [1, 2, 9]])
def test_doctorwho_starting_must_be_distinct_whole_numbers(starting):
    with pytest.raises(OptionError, match="starting") as info:
        new_game("doctorwho", players=3, seed=1, starting=starting)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    assert new_game("doctorwho", players=3, seed=1, starting=[1, 2, 3]).options["starting"] == [
        1, 2, 3]


def _every_path(data, prefix=()):
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(
        data, list) else ()
    for k, v in items:
        yield (*prefix, k)
        yield from _every_path(v, (*prefix, k))


def _mutated_decks(seed: int, count: int):
    """``count`` seeded mutations of the bundled Doctor Who deck file (1-3 fields each made a
    float, a string, a list, a table, None, a bool, a huge number, or removed)."""
    import copy
    import random

    import tomllib

    base = tomllib.loads((DATA / "doctor_who_deck.toml").read_text(encoding="utf-8"))
    junk = [1.5, -1, 0, 10**9, "x", "3", "", None, True, False, [], [1, 2], ["a"], {},
            {"a": 1}, [[1]]]
    rng = random.Random(seed)
    for _ in range(count):
        data = copy.deepcopy(base)
        paths = list(_every_path(data))
        for _ in range(rng.choice([1, 1, 2, 3])):
            path = rng.choice(paths)
            try:
                parent = data
                for k in path[:-1]:
                    parent = parent[k]
                op = rng.random()
                if op < 0.1 and isinstance(parent, dict):
                    del parent[path[-1]]
                elif op < 0.2:
                    parent[path[-1]] = [parent[path[-1]]]
                else:
                    parent[path[-1]] = rng.choice(junk)
            except (KeyError, IndexError, TypeError):  # an earlier mutation moved it
                pass
        yield data


def test_500_mutated_doctor_who_deck_files_give_only_deck_errors(tmp_path):
    """The audit: 41 of 500 mutated deck files crashed the loader with TypeError or
    AttributeError (counts a float, a string in a count range, a list as a kind), and
    copies = 10**9 made a billion cards before checking the size."""
    outcomes = {"loaded": 0, "DeckError": 0}
    unclear = []
    for i, data in enumerate(_mutated_decks(29, 500)):
        path = tmp_path / f"deck{i}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        try:
            load_deck(path)
            outcomes["loaded"] += 1
        except DeckError:
            outcomes["DeckError"] += 1
        except Exception as exc:  # noqa: BLE001 - the test counts what is not a DeckError
            unclear.append((i, repr(exc)))
    assert unclear == [], unclear[:5]
    assert outcomes["DeckError"] > 400
