"""The engines' fused turns play the same games as the reference rules with the default bots
and the variants of them that the fused turns play (Kill's patient, The Island's aggressive,
Doctor Who's careful and bluffer).

``play_out`` runs a game's fused turn module (``luckylab.games.kill.fast`` ...) when every seat
is such a bot; wrapping the same bots' ``choose`` in a lambda hides them, and the engine plays
through its readable rules instead. Both games must end in the same state: every attribute of
the game (history, hands, deck, positions, result ...), the game's generator and the bots'
generators. The search bot (``luckylab.agents.ismcts``) plays out dealt worlds
(``determinize``) from the middle of a game and turn, with one bot for every seat: those too.
"""

from __future__ import annotations

import importlib
import random
import re

import pytest

from luckylab.agents import agent_class
from luckylab.agents.doctorwho import Bluffer, Careful, Greedy, help_value
from luckylab.agents.island import AggressiveAgent, CautiousAgent
from luckylab.agents.kill import Opportunist, Patient
from luckylab.games.fused import all_fused, fused_profiles, is_fused
from luckylab.games.kill.fast import PLAYS
from luckylab.games.registry import new_game

FUSED = {"kill": range(2, 9), "island": range(2, 9), "save": range(3, 8),
         "doctorwho": range(3, 5)}
VARIANTS = {"kill": "patient", "island": "aggressive"}
"""Each game's bot, other than the default, whose turns the engine plays: alone or mixed."""
TABLES = [(g, p, t) for g in VARIANTS for p in FUSED[g] for t in ("variant", "mixed")]
KIN = {"doctorwho": (None, "careful", "bluffer")}
"""A game's bots whose turns the engine plays, several of them: a table of each alone, and the
``kin`` table of all of them in turn round the table."""
KIN_TABLES = [(g, p, t) for g in KIN for p in FUSED[g] for t in (*KIN[g][1:], "kin")]
FAST_GAMES, SLOW_GAMES = 40, 1000


def _names(game: str, seats: int, table: str, seed: int) -> list[str | None]:
    """Every seat's bot: the default (None), the game's variant, the two alternating, the
    game's ``kin`` in turn (which seats get which changes with the seed), or the bot named."""
    if table == "default":
        return [None] * seats
    if table == "variant":
        return [VARIANTS[game]] * seats
    if table == "mixed":
        return [VARIANTS[game] if (s + seed) % 2 else None for s in range(seats)]
    if table == "kin":
        return [KIN[game][(s + seed) % len(KIN[game])] for s in range(seats)]
    return [table] * seats


def _played(game: str, players: int, seed: int, fused: bool, table: str = "default",
            **options):
    state = new_game(game, players=players, seed=seed, **options)
    rng = random.Random(seed ^ 0x5EED)
    bots = [agent_class(game, name)(seed=rng.getrandbits(32))
            for name in _names(game, state.num_seats, table, seed)]
    _play_out(state, [b.choose for b in bots], game, fused)
    return state, bots


def _play_out(state, choosers: list, game: str, fused: bool) -> None:
    """``state.play_out(choosers)``, quietly; ``fused=False`` wraps the choosers so that the
    engine cannot recognise its bots and plays through the reference."""
    if not fused:
        choosers = [(lambda g, c=c: c(g)) for c in choosers]
    assert _fused(choosers, game) is fused
    state.quieten()
    state.play_out(choosers)
    state.quieten(False)


def _fast_module(game: str):
    """``game``'s fused turn module: ``luckylab.games.<game>.fast`` (issue 41's layout), or
    ``luckylab.games.<game>_fast`` for a game not moved into its package yet."""
    try:
        return importlib.import_module(f"luckylab.games.{game}.fast")
    except ModuleNotFoundError:
        return importlib.import_module(f"luckylab.games.{game}_fast")


def _fused(choosers, game: str) -> bool:
    """Whether ``game``'s engine plays these seats with its fused turns."""
    plays = importlib.import_module(f"luckylab.games.{game}.fast").PLAYS
    return all_fused(choosers, game) and fused_profiles(choosers, plays) is not None


