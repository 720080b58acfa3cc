"""Kill Doctor Lucky rules, one test (or more) per rule ID of docs/rules/kill.md.

Positions are staged on the real 1997 board (see kill_staging.py); seeded random games check the
invariants (every card in one place, no attempt without the required sight, games end).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kill_staging import all_cards_once, card_ids, snapshot, staged

from luckylab import IllegalAction, load_board, new_game, replay
from luckylab.agents import agent_class
from luckylab.agents.kill import AGENTS, DEFAULT, Opportunist, Patient
from luckylab.games.kill import (
    Attack,
    EndTurn,
    Foil,
    KillGame,
    PlayCard,
    Snoop,
    Step,
    doctor_next,
)

BOARD = load_board("kill-doctor-lucky")
def hide(*spaces: str) -> list[str]:
    """Parking places that see none of ``spaces``."""
    out = [s for s in BOARD.spaces if not any(BOARD.sees(s, t) for t in spaces)]
    return out


# -- players and setup -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 9, "4", True])
def test_player_count_is_2_to_8(players):
    with pytest.raises(ValueError, match="2 to 8 players"):
        KillGame(players=players, seed=1)


@pytest.mark.parametrize("players", range(2, 9))
def test_K_SETUP_1_everyone_in_the_drawing_room_with_six_cards(players):
    """K-SETUP-1: all pawns in the Drawing Room, 6 cards each, the rest in the deck."""
    game = KillGame(players=players, seed=players)
    assert set(game.position.values()) == {"Drawing Room"}
    assert all(len(h) == 6 for h in game.hands.values())
    assert len(game.deck) == 96 - 6 * players and not game.discards and not game.removed
    assert all_cards_once(game)


@pytest.mark.parametrize("seed", range(12))
def test_K_SETUP_1_first_room_card_dealt_face_up_picks_first_player_and_doctor(seed):
    """K-SETUP-1: cards are dealt face up, one per player from seat 0 leftwards, until a Room
    card: its holder goes first and Doctor Lucky starts in its room."""
    game = KillGame(players=3, seed=seed)
    dealt = game.setup_events
    assert [e.data["seat"] for e in dealt] == [i % 3 for i in range(len(dealt))]
    kinds = [game.card(e.data["card"]).kind for e in dealt]
    assert kinds[-1] == "room" and "room" not in kinds[:-1]
    last = dealt[-1].data
    assert game.current_player == game.active == last["seat"]
    assert game.doctor == last["room"] == game.card(last["card"]).room
    assert game.turn == 1 and game.phase == "turn"


def test_K_SETUP_1_the_deck_is_reshuffled_after_the_face_up_deal():
    """The hands do not simply continue the face-up deal: all 96 go back and are shuffled."""
    different = 0
    for seed in range(10):
        game = KillGame(players=4, seed=seed)
        face_up = [e.data["card"] for e in game.setup_events]
        first_dealt = [game.hands[s][0] for s in range(4)]
        different += first_dealt != face_up[: len(first_dealt)]
    assert different >= 8


def test_same_seed_same_game_and_replay_reproduces_it():
    def play(seed):
        game = new_game("kill", players=4, seed=seed)
        bots = [AGENTS["random"](seed=seed + i) for i in range(4)]
        for _ in range(300):
            if game.is_over:
                break
            game.apply(bots[game.current_player].choose(game))
        return game

    a, b = play(5), play(5)
    assert snapshot(a)[:-1] == snapshot(b)[:-1]
    again = replay(a.record())
    assert snapshot(again) == snapshot(a)
    assert [e.text for e in again.events] == [e.text for e in a.events]


@pytest.mark.parametrize("action", [
    Snoop("Parlor"), Step("Foyer"), PlayCard(3, "doctor", "Kitchen"), Attack(7), Attack(None),
    EndTurn(), Foil((1, 2)), Foil(()),
])
def test_actions_round_trip_through_plain_data(action):
    assert KillGame.action_from_data(action.to_data()) == action
    assert str(action)


def test_action_from_bad_data_is_an_illegal_action():
    with pytest.raises(IllegalAction):
        KillGame.action_from_data({"type": "teleport"})


# -- snooping --------------------------------------------------------------------------------


def test_K_SNOOP_1_snooping_into_a_named_room_draws_a_card():
    """K-SNOOP-1: one step into a named room, then draw one card; the turn ends."""
    game = staged(positions={0: "Drawing Room"}, doctor="Kitchen")
    events = game.apply(Snoop("Parlor"))
    assert game.position[0] == "Parlor" and len(game.hands[0]) == 7
    assert [e.kind for e in events][:2] == ["snoop", "draw"]
    assert game.active == 1 and game.turn == 2


def test_K_SNOOP_1_staying_in_a_named_room_draws_too():
    game = staged(positions={0: "Kitchen"}, doctor="Parlor")
    game.apply(Snoop("Kitchen"))
    assert game.position[0] == "Kitchen" and len(game.hands[0]) == 7


@pytest.mark.parametrize("start, to", [("Kitchen", "Hall W"), ("Lilac Room", "Stairs E"),
                                       ("Hall W", "Hall W")])
def test_K_SNOOP_1_ending_in_a_hallway_or_stairs_draws_nothing(start, to):
    """K-SNOOP-1: hallways and stairs are walked through and stood in, but give no card."""
    game = staged(positions={0: start}, doctor="Parlor")
    events = game.apply(Snoop(to))
    assert len(game.hands[0]) == 6 and "draw" not in [e.kind for e in events]


def test_K_SNOOP_1_snooping_moves_one_step_at_most():
    game = staged(positions={0: "Drawing Room"}, doctor="Kitchen")
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="one step"):
        game.apply(Snoop("Billiard Room"))
    assert snapshot(game) == before


def test_K_SNOOP_1_snooping_only_starts_a_turn():
    """A turn is either snooping or doing something: after the free step, no snooping."""
    game = staged(positions={0: "Drawing Room"}, doctor="Kitchen")
    game.apply(Step("Parlor"))
    with pytest.raises(IllegalAction, match="not an action now"):
        game.apply(Snoop("Parlor"))


def test_K_FAIL_1_an_empty_deck_is_rebuilt_from_the_discards():
    """K-FAIL-1: discards other than played Failure cards are reshuffled into a new deck."""
    game = staged(positions={0: "Drawing Room"}, doctor="Kitchen")
    game.discards.extend(game.deck)
    game.deck.clear()
    n = len(game.discards)
    events = game.apply(Snoop("Parlor"))
    assert "reshuffle" in [e.kind for e in events] and game.reshuffles == 1
    assert len(game.deck) == n - 1 and not game.discards and all_cards_once(game)


def test_with_no_cards_anywhere_snooping_draws_nothing():
    game = staged(positions={0: "Drawing Room"}, doctor="Kitchen")
    game.removed.extend(game.deck)
    game.deck.clear()
    events = game.apply(Snoop("Parlor"))
    assert "no_draw" in [e.kind for e in events] and len(game.hands[0]) == 6


# -- doing something -------------------------------------------------------------------------


def test_K_ACT_1_one_free_step_only():
    game = staged(positions={0: "Drawing Room"}, doctor="Kitchen")
    game.apply(Step("Parlor"))
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="free step is already used"):
        game.apply(Step("Hall E"))
    assert snapshot(game) == before
    assert not any(isinstance(a, Step) for a in game.legal_actions())


def test_K_ACT_1_a_step_goes_through_a_door():
    game = staged(positions={0: "Gallery"}, doctor="Kitchen")
    with pytest.raises(IllegalAction, match="no door joins Gallery and Dining Hall"):
        game.apply(Step("Dining Hall"))  # K-SIGHT-2: the railing is not a door


def test_K_ACT_1_the_sample_turn_walk_and_cards_in_any_order():
    """K-ACT-1 (the rulebook's sample turn): free step Library -> Gallery, then Move-1 into the
    Nursery; a card may also come first and the free step after it."""
    game = staged(positions={0: "Library"}, doctor="Kitchen", hands={0: ["Move-1", "Move-1"]})
    m1, m2 = game.hands[0]
    game.apply(Step("Gallery"))
    game.apply(PlayCard(m1, "self", "Nursery"))
    assert game.position[0] == "Nursery" and game.phase == "doing"
    assert m1 in game.discards and m1 not in game.hands[0]
    other = staged(positions={0: "Library"}, doctor="Kitchen", hands={0: ["Move-1"]})
    other.apply(PlayCard(other.hands[0][0], "self", "Gallery"))
    other.apply(Step("Nursery"))
    assert other.position[0] == "Nursery"


def test_K_ACT_1_move_cards_move_up_to_n_steps_for_you_or_doctor_lucky():
    game = staged(positions={0: "Kitchen"}, doctor="Parlor",
                  hands={0: ["Move-1", "Move-2", "Move-3"]})
    one, two, three = game.hands[0]
    assert set(game.card_targets(one, "self")) == set(BOARD.graph["Kitchen"])
    assert set(game.card_targets(two, "self")) == BOARD.reachable("Kitchen", 2) - {"Kitchen"}
    assert set(game.card_targets(three, "doctor")) == BOARD.reachable("Parlor", 3) - {"Parlor"}
    with pytest.raises(IllegalAction, match="up to 1 step"):
        game.apply(PlayCard(one, "self", "Trophy Room"))  # two steps away
    game.apply(PlayCard(two, "self", "Trophy Room"))
    game.apply(PlayCard(three, "doctor", "Dining Hall"))
    assert game.position[0] == "Trophy Room" and game.doctor == "Dining Hall"
    assert game.hands[0] == [one]  # no card drawn in a doing-something turn


def test_K_ACT_1_room_cards_move_you_or_him_to_the_room():
    game = staged(positions={0: "Kitchen"}, doctor="Parlor", hands={0: ["Armory", "Kitchen"]})
    armory, kitchen = game.hands[0]
    assert game.card_targets(kitchen, "self") == set()  # already there: it moves nobody
    with pytest.raises(IllegalAction, match="to the Armory only"):
        game.apply(PlayCard(armory, "self", "Nursery"))
    game.apply(PlayCard(kitchen, "doctor", "Kitchen"))
    assert game.doctor == "Kitchen"
    game.apply(PlayCard(armory, "self", "Armory"))
    assert game.position[0] == "Armory"


def test_K_ACT_1_only_move_and_room_cards_move_pawns():
    game = staged(positions={0: "Kitchen"}, doctor="Parlor",
                  hands={0: ["Billiard Cue", "Failure 2"]})
    for c in game.hands[0]:
        with pytest.raises(IllegalAction, match="only Move and Room cards"):
            game.apply(PlayCard(c, "self", "Hall W"))
    with pytest.raises(IllegalAction, match="not in Player 1's hand"):
        game.apply(PlayCard(card_ids(game, "Move-3")[0], "self", "Hall W"))


def test_K_ACT_1_no_moving_after_the_attempt():
    """K-ACT-1: the attempt ends the turn; Doctor Lucky moves on and the next player is up."""
    far = hide("Kitchen")
    game = staged(positions={0: "Kitchen", 1: far[0], 2: far[1], 3: far[2]}, doctor="Kitchen",
                  hands={0: ["Move-1"], 1: ["Failure 1"]})
    game.apply(Attack(None))
    game.apply(Foil(tuple(game.hands[1])))
    there = [s for s in range(4) if game.position[s] == "Lancaster Room"]
    assert game.turn == 2 and game.active == (there[0] if there else 1)
    assert game.phase == "turn" and game.doctor == "Lancaster Room"  # 8 -> 9 (K-DOC-1)
    assert game.hands[0] == [card_ids(game, "Move-1")[0]]


def test_K_ACT_1_ending_the_turn_draws_nothing():
    game = staged(positions={0: "Kitchen"}, doctor="Parlor")
    game.apply(EndTurn())
    assert len(game.hands[0]) == 6 and game.active == 1


# -- murder ----------------------------------------------------------------------------------


def attack_game(attacker_space="Nursery", others=None, players=4, hands=None):
    others = others or hide(attacker_space)[: players - 1]
    positions = {0: attacker_space, **{s + 1: p for s, p in enumerate(others)}}
    return staged(players=players, positions=positions, doctor=attacker_space, hands=hands)


def test_K_KILL_1_alone_and_unseen_may_attack():
    game = attack_game()
    assert game.can_attack(0)
    assert Attack(None) in game.legal_actions()


def test_K_KILL_1_not_with_doctor_lucky_no_attack():
    game = attack_game()
    game.doctor = "Armory"
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="Doctor Lucky is in Armory"):
        game.apply(Attack(None))
    assert snapshot(game) == before
    assert not any(isinstance(a, Attack) for a in game.legal_actions())


def test_K_KILL_1_another_player_in_the_room_forbids_it():
    game = attack_game()
    game.position[2] = "Nursery"
    with pytest.raises(IllegalAction, match="seen by Player 3 in Nursery"):
        game.apply(Attack(None))


@pytest.mark.parametrize("watcher_space, allowed", [
    ("Tennessee Room", False),  # in line with the Armory through Library and Hall NE doors
    ("Nursery", False),         # next door, the Armory-Nursery door in line
    ("Hall NE", False),
    ("Gallery", True),          # right below, but walls between: no line
    ("Master Suite", True),     # only diagonally: no diagonal sight
])
def test_K_KILL_1_seen_along_a_straight_line_forbids_it(watcher_space, allowed):
    """K-KILL-1 with K-SIGHT-1: a player who sees the Armory along a straight line stops the
    attack; one who sees it only diagonally or through walls does not."""
    game = attack_game("Armory")
    game.position[1] = watcher_space
    assert game.can_attack(0) == allowed
    if not allowed:
        with pytest.raises(IllegalAction, match=f"seen by Player 2 in {watcher_space}"):
            game.apply(Attack(None))


def test_K_KILL_1_seen_over_the_gallery_railing_forbids_it():
    """K-SIGHT-2: the railing lets the Gallery watch the Dining Hall."""
    game = attack_game("Dining Hall")
    game.position[1] = "Gallery"
    assert not game.can_attack(0)


def test_K_KILL_1_attack_values_bare_handed_weapon_and_special_room():
    """K-KILL-1: 1 bare-handed; a Weapon's value, its special value in its room; no +1."""
    game = attack_game("Billiard Room", hands={0: ["Billiard Cue", "Big Red Hammer"]})
    cue, hammer = game.hands[0]
    assert game.attack_value(0) == 1
    assert game.attack_value(0, cue) == 5
    assert game.attack_value(0, hammer) == 4
    game.position[0] = game.doctor = "Nursery"
    assert game.attack_value(0, cue) == 2


def test_K_KILL_1_only_a_weapon_card_in_hand_can_be_used():
    game = attack_game(hands={0: ["Move-2"]})
    with pytest.raises(IllegalAction, match="not a Weapon"):
        game.apply(Attack(game.hands[0][0]))
    with pytest.raises(IllegalAction, match="not in Player 1's hand"):
        game.apply(Attack(card_ids(game, "Chain Saw")[0]))


# -- foiling ---------------------------------------------------------------------------------


def test_K_FAIL_1_sample_turn_players_2_and_3_pass_4_and_5_foil():
    """The rulebook's sample turn: Billiard Cue in the Nursery (2); Players 2 and 3 pass,
    Player 4 plays 1 point, Player 5 adds an F-3: foiled. Played Failure cards leave the game;
    Doctor Lucky then moves from the Nursery (11) into the Armory (12)."""
    others = ["Kitchen", "Piazza", "Hedge Maze", "White Room"]
    game = staged(players=5, positions={0: "Nursery", **dict(enumerate(others, start=1))},
                  doctor="Nursery",
                  hands={0: ["Billiard Cue"], 1: ["Failure 2"], 2: ["Failure 1"],
                         3: ["Failure 1"], 4: ["Failure 3"]})
    cue = game.hands[0][0]
    events = game.apply(Attack(cue))
    assert events[0].data["value"] == 2
    assert game.current_player == 1 and game.foil.order == [1, 2, 3, 4]
    game.apply(Foil(()))
    game.apply(Foil(()))
    f1 = tuple(game.hands[3])
    game.apply(Foil(f1))
    assert game.foil.needed == 1 and game.current_player == 4
    f3 = tuple(game.hands[4])
    events = game.apply(Foil(f3))
    assert "foiled" in [e.kind for e in events] and not game.finished
    assert set(game.removed) == {*f1, *f3} and cue in game.discards
    assert game.doctor == "Armory"
    assert all_cards_once(game)


def test_K_FAIL_1_nobody_is_asked_once_the_value_is_reached():
    game = attack_game(hands={1: ["Failure 3"], 2: ["Failure 1"], 3: ["Failure 1"]})
    game.apply(Attack(None))
    assert game.current_player == 1
    events = game.apply(Foil(tuple(game.hands[1])))
    assert game.foil is None and "foiled" in [e.kind for e in events]
    assert [e.data["seat"] for e in events if e.kind == "foil"] == [1]


def test_K_FAIL_1_from_the_attackers_left_once_around():
    game = attack_game(players=4)
    game.active = game._decider = 2
    game.position[0], game.position[2] = game.position[2], game.position[0]
    game.apply(Attack(None))
    assert game.foil.order == [3, 0, 1]
    asked = []
    while game.phase == "foil":
        asked.append(game.current_player)
        game.apply(Foil(()))
    assert asked == [3, 0, 1]


def test_K_FAIL_1_only_failure_cards_foil():
    game = attack_game(hands={1: ["Move-1", "Failure 1"]})
    game.apply(Attack(None))
    move, failure = game.hands[1]
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="only Failure cards"):
        game.apply(Foil((move,)))
    with pytest.raises(IllegalAction, match="listed twice"):
        game.apply(Foil((failure, failure)))
    assert snapshot(game) == before
    assert game.legal_actions() == [Foil(()), Foil((failure,))]


