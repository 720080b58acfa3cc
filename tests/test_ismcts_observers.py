"""Multiple-observer ISMCTS (``observers="multiple"``): one tree per seat, a move a seat cannot
see is one branch of its tree; in a game that hides no move it is the single tree's search."""

from __future__ import annotations

import pytest

import luckylab
from luckylab.agents import agent_class
from luckylab.errors import BadBudget
from luckylab.games.shown import Unseen


def _walk(node, mover, seen=None):
    """Every (node's mover, move key) pair below ``node`` (whose mover is ``mover``)."""
    out = [] if seen is None else seen
    for key, edge in node.edges.items():
        out.append((mover, key))
        for nxt, after in edge.after.items():
            _walk(after, nxt, out)
    return out


def _searched_root(game_name: str, players: int, seed: int, iterations: int):
    game = luckylab.new_game(game_name, players=players, seed=seed)
    bot = agent_class(game_name, "ismcts")(seed=3, iterations=iterations, observers="multiple")
    tree = bot.tree(game)
    for _ in range(iterations):
        tree.iterate()
    return game, tree


def test_each_seat_sees_only_what_it_may_see_in_its_own_tree():
    game, tree = _searched_root("doctorwho", 3, 2, 300)
    hidden = type(game).HIDDEN_ACTIONS
    trees = tree.root.trees
    assert set(trees) == {0, 1, 2} and trees[game.current_player] is tree.root
    me = game.current_player
    for seat, root in trees.items():
        keys = _walk(root, me)
        assert keys, f"seat {seat}'s tree grew"
        for mover, key in keys:
            if mover != seat:  # another seat's move, as this seat saw it
                assert type(key) not in hidden, (seat, mover, key)
        if seat != me:
            # this seat never saw what the searching seat did face down: one branch for all of
            # its hidden moves (of each kind), where the searching seat's own tree has many
            assert not any(isinstance(k, tuple(hidden)) for k in root.edges)
            merged = [k for k in root.edges if isinstance(k, Unseen)]
            assert merged and all(k.seat == me for k in merged)
            mine = [k for k in tree.root.edges if type(k) in hidden]
            assert len(merged) < len(mine)


def test_a_game_that_hides_no_move_searches_the_same_in_either_tree():
    game = luckylab.new_game("kill", players=3, seed=4)
    bot = agent_class("kill", "ismcts")
    single = bot(seed=1, iterations=120).explain(game)
    multiple = bot(seed=1, iterations=120, observers="multiple").explain(game)
    assert single == multiple


def test_multiple_observers_play_a_seeded_game_the_same_way_twice():
    def play():
        game = luckylab.new_game("doctorwho", players=3, seed=5)
        bots = [agent_class("doctorwho", "ismcts")(seed=1, iterations=20, observers="multiple"),
                agent_class("doctorwho", "greedy")(seed=2), agent_class("doctorwho")(seed=3)]
        for _ in range(25):
            if game.is_over:
                break
            game.apply(bots[game.current_player].choose(game))
        return game.history
    assert play() == play()


@pytest.mark.parametrize("observers", ["both", "", None.__class__, 2])
def test_bad_observers_say_what_is_allowed(observers):
    with pytest.raises(BadBudget, match="observers must be 'single' or 'multiple'"):
        agent_class("kill", "ismcts")(observers=observers)
