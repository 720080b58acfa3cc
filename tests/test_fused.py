"""The engines' fused turns play the same games as the reference rules with the default bots
and the variants of them that the fused turns play (Kill's patient, The Island's aggressive).

``play_out`` runs a game's fused turn module (``luckylab.games.kill_fast`` ...) when every seat
is such a bot; wrapping the same bots' ``choose`` in a lambda hides them, and the engine plays
through its readable rules instead. Both games must end in the same state: every attribute of
the game (history, hands, deck, positions, result ...), the game's generator and the bots'
generators. The search bot (``luckylab.agents.ismcts``) plays out dealt worlds
(``determinize``) from the middle of a game and turn, with one bot for every seat: those too.
"""

from __future__ import annotations

import importlib
import random

import pytest

from luckylab.agents import agent_class
from luckylab.agents.island import AggressiveAgent, CautiousAgent
from luckylab.agents.kill import Opportunist, Patient
from luckylab.games.fused import all_fused, fused_profiles, is_fused
from luckylab.games.kill_fast import PLAYS
from luckylab.games.registry import new_game

FUSED = {"kill": range(2, 9), "island": range(2, 9), "save": range(3, 8)}
VARIANTS = {"kill": "patient", "island": "aggressive"}
"""Each game's bot, other than the default, whose turns the engine plays: alone or mixed."""
TABLES = [(g, p, t) for g in VARIANTS for p in FUSED[g] for t in ("variant", "mixed")]
FAST_GAMES, SLOW_GAMES = 40, 1000


def _names(game: str, seats: int, table: str, seed: int) -> list[str | None]:
    """Every seat's bot: the default (None), the game's variant, or the two alternating
    (which seats get which changes with the seed)."""
    if table == "default":
        return [None] * seats
    if table == "variant":
        return [VARIANTS[game]] * seats
    return [VARIANTS[game] if (s + seed) % 2 else None for s in range(seats)]


def _played(game: str, players: int, seed: int, fused: bool, table: str = "default",
            **options):
    state = new_game(game, players=players, seed=seed, **options)
    rng = random.Random(seed ^ 0x5EED)
    bots = [agent_class(game, name)(seed=rng.getrandbits(32))
            for name in _names(game, state.num_seats, table, seed)]
    choosers = [b.choose for b in bots]
    if not fused:
        choosers = [(lambda g, c=c: c(g)) for c in choosers]
    assert _fused(choosers, game) is fused
    state.quieten()
    state.play_out(choosers)
    state.quieten(False)
    return state, bots


def _fused(choosers, game: str) -> bool:
    """Whether ``game``'s engine plays these seats with its fused turns."""
    plays = importlib.import_module(f"luckylab.games.{game}_fast").PLAYS
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
])
def test_fused_turns_follow_the_options(game, players, options):
    _compare(game, players, range(FAST_GAMES), **options)


@pytest.mark.parametrize("game, players, table", TABLES)
def test_fused_variants_play_the_reference_games(game, players, table):
    _compare(game, players, range(FAST_GAMES), table=table)


@pytest.mark.slow
@pytest.mark.parametrize("game, players, table", TABLES)
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
    choosers = [roller.choose] * world.num_seats
    if not fused:
        choosers = [(lambda g, c=c: c(g)) for c in choosers]
    assert _fused(choosers, game) is fused
    world.quieten()
    world.play_out(choosers)
    world.quieten(False)
    return world, [roller], phase


WORLDS = [("kill", 2), ("kill", 4), ("kill", 6), ("island", 3), ("island", 4), ("island", 6),
          ("save", 4)]


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
    from luckylab.games.island_fast import cheapest_cover

    game = new_game("island", players=4, seed=1)
    rng = random.Random(7)
    memo: dict = {}
    for _ in range(3000):
        hand = rng.sample(range(len(game.cards)), rng.randint(0, 10))
        needed = rng.randint(1, 9)
        game.hands[0] = hand
        want = bots_cover(game, 0, needed)
        assert cheapest_cover(game.cards, hand, needed) == want
        assert cheapest_cover(game.cards, hand, needed, memo) == want