def test_K_FAIL_1_foil_choices_are_distinct_value_combinations():
    game = attack_game(hands={1: ["Failure 1", "Failure 1", "Failure 2", "Move-1"]})
    game.apply(Attack(None))
    combos = sorted(sorted(game.card(c).luck for c in a.cards) for a in game.legal_actions())
    assert combos == [[], [1], [1, 1], [1, 1, 2], [1, 2], [2]]


def test_K_KILL_1_not_foiled_the_attacker_wins_and_nobody_loses():
    """Not enough Failure points: Doctor Lucky dies; kill.md names no loser."""
    game = attack_game(hands={0: ["Chain Saw"], 1: ["Failure 3"], 2: [], 3: ["Move-1"]})
    game.apply(Attack(game.hands[0][0]))
    game.apply(Foil(()))
    game.apply(Foil(()))
    events = game.apply(Foil(()))
    assert game.is_over and game.finished and game.winner == 0 and game.loser is None
    assert game.current_player is None and game.legal_actions() == []
    assert events[-1].kind == "game_over"
    with pytest.raises(IllegalAction, match="over"):
        game.apply(EndTurn())
    result = game.result()
    assert (result.winner, result.loser, result.attempts, result.finished) == (0, None, 1, True)


# -- Doctor Lucky ----------------------------------------------------------------------------