def _snapshot(state, bots) -> tuple:
    """Everything about a finished game, in a comparable form."""
    plain = {k: v.getstate() if isinstance(v, random.Random) else v
             for k, v in vars(state).items()}
    return (repr(sorted(plain.items())), [b.rng.getstate() for b in bots], state.result(),
            state.state_digest())


def _compact(state, bots) -> tuple:
    """What defines a game, cheaply: its actions, result, final digest and generators."""
    rngs = [v.getstate() for v in vars(state).values() if isinstance(v, random.Random)]
    return (state.history, state.result(), state.state_digest(), rngs,
            [b.rng.getstate() for b in bots])


def _compare(game: str, players: int, seeds: range, snapshot=_snapshot, table="default",
             **options) -> None:
    for seed in seeds:
        fused = snapshot(*_played(game, players, seed, True, table, **options))
        reference = snapshot(*_played(game, players, seed, False, table, **options))
        assert fused == reference, (f"{game} {players}p {table} seed {seed}: the fused turns "
                                    "differ")


@pytest.mark.parametrize("game, players", [(g, p) for g, ps in FUSED.items() for p in ps])
def test_fused_turns_play_the_reference_games(game, players):
    _compare(game, players, range(FAST_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("game, players", [(g, p) for g, ps in FUSED.items() for p in ps])
def test_fused_turns_play_the_reference_games_on_a_thousand_seeds(game, players):
    _compare(game, players, range(FAST_GAMES, FAST_GAMES + SLOW_GAMES), snapshot=_compact)


@pytest.mark.parametrize("game, players, options", [
    ("kill", 4, {"turn_cap": 25}),
    ("island", 3, {"strangers": False, "cat_blocks": "outward"}),
    ("island", 4, {"youre_out": True, "turn_cap": 40}),
    ("save", 4, {"loser_award": False, "last_must_foil": False}),
    ("save", 5, {"deck_steps": "pile", "turn_cap": 60}),
    ("doctorwho", 2, {"two_player": True}),
    ("doctorwho", 4, {"starting": [2, 4, 1, 3], "turn_cap": 50}),
])
def test_fused_turns_follow_the_options(game, players, options):
    _compare(game, players, range(FAST_GAMES), **options)


@pytest.mark.parametrize("game, players, table", TABLES + KIN_TABLES)
def test_fused_variants_play_the_reference_games(game, players, table):
    _compare(game, players, range(FAST_GAMES), table=table)


@pytest.mark.slow
@pytest.mark.parametrize("game, players, table", TABLES + KIN_TABLES)
def test_fused_variants_play_the_reference_games_on_a_thousand_seeds(game, players, table):
    _compare(game, players, range(FAST_GAMES, FAST_GAMES + SLOW_GAMES), snapshot=_compact,
             table=table)


@pytest.mark.parametrize("game, players, options", [
    ("kill", 4, {"turn_cap": 25}),
    ("island", 4, {"youre_out": True, "turn_cap": 40}),
    ("island", 5, {"cat_blocks": "outward"}),
])
def test_fused_variants_follow_the_options(game, players, options):
    _compare(game, players, range(FAST_GAMES), table="variant", **options)
    _compare(game, players, range(FAST_GAMES), table="mixed", **options)


@pytest.mark.parametrize("game, players, options", [
    ("doctorwho", 2, {"two_player": True}),  # (Careful passes its 3 weakest: 2 go, D-VAR-1)
    ("doctorwho", 4, {"starting": [2, 4, 1, 3], "turn_cap": 50}),
])
def test_fused_kin_follow_the_options(game, players, options):
    for table in (*KIN[game][1:], "kin"):
        _compare(game, players, range(FAST_GAMES), table=table, **options)


def _worlds(game: str, players: int, seed: int, bot: str | None, fused: bool):
    """A game played some way in (by the reference: at any phase, in the middle of a turn),
    dealt anew for the player to move as the search bot does, and played out by one bot in
    every seat (as its rollouts are). Returns the world, the bot and the phase it began in."""
    state = new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    bots = [agent_class(game, bot)(seed=rng.getrandbits(32)) for _ in range(state.num_seats)]
    for _ in range(rng.randrange(120)):
        if state.is_over:
            break
        state.apply(bots[state.current_player].choose(state))
    seat = state.current_player if not state.is_over else 0
    world = state.determinize(seat, random.Random(seed + 1))
    phase = world.phase
    roller = agent_class(game, bot)(seed=seed + 2)
    _play_out(world, [roller.choose] * world.num_seats, game, fused)
    return world, [roller], phase


WORLDS = [("kill", 2), ("kill", 4), ("kill", 6), ("island", 3), ("island", 4), ("island", 6),
          ("save", 4)]  # Doctor Who's: test_doctorwho_fused_turns_from_a_midgame_...


@pytest.mark.parametrize("game, players, bot", [(g, p, b) for g, p in WORLDS
                                                for b in ("default", "variant")
                                                if b == "default" or g in VARIANTS])
def test_fused_turns_play_out_dealt_worlds_from_the_middle_of_a_game(game, players, bot):
    name = VARIANTS[game] if bot == "variant" else None
    phases = set()
    for seed in range(FAST_GAMES):
        fused, bots, phase = _worlds(game, players, seed, name, True)
        reference, ref_bots, _ = _worlds(game, players, seed, name, False)
        assert _snapshot(fused, bots) == _snapshot(reference, ref_bots), (
            f"{game} {players}p {bot} seed {seed}: the fused play-out differs")
        phases.add(phase)
    assert len(phases) > 1  # not only from the start of a turn


def test_profiles_are_the_bots_own():
    assert fused_profiles([Patient(seed=1).choose, Opportunist(seed=2).choose], PLAYS) == [
        {"min_value": 3, "foil": "last"}, {"min_value": 1, "foil": "cheapest"}]
    assert is_fused(AggressiveAgent(seed=1).choose, "island")
    assert is_fused(CautiousAgent(seed=1).choose, "island")

    class Stingier(Patient):  # plays otherwise, and says so: not fused
        min_value = 4

    assert not is_fused(Stingier(seed=1).choose, "kill")
    from luckylab.games.doctorwho.fast import PLAYS as WHO

    assert fused_profiles([Greedy(seed=1).choose, Careful(seed=2).choose,
                           Bluffer(seed=3).choose], WHO) == [
        {"dispose": "careless", "bluff": False}, {"dispose": "careful", "bluff": False},
        {"dispose": "careful", "bluff": True}]

    class Shy(Bluffer):  # plays otherwise: not fused
        bluff = False

    assert not is_fused(Shy(seed=1).choose, "doctorwho")

    class Odd(Patient):  # claims a fused turn with a play the engine does not know
        fused_turn = "kill"
        fused_profile = {"min_value": 3, "foil": "never"}

    assert is_fused(Odd(seed=1).choose, "kill")
    assert fused_profiles([Odd(seed=1).choose], PLAYS) is None
    state = new_game("kill", players=2, seed=3)
    state.quieten()
    state.play_out([Odd(seed=1).choose] * 2)  # played through the readable rules
    assert state.is_over


def test_only_the_bots_themselves_are_fused():
    assert is_fused(Opportunist(seed=1).choose, "kill")
    assert not is_fused(Opportunist(seed=1).choose, "island")
    assert is_fused(Patient(seed=1).choose, "kill")  # a variant the fused turns play
    tuned = Opportunist(seed=1)
    tuned.min_value = 3  # an option of its own: the engine cannot know what it does
    assert not is_fused(tuned.choose, "kill")

    class Mine(Opportunist):
        pass

    assert not is_fused(Mine(seed=1).choose, "kill")


def test_a_game_that_is_not_quiet_keeps_its_events():
    state = new_game("kill", players=3, seed=4)
    state.play_out([Opportunist(seed=s).choose for s in range(3)])
    assert state.is_over and any(e.kind == "turn" for e in state.events[5:])


def test_island_cover_is_the_bots_cover():
    from luckylab.agents.island import cheapest_cover as bots_cover
    from luckylab.games.island.fast import cheapest_cover

    game = new_game("island", players=4, seed=1)
    rng = random.Random(7)
    memo: dict = {}
    lucky = [c.id for c in game.cards if c.luck]  # many cards of equal Luck: ties to break
    for i in range(3000):
        pool = lucky if i % 2 else range(len(game.cards))
        hand = rng.sample(pool, rng.randint(0, 24 if i % 3 else 10))
        needed = rng.randint(1, 9)
        game.hands[0] = hand
        want = bots_cover(game, 0, needed)
        assert cheapest_cover(game.cards, hand, needed) == want
        assert cheapest_cover(game.cards, hand, needed, memo) == want



def _island_from(game, fused: bool) -> tuple:
    """Play ``game`` (an Island game set up by hand) out with cautious bots; a snapshot."""
    bots = [CautiousAgent(seed=s) for s in range(game.num_seats)]
    _play_out(game, [b.choose for b in bots], "island", fused)
    return _snapshot(game, bots)


def test_island_fused_turns_read_the_positions_by_seat():
    """(``position`` maps seats to spaces: the fused turns read it by seat, whatever the order
    of its keys.)"""
    for seed in range(5):
        games = []
        for fused in (True, False):
            game = new_game("island", players=4, seed=seed)
            spaces = game.board.spaces
            game.position = {s: spaces[(5 * s + seed) % len(spaces)] for s in (3, 2, 1, 0)}
            games.append(_island_from(game, fused))
        assert games[0] == games[1], f"seed {seed}"


def test_island_fused_turns_I_DOC_4_first_round_doctor_walks_in_on_a_player():
    """Worked example 4 in the fused turns: in the first round Doctor Lucky walks in on a
    player, and the turn still passes left (the same game as the reference's)."""
    for seed in range(10):
        game = new_game("island", players=4, seed=seed)
        first = game.active
        other = game._left[game._left[first]]  # a jump would give it the turn
        game.position[other] = game.board.next_on_path(game.doctor)
        probe, bot = game.clone(), CautiousAgent(seed=0)
        while probe.active == first and not probe.is_over:
            probe.apply(bot.choose(probe))
        assert probe.doctor == probe.position[other] and probe.active == game._left[first]
        assert _island_from(game.clone(), True) == _island_from(game, False), f"seed {seed}"


def test_island_fused_turns_I_HAZ_3_put_a_player_out():
    """You're Out in the fused turns: aggressive tables where a Hazard hits a player with no
    cards, who leaves the game; the games go on as the reference's."""
    seeds = [seed for seed in range(60) if _played("island", 6, seed, False, "variant",
                                                   youre_out=True)[0].eliminated]
    assert seeds  # (15 and 57)
    _compare("island", 6, seeds, table="variant", youre_out=True)


def _island_out_of_sight() -> object:
    """Seat 0 (to play) on Skull Rock holds a forest Hazard; seat 1, with no cards, stands
    alone on Bamboo Thicket next to it and is the only pawn that sees it; You're Out."""
    game = new_game("island", players=4, seed=1, youre_out=True)
    cards = game.cards
    rest = [c for c in game.deck + [c for h in game.hands.values() for c in h]
            if cards[c].kind != "hazard"]
    game.hands = {0: [31, rest.pop(), rest.pop()], 1: [], 2: [rest.pop(), rest.pop()],
                  3: [rest.pop(), rest.pop()]}
    game.deck = rest
    game.discards = [c.id for c in cards if c.kind == "hazard" and c.id != 31]
    game.position.update({0: "Skull Rock", 1: "Bamboo Thicket"})
    game._held = sum(game._luck[c] for h in game.hands.values() for c in h)
    return game


def test_island_fused_turns_I_HAZ_3_the_player_out_sees_no_more():
    """After a Hazard puts seat 1 out (I-HAZ-3), the thrower is unseen and draws in Phase 2,
    in the fused turns as in the reference (which see the table anew after a player leaves)."""
    from luckylab.games.island import Draw, PlayHazard

    games = []
    for fused in (True, False):
        game = _island_out_of_sight()
        assert game.active == 0 and game.cards[31].space_kind == "forest"
        bots = [AggressiveAgent(seed=s) for s in range(4)]
        _play_out(game, [b.choose for b in bots], "island", fused)
        assert game.history[:2] == [PlayHazard(31, 1), Draw()] and 1 in game.eliminated
        games.append(_snapshot(game, bots))
    assert games[0] == games[1]

def _doctorwho_from(state, seed: int, fused: bool, shared: bool, bot: type = Greedy) -> tuple:
    """Play a copy of ``state`` out with ``bot``s (``shared``: one bot for every seat, as the
    ISMCTS rollouts do); a snapshot of the end."""
    game = state.clone()
    bots = [bot(seed=seed * 10 + s) for s in range(1 if shared else game.players)]
    choosers = [bots[0].choose] * game.players if shared else [b.choose for b in bots]
    _play_out(game, choosers, "doctorwho", fused)
    return _snapshot(game, bots)


def _doctorwho_midgame(players: int, seed: int) -> object:
    """A Doctor Who game some way in (at any phase: a turn, a conflict's decision, the End
    Game), played by a mix of bots through the checked path."""
    state = new_game("doctorwho", players=players, seed=seed)
    rng = random.Random(seed)
    bots = [(Careful if s % 2 else Greedy)(seed=seed + s) for s in range(players)]
    for _ in range(rng.randrange(1, 260)):
        if state.is_over:
            break
        state.apply(bots[state.current_player].choose(state))
    return state


@pytest.mark.parametrize("players, bot", [(p, b) for p in (3, 4)
                                         for b in (Greedy, Careful, Bluffer)])
def test_doctorwho_fused_turns_from_a_midgame_and_a_determinized_state(players, bot):
    """Doctor Who's dealt worlds (as the search bot plays them out: with the bluffer bot), and
    the games themselves, from up to 260 actions in (a Doctor Who turn is under way in any
    "turn" phase; the End Game and a conflict's decision come later than in the other games)."""
    phases = set()
    for seed in range(FAST_GAMES):
        state = _doctorwho_midgame(players, seed)
        phases.add(state.phase)
        world = state.determinize(seed % players, random.Random(seed))
        for start in (state, world):
            for shared in (False, True):
                assert (_doctorwho_from(start, seed, True, shared, bot)
                        == _doctorwho_from(start, seed, False, shared, bot)), f"seed {seed}"
    assert {"turn", "endgame", "over"} <= phases  # (and at times a conflict's decision)


@pytest.mark.slow
@pytest.mark.parametrize("players, bot", [(p, b) for p in (3, 4)
                                         for b in (Greedy, Careful, Bluffer)])
def test_doctorwho_fused_turns_from_midgames_on_many_seeds(players, bot):
    decide = 0
    for seed in range(FAST_GAMES, FAST_GAMES + 400):
        state = _doctorwho_midgame(players, seed)
        decide += state.phase == "decide"
        world = state.determinize(seed % players, random.Random(seed))
        for start in (state, world):
            assert (_doctorwho_from(start, seed, True, True, bot)
                    == _doctorwho_from(start, seed, False, True, bot)), f"seed {seed}"
    assert decide > 0  # a conflict's decision was a starting point too


def _doctorwho_played(game, bot, fused: bool) -> tuple:
    choosers = [bot.choose] * game.players
    if not fused:
        choosers = [(lambda g, c=c: c(g)) for c in choosers]
    game.quieten()
    try:
        game.play_out(choosers)
    except IndexError as error:  # the bot's own last resort: a choice among no actions
        return _snapshot(game, [bot]), str(error)
    return _snapshot(game, [bot]), None


@pytest.mark.parametrize("bot", [Greedy, Careful, Bluffer])
def test_doctorwho_fused_turns_leave_the_last_resort_to_the_bot(bot):
    outcomes = []
    for fused in (True, False):
        game = new_game("doctorwho", players=3, seed=1)
        hand = game.hands[game.turn_player]
        game.discard.extend(hand[2:])
        del hand[2:]  # below the hand floor, which the rules never allow: nothing is legal
        outcomes.append(_doctorwho_played(game, bot(seed=5), fused))  # but a reserve
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][1] is not None and outcomes[0][0][0].count("Reserve(") >= 1


def test_doctorwho_fused_turns_on_cards_where_a_location_is_not_always_best(monkeypatch):
    from luckylab.games.doctorwho import fast as doctorwho_fast

    game = new_game("doctorwho", players=3, seed=2)
    monkeypatch.setattr(doctorwho_fast.fast_tables(game.cards),
                        "locations_first", False)  # then the bot weighs everything itself
    want = _doctorwho_played(new_game("doctorwho", players=3, seed=2), Greedy(seed=3), False)
    assert _doctorwho_played(game, Greedy(seed=3), True) == want


def test_doctorwho_fused_help_is_the_bots_help():
    from luckylab.games.doctorwho import fast as doctorwho_fast

    game = new_game("doctorwho", players=3, seed=1)
    table = doctorwho_fast.fast_tables(game.cards).help
    assert table == [help_value(c) for c in game.cards]
    assert len(set(table)) > 3


def test_doctorwho_fused_attack_sets_are_the_rules_sets():
    """The fused turns find the first Enemy set of a strength without listing every set
    (``attack_groups``): the same set, on random hands of Enemies, duplicates and all."""
    from luckylab.games.doctorwho import fast as doctorwho_fast
    from luckylab.games.doctorwho.tables import attack_groups

    game = new_game("doctorwho", players=4, seed=1)
    t = doctorwho_fast.fast_tables(game.cards)
    assert t.designs_alike
    enemies = [c.id for c in game.cards if c.kind == "enemy"]
    rng = random.Random(3)
    found = 0
    for _ in range(3000):
        hand = tuple(sorted(rng.sample(enemies, rng.randint(1, 8))))
        most, need = rng.randint(1, len(hand)), rng.randint(1, 14)
        want = next((combo for combo, _ in attack_groups(list(hand), most, game.cards)
                     if sum(game.cards[c].strength for c in combo) >= need), None)
        assert doctorwho_fast._first_set(t, hand, most, need) == want, (hand, most, need)
        found += want is not None and len(want) > 1
    assert found > 100  # sets of several cards, not only single ones


def test_doctorwho_fused_turns_where_equal_designs_attack_otherwise(monkeypatch):
    """(A card list whose equal designs differ in type: the sets as the rules list them.)"""
    from luckylab.games.doctorwho import fast as doctorwho_fast

    for seed in range(10):
        game = new_game("doctorwho", players=4, seed=seed)
        t = doctorwho_fast.fast_tables(game.cards)
        monkeypatch.setattr(t, "designs_alike", False)
        monkeypatch.setattr(t, "attacks", {})
        want = _doctorwho_played(new_game("doctorwho", players=4, seed=seed), Bluffer(seed=3),
                                 False)
        assert _doctorwho_played(game, Bluffer(seed=3), True) == want


def test_doctorwho_fused_attack_sets_where_equal_designs_combine_otherwise():
    """A card list in which two equal Daleks differ in type (one a Cybermen): the rules list
    one set per multiset of designs, so (Dalek, Cybermen) with the Cybermen-typed Dalek is
    never listed. The fused turns see it and take the rules' sets, not their shortcut's."""
    import dataclasses

    from luckylab.games.doctorwho import fast as doctorwho_fast
    from luckylab.games.doctorwho.tables import attack_groups

    cards = new_game("doctorwho", players=4, seed=0).cards
    first, twin = [c for c in cards if c.kind == "enemy" and c.name == "Dalek"][:2]
    cyber = next(c for c in cards if c.kind == "enemy" and c.name == "Cybermen")
    odd = tuple(dataclasses.replace(c, type=cyber.type) if c is twin else c for c in cards)
    t = doctorwho_fast.fast_tables(odd)
    assert not t.designs_alike
    hand = tuple(sorted((first.id, twin.id, cyber.id)))
    need = twin.strength + cyber.strength
    want = next((combo for combo, _ in attack_groups(list(hand), 2, odd)
                 if sum(odd[c].strength for c in combo) >= need), None)
    assert doctorwho_fast._first_set(t, hand, 2, need) != want  # the shortcut would differ
    assert doctorwho_fast._attack(t, (hand, 2), need) == want


@pytest.mark.parametrize("held, needed, words", [
    ([999], 3, "card ids are whole numbers from 0 to 71; got 999"),
    ([-1], 3, "got -1"),
    (["a"], 3, "got 'a'"),
    ([0], 2.5, "Luck to reach is a whole number; got 2.5"),
    ([0], True, "got True"),
])
def test_island_cover_refuses_what_is_not_a_hand_or_a_number(held, needed, words):
    """The public cover names what was wrong (never an IndexError or TypeError from inside)."""
    from luckylab.cards import load_deck
    from luckylab.errors import OptionError
    from luckylab.games.island.fast import cheapest_cover

    with pytest.raises(OptionError, match=re.escape(words)):
        cheapest_cover(load_deck("island"), held, needed)
