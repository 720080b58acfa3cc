"""The look-ahead bot "ismcts" (luckylab.agents.ismcts) on all five games: registered, legal,
blind to what its seat cannot see, seeded, within its budget, and finishing whole games."""

from __future__ import annotations

import random

import pytest

import luckylab
from luckylab.agents import agent_class, agent_names, ismcts
from luckylab.agents.ismcts import AGENTS, ISMCTSAgent
from luckylab.errors import BadBudget, LuckyLabError
from luckylab.simulation import player_seats

GAMES = {"island": 2, "kill": 3, "save": 4, "panic": 3, "doctorwho": 3}
"""Each game and a player count to test it at."""


def states(game_name: str, seed: int, wanted: int, skip: int = 3):
    """States of a game played by the default bots where the current seat has more than one
    legal action, every ``skip``-th such state, until ``wanted`` of them."""
    game = luckylab.new_game(game_name, players=GAMES[game_name], seed=seed)
    bots = [agent_class(game_name)(seed=s) for s in range(game.num_seats)]
    found = seen = 0
    while not game.is_over and found < wanted:
        if len(game.legal_actions()) > 1:
            seen += 1
            if seen % skip == 0:
                found += 1
                yield game.clone()
        game.apply(bots[game.current_player].choose(game))


@pytest.mark.parametrize("game_name", list(GAMES))
def test_ismcts_is_registered_for_every_game(game_name):
    assert agent_class(game_name, "ismcts") is AGENTS[game_name]
    assert agent_names(game_name, look_ahead=True)[-1] == "ismcts"
    assert "ismcts" not in agent_names(game_name)  # menus of readable bots are unchanged


@pytest.mark.parametrize("game_name", list(GAMES))
def test_ismcts_chooses_from_the_legal_actions_and_counts_its_budget(game_name):
    for state in states(game_name, seed=1, wanted=3):
        bot = AGENTS[game_name](seed=2, iterations=12)
        action, counts = bot.explain(state)
        assert action in state.legal_actions()
        assert all(a in state.legal_actions() for a, _, _ in counts)
        assert sum(n for _, n, _ in counts) == 12 and bot.simulations == 12
        assert all(0 <= got <= n for _, n, got in counts)
        assert [n for _, n, _ in counts] == sorted((n for _, n, _ in counts), reverse=True)
        state.apply(action)  # the validating path accepts it


@pytest.mark.parametrize("game_name", list(GAMES))
def test_ismcts_reads_only_what_its_seat_may_know(game_name):
    """A state the seat cannot tell apart from the real one (the same observation, hidden cards
    dealt anew) gets the same answer from the same seed: the search sees only the information
    set."""
    checked = 0
    for state in states(game_name, seed=3, wanted=2):
        seat = state.current_player
        other = state.determinize(seat, random.Random(100 + checked))
        assert other.observation(seat) == state.observation(seat)
        if game_name != "panic":  # another seat sees its new hand (in Panic all see alike)
            assert any(other.observation(s) != state.observation(s)
                       for s in range(state.num_seats) if s != seat)
        a = AGENTS[game_name](seed=11, iterations=16).explain(state)
        b = AGENTS[game_name](seed=11, iterations=16).explain(other)
        assert a == b
        checked += 1
    assert checked == 2


def test_a_single_legal_action_is_answered_without_search():
    game = luckylab.new_game("kill", players=2, seed=1)
    bots = [agent_class("kill")(seed=s) for s in range(2)]
    while len(game.legal_actions()) != 1:
        game.apply(bots[game.current_player].choose(game))
    me = AGENTS["kill"](seed=0, iterations=50)
    assert me.explain(game) == (game.legal_actions()[0], [])
    assert me.searched == 0 and me.simulations == 0


def test_panic_is_searched_for_the_team_score():
    state = next(states("panic", seed=2, wanted=1))
    _, counts = AGENTS["panic"](seed=1, iterations=40).explain(state)
    # every seat earns the team's score, a share of the best score, not a 0/1 win
    assert any(0 < got < n and got != int(got) for _, n, got in counts)


def test_the_guard_keeps_the_rollout_bots_choice_unless_another_is_clearly_better():
    state = next(states("island", seed=4, wanted=1, skip=5))
    free = AGENTS["island"](seed=7, iterations=60, guard=0)
    action, counts = free.explain(state)
    assert action == counts[0][0]  # no guard: the most tried move
    strict = AGENTS["island"](seed=7, iterations=60, guard=1e9)
    action, _ = strict.explain(state)
    assert action == strict.last_default  # an impossible margin: the rollout bot's move