@pytest.mark.parametrize("space, nxt", [
    ("Drawing Room", "Parlor"), ("Master Suite", "Nursery"), ("Nursery", "Armory"),
    ("Piazza", "Drawing Room"), ("Wine Cellar", "Kitchen"), ("Foyer", "Piazza"),
    ("Gallery", "Library"), ("Hall W", "Kitchen"), ("Stairs E", "Lilac Room"),
])
def test_K_DOC_1_numbered_rooms_in_order_and_unnumbered_to_the_highest_neighbour(space, nxt):
    """K-DOC-1: 19 -> 0; from an unnumbered space, the highest-numbered adjoining room."""
    assert doctor_next(BOARD, space) == nxt


def test_K_DOC_1_without_fallback_data_the_rule_is_computed_from_the_doors():
    from luckylab.boards.geometry import board_from_geometry

    attrs = {s: {k: v for k, v in BOARD.graph.nodes[s].items() if k != "fallback"}
             for s in BOARD.spaces}
    bare = board_from_geometry(BOARD.geometry, attrs, path=BOARD.path)
    for s in BOARD.spaces:
        assert doctor_next(bare, s) == doctor_next(BOARD, s)


def test_K_DOC_1_doctor_lucky_moves_after_every_turn():
    game = staged(positions={0: "Kitchen"}, doctor="Master Suite")
    events = game.apply(EndTurn())
    assert game.doctor == "Nursery"
    assert any(e.kind == "doctor_moves" and e.data["space"] == "Nursery" for e in events)


