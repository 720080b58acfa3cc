"""Doctor Who's fast path plays the same games as the reference path.

The fast path is what ``luckylab.simulation.play_game`` takes with the bundled bots: the engine
quiet (no event sentences), its trusted loop ``play_out`` (no re-checks), and ``Greedy`` weighing
only the kinds of action that can score (``legal_actions(*only)``). The reference path applies
every action through the validating ``apply`` with every sentence written, and its bot weighs
every action of the full ``legal_actions()`` list the way ``Greedy`` did before it had a cheaper
list. Both must give the same actions and the same result, game after game.
"""

from __future__ import annotations

import random

import pytest

from luckylab import new_game
from luckylab.agents.doctorwho import Greedy
from luckylab.games.doctorwho import Buy, Discard, MatchDiscard, Pass, UseIronsides, UseValiant
from luckylab.simulation import play_game


class FullListGreedy(Greedy):
    """Greedy as it was: scores every action of the full list and disposes from it."""

    def choose(self, game):
        obs = game.observation(game.current_player)
        actions = game.legal_actions()
        cards = game.cards
        first = actions[0]
        if isinstance(first, UseIronsides):
            conflict = obs["conflict"]
            return UseIronsides(conflict["defence"] < conflict["attack"])
        if isinstance(first, UseValiant):
            return UseValiant(True)
        if isinstance(first, MatchDiscard):
            return max(actions, key=lambda a: (-len(a.cards), a.cards))
        locs = {loc["card"]: loc for loc in obs["locations"]}
        best, best_score = None, 0.0
        for a in actions:
            s = self.score(a, obs, locs, cards)
            if s > best_score:
                best, best_score = a, s
        if best is not None:
            return best
        passes = [a for a in actions if isinstance(a, Pass)]
        if passes:
            return self.rng.choice(passes)
        discards = [a for a in actions if isinstance(a, Discard) and len(a.cards) == 1]
        buys = [a for a in actions if isinstance(a, Buy)]
        if not discards and buys:
            return buys[0]
        return self.rng.choice(discards or actions)


def _bots(cls, players, seed):
    rng = random.Random(seed ^ 0x5EED)  # as play_game seeds its bots
    return [cls(seed=rng.getrandbits(32)) for _ in range(players)]


def reference(players, seed):
    game = new_game("doctorwho", players=players, seed=seed)
    bots = _bots(FullListGreedy, players, seed)
    while not game.is_over:
        events = game.apply(bots[game.current_player].choose(game))
        assert all(isinstance(e.text, str) and e.text for e in events)
    return game


def fast(players, seed):
    game = new_game("doctorwho", players=players, seed=seed)
    game.quieten()
    game.play_out([b.choose for b in _bots(Greedy, players, seed)])
    game.quieten(False)
    return game


def _same_games(seeds):
    for players in (3, 4):
        for seed in seeds:
            want, got = reference(players, seed), fast(players, seed)
            assert got.history == want.history, f"{players} players, seed {seed}"
            assert got.result() == want.result() == play_game("doctorwho", players, seed)


def test_fast_path_plays_the_reference_games():
    _same_games(range(15))


@pytest.mark.slow
def test_fast_path_plays_the_reference_games_on_many_seeds():
    """200 more seeds at 3 and at 4 players (400 games). Why that many suffices: measured with
    coverage.py (branch arcs of the Doctor Who engine, its fused turns, its bots and the games'
    base module), seeds 15 to 514 reach no arc that seeds 15 to 198 do not already reach (the
    readable engine's last new arc at seed 68, the fused turns' at 146 and 198). It was 500
    seeds, 1,000 games; test_fused.py plays the same seeded games of the default bots through
    the fused turns and the readable rules on a thousand seeds."""
    _same_games(range(15, 215))


def test_quiet_games_write_no_sentences_and_speak_again():
    game = new_game("doctorwho", players=3, seed=3)
    game.quieten()
    bots = _bots(Greedy, 3, 3)
    for _ in range(40):
        game.apply_trusted(bots[game.current_player].choose(game))
    assert game.events[1:] == []  # only the set-up, said before the game went quiet
    game.quieten(False)
    events = game.apply(bots[game.current_player].choose(game))
    assert events and all(e.text for e in events)


def test_only_lists_the_kinds_asked_for_in_the_full_order():
    game = new_game("doctorwho", players=4, seed=11)
    bots = _bots(Greedy, 4, 11)
    kinds = [(Pass, Discard), (Buy,), (Discard, Pass, Buy), (UseIronsides, MatchDiscard)]
    for _ in range(120):
        if game.is_over:
            break
        full = game.legal_actions()
        for only in kinds:
            assert game.legal_actions(*only) == [a for a in full if isinstance(a, only)]
        game.apply(bots[game.current_player].choose(game))


class Rescoring(Greedy):
    """A subclass with its own score (the same numbers): Greedy weighs every action."""

    def score(self, a, obs, locs, cards):
        return super().score(a, obs, locs, cards)


def test_a_subclass_that_scores_on_its_own_plays_the_same_games():
    for players in (3, 4):
        for seed in range(6):
            game = new_game("doctorwho", players=players, seed=seed)
            game.play_out([b.choose for b in _bots(Rescoring, players, seed)])
            assert game.history == reference(players, seed).history


def test_remembered_answers_leave_the_collector_little_to_walk():
    """The fast path's memos (Enemy sets, Defender picks, bluffs) and the engine's memo of
    attack sets and Defender picks live as long as the card list. Python's collector walks
    every object it tracks at each full collection, so a search paused for up to a third of a
    second once the memos were full. Their keys and answers hold numbers and strings (tuples
    of those are untracked after one collection), and the engine's answers share one copy of
    each card set; the engine's memo is emptied at ``MEMO_MOST`` answers."""
    import gc

    from luckylab.agents import agent_class
    from luckylab.games.doctorwho import fast as doctorwho_fast
    from luckylab.games.doctorwho import tables

    for seed in range(3):
        game = new_game("doctorwho", players=4, seed=seed)
        bots = [agent_class("doctorwho", "careful")(seed=s) for s in range(3)]
        bots.append(agent_class("doctorwho", "ismcts")(seed=seed, iterations=4))
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
    for _ in range(4):  # a collection untracks a tuple once what it holds is untracked
        gc.collect()
    fast = [t for t in doctorwho_fast._TABLES.values() if t.cards is game.cards]
    memos = [fast[0].defences, fast[0].attacks, fast[0].bluffs]
    assert all(memos), "the games filled the fast path's memos"
    for memo in memos:
        assert not [k for k in memo if gc.is_tracked(k)]
        assert not [v for v in memo.values() if gc.is_tracked(v)]
    engine = tables.card_tables(game.cards)[3]
    sets = [s for answer in engine.values() if isinstance(answer, tuple)
            for _, s in answer]
    assert sets and len({id(s) for s in sets}) == len(set(sets))  # one copy of each set
    assert tables.MEMO_MOST <= 20_000