def island_foil_with_an_unlisted_payment():
    """Seed 0, 2-player Island: Player 1 asked to foil, where the cautious bot pays with a card
    that ``legal_actions()`` does not list (it lists one payment per combination of Luck
    values, naming other cards of the same Luck)."""
    game = luckylab.new_game("island", players=2, seed=0)
    bots = {s: agent_class("island", "cautious")(seed=s) for s in range(game.num_seats)}
    while True:
        action = bots[game.current_player].choose(game)
        if game.current_player == 0 and game.phase == "foil" and (
                action not in game.legal_actions()):
            return game, action
        game.apply(action)


def test_the_rollout_bots_unlisted_root_move_is_searched_and_guarded():
    game, cautious = island_foil_with_an_unlisted_payment()
    bot = AGENTS["island"](seed=3, iterations=40, guard=1e9)  # the guard always holds
    action, counts = bot.explain(game)
    assert bot.last_default == cautious  # the rollout bot's move is the first tried ...
    assert action == cautious  # ... and the one the guard keeps
    assert cautious in [a for a, _, _ in counts]
    for move, _, _ in counts:  # listed, or another bot's move the game accepts
        game.clone().apply(move)
    game.apply(action)


def test_a_cpu_time_limit_cuts_a_search_short_and_says_so():
    state = next(states("kill", seed=2, wanted=1))
    plain = AGENTS["kill"](seed=4, iterations=30)
    roomy = AGENTS["kill"](seed=4, iterations=30, max_cpu_ms=60_000)
    assert plain.explain(state.clone()) == roomy.explain(state.clone())  # never reached
    assert not roomy.cut_short and roomy.simulations == 30
    tight = AGENTS["kill"](seed=4, iterations=10_000, max_cpu_ms=1e-6)
    action, counts = tight.explain(state.clone())
    assert tight.cut_short and 1 <= tight.simulations < 10_000
    assert sum(n for _, n, _ in counts) == tight.simulations
    assert action in state.legal_actions()
    assert "max_cpu_ms" in repr(tight)


def test_a_cpu_time_limit_skips_an_iteration_that_would_overrun(monkeypatch):
    # A clock that only iterations move, by 100 ms each: with a 250 ms limit the third
    # iteration would end at 300 ms, so the search stops after two (it used to run three).
    state = next(states("kill", seed=2, wanted=1))
    now = [0.0]
    monkeypatch.setattr(ismcts.time, "process_time", lambda: now[0])
    for bot in (AGENTS["kill"](seed=4, iterations=30, max_cpu_ms=250),
                AGENTS["kill"](seed=4, cpu_ms=250)):
        original = bot._iterate

        def iterate(*args, original=original):
            now[0] += 0.1
            original(*args)

        monkeypatch.setattr(bot, "_iterate", iterate)
        now[0] = 0.0
        bot.explain(state.clone())
        assert bot.simulations == 2
        assert bot.cut_short == (bot.cpu_ms is None)  # only an iterations budget is cut short



def test_a_cpu_time_limit_predicts_by_the_longest_iteration_so_far(monkeypatch):
    # The first iteration takes 100 ms, the others 20: with a 250 ms limit the search stops
    # once 100 ms more would overrun (after 4, at 160 ms), not when 20 ms more would (8).
    state = next(states("kill", seed=2, wanted=1))
    now = [0.0]
    monkeypatch.setattr(ismcts.time, "process_time", lambda: now[0])
    bot = AGENTS["kill"](seed=4, iterations=30, max_cpu_ms=250)
    original = bot._iterate

    def iterate(*args):
        now[0] += 0.1 if now[0] == 0.0 else 0.02
        original(*args)

    monkeypatch.setattr(bot, "_iterate", iterate)
    bot.explain(state.clone())
    assert bot.simulations == 4 and bot.cut_short

def test_a_cpu_time_budget_searches_at_least_once_and_stops():
    state = next(states("kill", seed=3, wanted=1))
    bot = AGENTS["kill"](seed=0, cpu_ms=30)
    action = bot.choose(state)
    assert action in state.legal_actions()
    assert bot.simulations >= 1


@pytest.mark.parametrize("game_name", list(GAMES))
def test_a_game_with_an_ismcts_seat_finishes_and_replays(game_name):
    """A whole game, Player 1 searching at a tiny budget (Doctor Who to a turn cap), is the same
    game twice and replays from its record with every check."""
    players = GAMES[game_name]
    options = {"turn_cap": 2} if game_name == "doctorwho" else {}

    def play():
        game = luckylab.new_game(game_name, players=players, seed=5, **options)
        me = player_seats(game_name, players)[0]
        bots = [agent_class(game_name)(seed=s) for s in range(game.num_seats)]
        bots[me] = AGENTS[game_name](seed=9, iterations=3)
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        return game

    first, second = play(), play()
    assert first.is_over and first.record() == second.record()
    assert luckylab.replay(first.record()).state_digest() == first.state_digest()