def test_K_DOC_2_the_turn_jumps_to_the_player_doctor_lucky_walks_in_on():
    game = staged(positions={0: "Kitchen", 1: "Drawing Room", 2: "Armory", 3: "Piazza"},
                  doctor="Nursery")
    events = game.apply(EndTurn())
    assert game.doctor == "Armory" and game.active == 2
    assert events[-2].data["jump"] == 2


def test_K_DOC_2_several_occupants_closest_to_the_left_of_the_last_active_player():
    game = staged(positions={0: "Kitchen", 1: "Armory", 2: "Drawing Room", 3: "Armory"},
                  doctor="Nursery", turn_of=2)
    game.position[2] = "Hall W"
    game.apply(EndTurn())
    assert game.active == 3  # 3 is left of 2, before 1


def test_K_DOC_2_even_to_the_player_who_just_went():
    """K-DOC-2: alone in the room Doctor Lucky enters, the last player goes again."""
    game = staged(positions={0: "Armory", 1: "Kitchen", 2: "Kitchen", 3: "Kitchen"},
                  doctor="Nursery")
    game.apply(EndTurn())
    assert game.active == 0 and game.turn == 2
    # ... and the player who just went is the last choice when others are there too.
    game.position[1] = "Library"
    game.position[0] = "Library"
    game.apply(EndTurn())
    assert game.doctor == "Library" and game.active == 1


def test_K_DOC_2_moving_him_with_a_card_does_not_jump_the_turn():
    game = staged(positions={0: "Kitchen", 1: "Parlor"}, doctor="Nursery", hands={0: ["Parlor"]})
    game.apply(PlayCard(game.hands[0][0], "doctor", "Parlor"))
    assert game.current_player == 0 and game.doctor == "Parlor"


def test_K_DOC_2_no_one_there_the_turn_passes_left():
    game = staged(positions={s: "Kitchen" for s in range(4)}, doctor="Nursery", turn_of=3)
    game.apply(EndTurn())
    assert game.active == 0


# -- invariants over seeded random games ------------------------------------------------------


def attack_was_allowed(game: KillGame, seat: int) -> bool:
    """K-KILL-1 computed independently from the board: with him, and no other pawn sees."""
    here = game.position[seat]
    return here == game.doctor and not any(
        BOARD.sees(game.position[s], here) for s in range(game.players) if s != seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8),
       mix=st.lists(st.sampled_from(sorted(AGENTS)), min_size=1, max_size=3))
def test_invariants_in_seeded_random_games(seed, players, mix):
    """After every action every one of the 96 cards is in exactly one place; no attempt
    without the required sight (K-KILL-1); played Failure cards never come back (K-FAIL-1);
    every game ends (a win, or the turn cap)."""
    game = KillGame(players=players, seed=seed, turn_cap=150)
    bots = [agent_class("kill", mix[i % len(mix)])(seed=seed + i) for i in range(players)]
    removed_so_far: set[int] = set()
    for _ in range(20_000):
        if game.is_over:
            break
        seat = game.current_player
        action = bots[seat].choose(game)
        if isinstance(action, Attack):
            assert attack_was_allowed(game, seat)
        game.apply(action)
        assert all_cards_once(game)
        assert removed_so_far <= set(game.removed)
        assert all(game.card(c).kind == "failure" for c in game.removed)
        removed_so_far = set(game.removed)
    assert game.is_over
    assert game.finished == (game.winner is not None)
    assert game.turn <= 150


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), junk=st.integers(0, 10**6))
def test_illegal_actions_change_nothing(seed, steps, junk):
    """Any action outside legal_actions() raises IllegalAction and leaves the game as it was."""
    import random

    game = KillGame(players=4, seed=seed)
    rng = random.Random(junk)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))
    if game.is_over:
        return
    legal = game.legal_actions()
    spaces = list(BOARD.spaces)
    candidates = [Snoop(rng.choice(spaces)), Step(rng.choice(spaces)),
                  PlayCard(rng.randrange(96), rng.choice(["self", "doctor", "cat"]),
                           rng.choice(spaces + ["Attic"])),
                  Attack(rng.choice([None, rng.randrange(96)])),
                  Foil(tuple(rng.sample(range(96), rng.randint(0, 3)))), EndTurn(),
                  Snoop("Attic")]
    for action in candidates:
        before = snapshot(game)
        try:
            game.apply(action)
        except IllegalAction:
            assert snapshot(game) == before
            continue
        # A legal action is one of legal_actions() up to identical copies of a card.
        assert type(action) in {type(a) for a in legal}
        return