def test_simulate_seats_ismcts_for_any_game():
    result = luckylab.simulate("panic", players=3, games=1, seed=1,
                               agents=["ismcts", "perfect", "perfect"])
    assert result == luckylab.simulate("panic", players=3, games=1, seed=1,
                                       agents=["ismcts", "perfect", "perfect"])


@pytest.mark.parametrize("setting", [{"max_cpu_ms": 0}, {"max_cpu_ms": float("nan")},
                                     {"max_cpu_ms": True}, {"iterations": 0}, {"iterations": 2.5},
                                     {"iterations": True}, {"cpu_ms": -1},
                                     {"cpu_ms": float("nan")}, {"exploration": -0.1},
                                     {"widening": "wide"}, {"guard": float("inf")},
                                     {"rollout": "ismcts"}, {"rollout": "genius"},
                                     {"own_rollout": "ismcts"}, {"own_rollout": "genius"},
                                     {"others": "tree"}, {"others": 1}])
def test_bad_settings_say_what_is_allowed(setting):
    with pytest.raises(BadBudget) as info:
        AGENTS["save"](seed=0, **setting)
    assert isinstance(info.value, LuckyLabError)
    assert str(info.value)


ROLLOUTS = {("island", 2): "cautious", ("island", 4): "aggressive", ("kill", 4): "patient",
            ("save", 4): "rider", ("panic", 4): "perfect", ("doctorwho", 3): "bluffer",
            ("doctorwho", 4): "bluffer"}
"""The rollout bot each class's docstring gives its reasons for (measured by
benchmarks/bench_search.py --rollout), by game and player count."""


def test_every_game_has_its_own_class_and_rollout_bot():
    for game_name, cls in AGENTS.items():
        assert issubclass(cls, ISMCTSAgent) and cls.game_name == game_name
        assert cls.default_rollout in agent_names(game_name)
        assert cls(seed=0).rollout == cls.default_rollout


class _Tripwire(random.Random):
    """A generator that refuses every draw."""

    def random(self):
        raise AssertionError("a bot that says it never draws drew from its generator")

    def getrandbits(self, k):
        raise AssertionError("a bot that says it never draws drew from its generator")


@pytest.mark.parametrize("game_name, players", [("kill", 2), ("kill", 4), ("island", 2),
                                                ("island", 4)])
def test_a_bot_that_says_it_never_draws_plays_whole_games_without_drawing(game_name, players):
    from luckylab.agents.readable import readable_class, readable_names

    quiet = [readable_class(game_name, n) for n in readable_names(game_name)
             if readable_class(game_name, n).__dict__.get("draws", True) is False]
    assert quiet  # the default bot and its variant at least
    for cls in quiet:
        for seed in range(6):
            game = luckylab.new_game(game_name, players=players, seed=seed)
            bot = cls(seed=_Tripwire())
            while not game.is_over:  # through the readable rules, every decision asked
                game.apply(bot.choose(game))


@pytest.mark.parametrize(("game_name", "players"), list(ROLLOUTS))
def test_each_game_searches_with_its_measured_rollout_bot(game_name, players):
    game = luckylab.new_game(game_name, players=players, seed=2)
    bots = [agent_class(game_name)(seed=s) for s in range(game.num_seats)]
    while len(game.legal_actions()) < 2:
        game.apply(bots[game.current_player].choose(game))
    bot = AGENTS[game_name](seed=0, iterations=2)
    bot.choose(game)
    assert bot.rollout == ROLLOUTS[game_name, players] and bot.own_rollout is None
    given = AGENTS[game_name](seed=0, iterations=2, rollout="random")
    given.choose(game)
    assert given.rollout == "random"  # a rollout bot given is kept at every player count


def test_own_rollout_plays_the_searching_seat_and_rollout_the_others(monkeypatch):
    state = next(states("kill", seed=2, wanted=1))
    me = state.current_player
    seen = []
    real_play_out = type(state).play_out

    def spy(world, choosers):
        seen.append([type(c.__self__).name for c in choosers])
        real_play_out(world, choosers)

    monkeypatch.setattr(type(state), "play_out", spy)
    bot = AGENTS["kill"](seed=1, iterations=20, own_rollout="opportunist")
    assert (bot.rollout, bot.own_rollout) == ("patient", "opportunist")
    bot.explain(state)
    assert seen and all(names[me] == "opportunist" for names in seen)
    assert all(n == "patient" for names in seen for s, n in enumerate(names) if s != me)
    assert "own_rollout='opportunist'" in repr(bot)