def test_legal_actions_are_all_accepted():
    for seed in range(6):
        game = KillGame(players=3, seed=seed)
        for _ in range(40):
            if game.is_over:
                break
            for action in game.legal_actions():
                game.clone().apply(action)
            game.apply(game.legal_actions()[seed % len(game.legal_actions())])


def test_clone_is_independent_and_shares_the_board():
    game = KillGame(players=3, seed=1)
    twin = game.clone()
    assert twin.board is game.board and twin.cards is game.cards
    twin.apply(twin.legal_actions()[0])
    assert len(game.history) == 0 and len(twin.history) == 1


# -- agents ----------------------------------------------------------------------------------


def test_agents_table_and_default():
    assert DEFAULT == "opportunist" and set(AGENTS) == {"opportunist", "patient", "random"}
    assert agent_class("kill") is Opportunist


def play_out(agent_names, seed, players=4):
    game = KillGame(players=players, seed=seed)
    bots = [AGENTS[agent_names[i % len(agent_names)]](seed=seed * 10 + i)
            for i in range(players)]
    while not game.is_over:
        action = bots[game.current_player].choose(game)
        game.apply(action)
    return game


def test_opportunist_takes_a_kill_it_can_reach_with_a_card():
    """Doctor Lucky one Room card away from an unwatched spot: the opportunist plays it."""
    far = hide("Wine Cellar")
    game = staged(positions={0: "Wine Cellar", 1: far[0], 2: far[1], 3: far[2]},
                  doctor="Armory", hands={0: ["Wine Cellar", "Trowel"]})
    room, trowel = game.hands[0]
    bot = Opportunist(seed=1)
    assert bot.choose(game) == PlayCard(room, "doctor", "Wine Cellar")
    game.apply(PlayCard(room, "doctor", "Wine Cellar"))
    assert bot.choose(game) == Attack(trowel)  # the Trowel is worth 6 in the Wine Cellar


def test_patient_waits_for_a_strong_attack_and_foils_only_last():
    far = hide("Kitchen")
    game = staged(positions={0: "Kitchen", 1: far[0], 2: far[1], 3: far[2]}, doctor="Kitchen",
                  hands={0: ["Move-1"], 1: ["Failure 1"], 3: ["Failure 2"]})
    assert not isinstance(Patient(seed=1).choose(game), Attack)  # bare hands are worth 1
    game.apply(Attack(None))
    assert Patient(seed=1).choose(game) == Foil(())  # Player 2 is not the last one asked
    game.apply(Foil(()))
    game.apply(Foil(()))
    assert Patient(seed=1).choose(game) == Foil(tuple(game.hands[3]))


@pytest.mark.parametrize("names", [["opportunist"], ["patient"], ["random", "opportunist"]])
def test_agents_finish_seeded_games(names):
    for seed in range(3):
        game = play_out(names, seed)
        assert game.finished and game.winner is not None


def test_opportunist_beats_random():
    """Over 20 seeded 2-player games the opportunist (seat 0) wins most against random."""
    wins = sum(play_out(["opportunist", "random"], seed, players=2).winner == 0
               for seed in range(20))
    assert wins >= 14


def test_a_board_without_the_room_card_rooms_is_refused():
    from luckylab.boards import board_from_data

    data = {"format": "geometry", "name": "Shed", "start": {"players": "A"},
            "spaces": [{"name": "A", "number": 0, "kind": "room", "rect": [0, 0, 10, 10]},
                       {"name": "B", "number": 1, "kind": "room", "rect": [12, 0, 22, 10]}],
            "doors": [{"between": ["A", "B"], "rect": [10, 2, 12, 5]}]}
    shed = board_from_data(data, source="shed.toml", key="shed")
    with pytest.raises(ValueError, match="lacks rooms named by Room cards"):
        KillGame(players=3, seed=1, board=shed)