def test_own_rollout_names_the_move_the_guard_keeps():
    """A 2-player Kill position where the opportunist attacks and the patient bot does not (both
    read only what the seat sees): the guard keeps the searching seat's own rollout bot's move."""
    game = luckylab.new_game("kill", players=2, seed=1)
    bots = [agent_class("kill")(seed=s) for s in range(2)]
    while True:
        eager = agent_class("kill", "opportunist")(seed=0).choose(game)
        waiting = agent_class("kill", "patient")(seed=0).choose(game)
        if eager != waiting:
            break
        game.apply(bots[game.current_player].choose(game))
    for own, rest, kept in (("opportunist", "patient", eager), ("patient", "opportunist", waiting)):
        bot = AGENTS["kill"](seed=3, iterations=20, guard=1e9, rollout=rest, own_rollout=own)
        assert bot.choose(game.clone()) == bot.last_default == kept


def test_own_rollout_like_the_others_is_no_split():
    state = next(states("save", seed=1, wanted=1))
    same = AGENTS["save"](seed=6, iterations=12, own_rollout=AGENTS["save"].default_rollout)
    assert same.own_rollout is None
    assert same.explain(state.clone()) == AGENTS["save"](seed=6, iterations=12).explain(state)


def test_a_search_tree_grown_an_iteration_at_a_time_is_the_bots_own_search():
    """``tree(game)`` with ``iterate()`` N times is ``explain`` at N iterations: the same root
    counts, the same move; each iteration adds one visit along its path, one new move last."""
    game = luckylab.new_game("island", players=2, seed=10)
    for _ in range(40):
        if len(game.legal_actions()) > 1:
            break
        game.apply(game.legal_actions()[0])
    action, counts = agent_class("island", "ismcts")(seed=3, iterations=12).explain(game)
    tree = agent_class("island", "ismcts")(seed=3).tree(game)
    for _ in range(12):
        before = sum(e.visits for e in tree.root.edges.values())
        step = tree.iterate()
        assert sum(e.visits for e in tree.root.edges.values()) == before + 1
        assert [added for _, _, added in step.path][-1] is True
        assert not any(added for _, _, added in step.path[:-1])
        assert step.world.observation(game.current_player) == game.observation(game.current_player)
    grown = sorted((e.visits, e.reward, str(a)) for a, e in tree.root.edges.items() if e.visits)
    assert grown == sorted((n, w, str(a)) for a, n, w in counts)
    assert tree.choice() == action and tree.iterations == 12
    text = tree.lines(depth=2)
    assert text[0] == "Player 1 to move: 12 iterations" or text[0].endswith("12 iterations")
    assert any("visits" in line and "available" in line for line in text[1:])


@pytest.mark.parametrize("rollout", ["patient", "opportunist"])
def test_others_bot_lets_the_rollout_bot_choose_for_the_other_seats_in_the_tree(rollout):
    """``others="bot"``: every move another seat makes inside the tree is what the rollout bot
    plays in that world (both Kill bots never draw, so it can be asked again); the tree grows
    only at the searching seat's choices, and the default (``"search"``) is another search."""
    game = next(states("kill", seed=4, wanted=1))
    me = game.current_player
    tree = AGENTS["kill"](seed=2, rollout=rollout, others="bot").tree(game)
    bot = agent_class("kill", rollout)(seed=0)
    others_seen = 0
    for _ in range(60):
        step = tree.iterate()
        world = step.world.clone()
        for action, seat, added in step.path:
            if seat != me:
                assert not added
                assert action == bot.choose(world)
                others_seen += 1
            world.apply(action)
        assert step.path[-1][2] or world.is_over  # the one move added is the searcher's own
    assert others_seen > 10  # the walks went past other seats' moves, not only the root
    searched = AGENTS["kill"](seed=2, rollout=rollout).tree(game)
    for _ in range(60):
        searched.iterate()
    assert tree.lines(depth=3) != searched.lines(depth=3)


def test_others_bot_replays_and_says_so():
    game = next(states("island", seed=2, wanted=1))
    a = AGENTS["island"](seed=5, iterations=30, others="bot")
    b = AGENTS["island"](seed=5, iterations=30, others="bot")
    assert a.explain(game.clone()) == b.explain(game.clone())
    assert "others='bot'" in repr(a) and "others" not in repr(AGENTS["island"](seed=5))