def test_K_DOC_1_a_board_where_doctor_lucky_would_be_stuck_is_refused():
    """An unnumbered space with no numbered neighbour and no fallback: K-DOC-1 is undefined."""
    from luckylab.boards.geometry import board_from_geometry

    attrs = {s: {k: v for k, v in BOARD.graph.nodes[s].items() if k != "fallback"}
             for s in BOARD.spaces}
    for s in ("Kitchen", "Wine Cellar"):
        attrs[s]["number"] = None  # then the Kitchen and Wine Cellar have no numbered neighbour
    odd = board_from_geometry(BOARD.geometry, attrs, start=BOARD.start,
                              path=[s for s in BOARD.path if attrs[s]["number"] is not None])
    with pytest.raises(ValueError, match="has no numbered neighbour"):
        KillGame(players=3, seed=1, board=odd)


@pytest.mark.parametrize("players", [2, 4])
def test_counted_and_nth_actions_are_the_listed_ones(players):
    """count_actions, nth_action and random_action (what the random agent uses instead of
    building every action) agree with legal_actions in every state of seeded games, foiling
    rounds and attacks included; random_action makes rng.choice's draw."""
    import random

    phases = set()
    for seed in range(4):
        game = new_game("kill", players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            phases.add(game.phase)
            assert game.count_actions() == len(legal)
            assert [game.nth_action(k) for k in range(len(legal))] == legal
            with pytest.raises(IndexError):
                game.nth_action(len(legal))
            mine, theirs = random.Random(game.turn), random.Random(game.turn)
            assert game.random_action(mine) == theirs.choice(legal)
            assert mine.getstate() == theirs.getstate()
            game.apply(rng.choice(legal))
        assert game.count_actions() == 0 and game.legal_actions() == []
    assert phases == {"turn", "doing", "foil"}


# -- what a seat sees ------------------------------------------------------------------------


def test_a_seats_view_shows_the_table_and_its_own_hand_and_hides_the_others():
    """KillView: live, read-only, the rules' answers equal to the engine's; another hand, the
    deck's order and the place of every card are hidden from a seat, shown on the open
    table."""
    import random

    from luckylab.errors import HiddenInformation
    from luckylab.games.kill import KillView

    game = new_game("kill", players=3, seed=6)
    rng = random.Random(6)
    for _ in range(60):
        if game.is_over:
            break
        seat = game.current_player
        view, table = game.view(seat), game.view()
        assert isinstance(view, KillView) and view.seat == seat and table.seat is None
        assert view.hand == tuple(game.hands[seat]) == table.hand_of(seat)
        assert [view.hand_size(s) for s in range(3)] == [len(game.hands[s]) for s in range(3)]
        assert view.positions == tuple(game.position[s] for s in range(3))
        assert (view.doctor, view.phase, view.turn, view.stepped) == (
            game.doctor, game.phase, game.turn, game.stepped)
        assert view.can_attack(seat) == game.can_attack(seat)
        assert view.unseen_spaces(seat) == game.unseen_spaces(seat)
        assert view.unseen_cards() == game.unseen_cards(seat) and table.unseen_cards() == []
        assert view.needed == (game.foil.needed if game.foil else 0)
        for hidden in (view.hand_of, view.failure_cards, view.moving_cards):
            with pytest.raises(HiddenInformation):
                hidden((seat + 1) % 3)
        with pytest.raises(HiddenInformation):
            view.card_places()
        with pytest.raises(HiddenInformation):
            table.hand  # noqa: B018 - the open table holds no hand of its own
        assert table.card_places() == game.card_places()
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(0)
    with pytest.raises(TypeError):
        view.doors["Foyer"] = frozenset()  # the board's tables are read-only through a view
    with pytest.raises(AttributeError):
        view.doctor = "Kitchen"  # and the game's state too
    with pytest.raises(ValueError, match="seat must be"):
        game.view(3)
