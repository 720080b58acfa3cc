"""The Island of Doctor Lucky, rule by rule (IDs from docs/rules/island.md).

Tests arrange a position by placing pawns and dealing chosen cards with ``arrange`` (card
accounting stays exact: cards dealt to a hand come out of the deck, the old hand goes back),
then drive the game only through ``apply``.
"""

from __future__ import annotations

import copy

import pytest

import luckylab
from luckylab import IllegalAction, new_game
from luckylab.games.base import jump_target
from luckylab.games.island import (
    DOCTOR,
    Attack,
    DiscardLuck,
    Draw,
    Foil,
    GiveCard,
    Move,
    MoveCat,
    Pass,
    PlayHazard,
    hand_size,
)

# -- helpers ---------------------------------------------------------------------------------

FAR = "Skull Rock"  # a corner of the island, sees none of the spaces used below
QUIET = "Lighthouse"  # where Doctor Lucky waits unless a test moves him: out of sight of FAR


def card_ids(game, kind, n=1, luck=None, name=None, exclude=()):
    """Ids of ``n`` cards of a kind (and Luck / name), wherever they are now."""
    found = [c.id for c in game.cards if c.kind == kind
             and (luck is None or c.luck == luck) and (name is None or c.name == name)
             and c.id not in exclude]
    assert len(found) >= n, (kind, luck, name)
    return found[:n]


def take_card(game, card):
    for place in [game.deck, game.discards, *game.hands.values(), *game.under.values()]:
        if card in place:
            place.remove(card)
            return
    raise AssertionError(card)


def arrange(game, *, positions=None, doctor=None, cat=None, hands=None, active=None):
    """Put pawns, the cat and chosen hands in place (a test's opening position)."""
    for seat, space in (positions or {}).items():
        game.position[seat] = space
    if doctor is not None:
        game.doctor = doctor
    if cat is not None:
        game.cat = cat
    for seat, cards in (hands or {}).items():
        old = list(game.hands[seat])
        game.hands[seat] = []
        for c in cards:
            if c in old:
                old.remove(c)
            else:
                take_card(game, c)
        game.deck[0:0] = old  # the old hand goes to the bottom of the deck
        game.hands[seat] = list(cards)
    if active is not None:
        game.active = active
        game._decider = active
    return game


def all_far(game, except_=()):
    return {s: FAR for s in game.seats if s not in except_}


def snapshot(game):
    keys = ["position", "doctor", "cat", "hands", "deck", "discards", "under", "move", "attack",
            "phase", "active", "_decider", "turn", "winner", "loser", "eliminated", "history",
            "foil", "_penalty", "_jumps_on", "_had_turn"]
    return copy.deepcopy({k: getattr(game, k) for k in keys})


def assert_cards_accounted(game):
    places = game.card_places()
    every = [c for cards in places.values() for c in cards]
    assert sorted(every) == list(range(72)), "every card is in exactly one place"


def four(seed=0, **options):
    """A 4-player game where seat 0 is to play Phase 1, everyone out of sight of each other."""
    game = new_game("island", players=4, seed=seed, **options)
    arrange(game, positions=all_far(game), active=0, doctor=QUIET)
    game.phase = "phase1"
    game._had_turn = set(game.seats)
    game._jumps_on = True
    return game


# -- setup -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 7), (4, 6), (5, 6), (6, 6), (7, 5),
                                               (8, 5)])
def test_I_SETUP_1_hand_sizes(players, size):
    game = new_game("island", players=players, seed=1)
    assert hand_size(players) == size
    live = [s for s in game.seats if not game.is_stranger(s)]
    assert len(live) == players
    assert all(len(game.hands[s]) == size for s in live)
    assert len(game.deck) == 72 - players * size


@pytest.mark.parametrize("players", [0, 1, 9, -3, 2.5, "four", True])
def test_I_SETUP_1_wrong_player_counts_are_refused(players):
    with pytest.raises(ValueError, match="2 to 8 players"):
        new_game("island", players=players, seed=1)


def test_I_SETUP_2_the_shuffle_is_seeded():
    a, b, c = (new_game("island", players=4, seed=s) for s in (5, 5, 6))
    assert a.deck == b.deck and a.hands == b.hands
    assert a.deck != c.deck


def test_I_SETUP_2_discards_are_never_reshuffled_and_an_empty_deck_stays_empty():
    game = four()
    game.discards.extend(game.deck)
    game.deck.clear()
    with pytest.raises(IllegalAction, match="deck is empty"):
        game.apply(Pass())
        game.apply(Draw())
    assert game.deck == []
    assert_cards_accounted(game)


def test_I_SETUP_3_a_random_live_player_starts_and_play_passes_left():
    starters = {new_game("island", players=4, seed=s).active for s in range(40)}
    assert starters == {0, 1, 2, 3}
    game = four()
    game.apply(Pass())
    game.apply(Pass())
    assert game.current_player == 1


def test_I_SETUP_3_strangers_never_start():
    for s in range(30):
        game = new_game("island", players=2, seed=s)
        assert not game.is_stranger(game.active)


def test_I_SETUP_4_move_and_attack_start_at_one():
    game = new_game("island", players=5, seed=2)
    assert set(game.move.values()) == {1} and set(game.attack.values()) == {1}


def test_I_BOARD_7_start_positions_in_a_new_game():
    game = new_game("island", players=4, seed=2)
    assert set(game.position.values()) == {"Castelo Feliz"}
    assert game.doctor == "Sunset Beach" and game.cat == "Observatory"


# -- phases ----------------------------------------------------------------------------------

def test_I_TURN_1_phase_one_offers_move_cat_hazard_or_pass_once():
    game = four()
    hazard = card_ids(game, "hazard", name="Hunting Snare")[0]
    arrange(game, hands={0: [hazard]}, positions={1: "Banana Jungle"})
    kinds = {type(a) for a in game.legal_actions()}
    assert kinds == {Pass, Move, MoveCat, PlayHazard}
    game.apply(MoveCat("Frog Pond"))
    assert game.phase == "phase2"
    with pytest.raises(IllegalAction, match="not an action for phase2"):
        game.apply(MoveCat("Lighthouse"))


def test_I_TURN_2_phase_two_offers_draw_attack_or_pass_then_the_turn_ends():
    game = four()
    arrange(game, positions={0: "Frog Pond"}, doctor="Frog Pond")
    game.apply(Pass())
    kinds = {type(a) for a in game.legal_actions()}
    assert kinds == {Pass, Attack}  # Doctor Lucky sees us, so no draw
    game.apply(Pass())
    assert game.active == 1 and game.phase == "phase1"


def test_I_MOVE_1_up_to_move_steps_through_occupied_spaces_and_by_airplane():
    game = four()
    arrange(game, positions={0: "Castelo Feliz", 1: "Sugar Farm"})
    game.apply(Move.to(0, "Salient Point"))  # one step by air
    assert game.position[0] == "Salient Point"
    game = four()
    arrange(game, positions={0: "Frog Pond"})
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="takes 2 steps but .* has Move 1"):
        game.apply(Move.to(0, "Old Mission"))
    assert snapshot(game) == before
    game.move[0] = 2
    game.apply(Move.to(0, "Old Mission"))  # through Sunset Beach
    assert game.position[0] == "Old Mission"


def test_I_MOVE_1_you_may_stop_on_an_occupied_space():
    game = four()
    arrange(game, positions={0: "Frog Pond", 2: "Sugar Farm"})
    game.apply(Move.to(0, "Sugar Farm"))
    assert game.pawns_at("Sugar Farm") == [0, 2]


def test_I_MOVE_1_you_move_only_your_own_pawn_without_strangers():
    game = four()
    with pytest.raises(IllegalAction, match="own pawn and Strangers"):
        game.apply(Move.to(1, "Frog Pond"))


def test_I_MOVE_2_the_cat_hops_to_any_space():
    game = four()
    game.apply(MoveCat("Skull Rock"))
    assert game.cat == "Skull Rock"
    game = four()
    with pytest.raises(IllegalAction, match="already in"):
        game.apply(MoveCat(game.cat))


def test_unknown_space_in_an_action_is_a_clear_error_and_changes_nothing():
    game = four()
    before = snapshot(game)
    with pytest.raises(luckylab.UnknownSpace, match="Atlantis"):
        game.apply(Move.to(0, "Atlantis"))
    with pytest.raises(luckylab.UnknownSpace):
        game.apply(MoveCat("Atlantis"))
    assert snapshot(game) == before


# -- sight in the game -----------------------------------------------------------------------

def test_I_SIGHT_1_pawns_on_the_same_and_adjacent_spaces_see_each_other():
    game = four()
    arrange(game, positions={0: "Frog Pond", 1: "Frog Pond", 2: "Sunset Beach"}, cat=FAR)
    assert game.watchers(0) == {1, 2}
    assert 0 in game.watchers(2)


def test_I_SIGHT_2_the_cat_blinds_her_space_both_ways():
    game = four()
    arrange(game, positions={0: "Frog Pond", 1: "Frog Pond", 2: "Sunset Beach"},
            cat="Frog Pond")
    assert game.watchers(0) == {1}
    assert 0 not in game.watchers(2) and 1 not in game.watchers(2)


def test_I_SIGHT_2_outward_option():
    game = four(cat_blocks="outward")
    arrange(game, positions={0: "Frog Pond", 2: "Sunset Beach"}, cat="Frog Pond")
    assert game.watchers(0) == {2}  # Sunset Beach still sees in
    assert 0 not in game.watchers(2)  # but Frog Pond does not see out


def test_I_SIGHT_3_the_cat_is_not_a_pawn_and_does_not_break_being_alone():
    game = four()
    forest_hazard = card_ids(game, "hazard", name="Hunting Snare")[0]
    arrange(game, positions={0: "Castelo Feliz", 1: "Banana Jungle"}, cat="Banana Jungle",
            hands={0: [forest_hazard]})
    assert 1 in game.hazard_targets(forest_hazard, 0)
    assert game.watchers(1) == frozenset()


def test_I_SIGHT_4_unseen_means_no_other_pawn_doctor_included_for_drawing():
    game = four()
    arrange(game, positions={0: "Frog Pond"}, doctor="Sunset Beach", cat=FAR)
    assert game.watchers(0) == {DOCTOR}
    assert not game.can_draw(0)
    arrange(game, doctor="Lighthouse")
    assert game.can_draw(0)


# -- hazards ---------------------------------------------------------------------------------

def test_worked_example_7_I_HAZ_1_hazard_on_a_forest_with_a_second_pawn_is_illegal():
    game = four()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]
    arrange(game, positions={1: "Banana Jungle", 2: "Banana Jungle"}, hands={0: [snare]})
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="alone on a forest space"):
        game.apply(PlayHazard(snare, 1))
    assert snapshot(game) == before


def test_I_HAZ_1_kind_must_match_and_range_and_sight_do_not_matter():
    game = four()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]
    arrange(game, positions={0: "Salient Point", 1: "Banana Jungle", 2: "Lighthouse"},
            hands={0: [snare]})
    assert game.hazard_targets(snare, 0) == [1]  # far away and unseen: fine
    with pytest.raises(IllegalAction):
        game.apply(PlayHazard(snare, 2))  # a Building, not a Forest
    with pytest.raises(IllegalAction):
        game.apply(PlayHazard(snare, 0))  # not yourself


def test_I_HAZ_2_target_gives_a_card_or_discards_enough_luck():
    game = four()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]  # value 3
    ones = card_ids(game, "failure", n=2, luck=1)
    four_ = card_ids(game, "failure", luck=4)[0]
    arrange(game, positions={1: "Banana Jungle"}, hands={0: [snare], 1: [*ones, four_]})
    events = game.apply(PlayHazard(snare, 1))
    assert game.phase == "penalty" and game.current_player == 1
    assert any(e.kind == "hazard" for e in events)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="2 Luck; the Hazard needs at least 3"):
        game.apply(DiscardLuck(tuple(ones)))
    assert snapshot(game) == before
    game.apply(DiscardLuck((four_,)))
    assert four_ in game.discards and game.phase == "phase2" and game.current_player == 0
    assert_cards_accounted(game)


def test_I_HAZ_2_giving_a_card_passes_it_to_the_thrower():
    game = four()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]
    gift = card_ids(game, "failure", luck=4)[0]
    arrange(game, positions={1: "Banana Jungle"}, hands={0: [snare], 1: [gift]})
    game.apply(PlayHazard(snare, 1))
    game.apply(GiveCard(gift))
    assert game.hands[0] == [gift] and game.hands[1] == []


def test_I_HAZ_2_empty_hand_means_no_penalty():
    game = four()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]
    arrange(game, positions={1: "Banana Jungle"}, hands={0: [snare], 1: []})
    events = game.apply(PlayHazard(snare, 1))
    assert game.phase == "phase2" and 1 not in game.eliminated
    assert any("no penalty" in e.text for e in events)


def test_I_HAZ_3_youre_out_eliminates_a_player_with_no_cards():
    game = four(youre_out=True)
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]
    arrange(game, positions={1: "Banana Jungle"}, hands={0: [snare], 1: []})
    game.apply(PlayHazard(snare, 1))
    assert 1 in game.eliminated and 1 not in game.order
    game.apply(Pass())
    assert game.current_player == 2  # seat 1 is skipped


def test_I_HAZ_4_hazard_on_doctor_lucky_is_foiled_with_its_value_alone():
    game = four()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]  # forest, value 3
    game.attack[0] = 5  # Attack does not add to a Hazard
    arrange(game, doctor="Banana Jungle", hands={0: [snare], 1: [], 2: [], 3: []})
    game.apply(PlayHazard(snare, DOCTOR))
    assert game.phase == "foil" and game.foil.value == 3 and game.foil.kind == "hazard"
    for _ in range(3):
        game.apply(Foil(()))
    assert game.is_over and game.winner == 0  # nobody had Luck: the thrower wins


def test_I_HAZ_4_and_I_HAZ_5_a_foiled_hazard_still_gives_move_and_the_turn_goes_on():
    game = four()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]
    three = card_ids(game, "failure", luck=3)[0]
    arrange(game, doctor="Banana Jungle", hands={0: [snare], 1: [three]})
    game.apply(PlayHazard(snare, DOCTOR))
    game.apply(Foil((three,)))
    assert not game.is_over
    assert game.move[0] == 2 and snare in game.under[0]
    assert game.phase == "phase2" and game.current_player == 0
    assert game.attack[0] == 1  # a Hazard never raises Attack


# -- drawing and attacking -------------------------------------------------------------------

def test_I_DRAW_1_draw_only_when_nobody_sees_you():
    game = four()
    arrange(game, positions={0: "Frog Pond", 1: "Sugar Farm"}, doctor=FAR, cat=FAR)
    game.apply(Pass())
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="seen by Janet|seen by Sara|seen by"):
        game.apply(Draw())
    assert snapshot(game) == before
    game = four()
    arrange(game, positions={0: "Frog Pond"}, doctor=FAR, cat=FAR)
    size = len(game.hands[0])
    game.apply(Pass())
    game.apply(Draw())
    assert len(game.hands[0]) == size + 1


def test_I_DRAW_1_no_hand_limit():
    game = four()
    arrange(game, positions={0: "Frog Pond"}, doctor=FAR, cat=FAR,
            hands={0: card_ids(game, "failure", n=20)})
    game.apply(Pass())
    game.apply(Draw())
    assert len(game.hands[0]) == 21


def test_I_KILL_1_attack_needs_doctor_lucky_alone_and_no_other_watcher():
    game = four()
    arrange(game, positions={0: "Frog Pond", 1: "Sunset Beach"}, doctor="Frog Pond", cat=FAR)
    game.apply(Pass())
    with pytest.raises(IllegalAction, match="seen by"):
        game.apply(Attack())
    game = four()
    arrange(game, positions={0: "Frog Pond", 1: "Frog Pond"}, doctor="Frog Pond",
            cat="Frog Pond")
    game.apply(Pass())
    with pytest.raises(IllegalAction, match="not alone"):
        game.apply(Attack())
    game = four()
    arrange(game, positions={0: "Frog Pond", 1: "Sunset Beach"}, doctor="Frog Pond",
            cat="Frog Pond")  # the cat hides us from Sunset Beach
    game.apply(Pass())
    assert game.can_attack(0)
    game.apply(Attack())
    assert game.phase == "foil"


def test_worked_example_5_I_KILL_2_beach_chair_value():
    game = four()
    chair = card_ids(game, "weapon", name="Beach Chair")[0]
    game.attack[0] = 3  # two failed attempts
    arrange(game, positions={0: "Sunset Beach"}, hands={0: [chair]})
    assert game.attack_value(0, chair) == 7
    arrange(game, positions={0: "Frog Pond"})
    assert game.attack_value(0, chair) == 5
    assert game.attack_value(0, None) == 3


def test_I_KILL_3_a_foiled_attack_raises_attack_and_keeps_the_weapon_as_marker():
    game = four()
    chair = card_ids(game, "weapon", name="Beach Chair")[0]
    fours = card_ids(game, "failure", n=2, luck=4)
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR,
            hands={0: [chair], 1: fours})
    game.apply(Pass())
    game.apply(Attack(chair))  # 1 + 4 = 5
    assert game.foil.value == 5
    game.apply(Foil(tuple(fours)))
    assert game.attack[0] == 2 and chair in game.under[0]
    assert_cards_accounted(game)


def test_I_KILL_3_bare_handed_uses_a_discard_as_marker():
    game = four()
    one = card_ids(game, "failure", luck=1)[0]
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR,
            hands={1: [one]})
    game.apply(Pass())
    game.apply(Attack())
    game.apply(Foil((one,)))
    assert game.under[0] == [one] and game.discards == [] and game.attack[0] == 2


# -- foiling ---------------------------------------------------------------------------------

def test_worked_example_6_I_FOIL_1_2_3_three_opponents_hold_2_0_5():
    def start():
        game = four()
        two = card_ids(game, "failure", luck=2)[0]
        four_ = card_ids(game, "failure", luck=4)[0]
        one = card_ids(game, "failure", luck=1)[0]
        arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR,
                hands={1: [two], 2: [], 3: [four_, one]})
        game.attack[0] = 4
        game.apply(Pass())
        game.apply(Attack())
        return game, four_, one

    game, four_, one = start()
    assert game.current_player == 1  # I-FOIL-1: starting at the attacker's left
    game.apply(Foil(()))
    game.apply(Foil(()))
    assert game.current_player == 3
    game.apply(Foil((four_,)))
    assert not game.is_over and game.attack[0] == 5  # foiled

    game, _, _ = start()
    for _ in range(3):
        game.apply(Foil(()))
    assert game.is_over and game.winner == 0 and game.loser == 3  # I-FOIL-3


def test_I_FOIL_2_later_players_are_not_asked_once_the_value_is_reached():
    game = four()
    three = card_ids(game, "failure", luck=3)[0]
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR,
            hands={1: [three], 2: card_ids(game, "failure", n=2, luck=4)})
    game.apply(Pass())
    game.apply(Attack())
    game.apply(Foil((three,)))
    assert game.foil is None and game.phase == "phase1" and game.active == 1
    assert [e for e in game.events if e.kind == "foil"][-1].data["seat"] == 1


def test_I_FOIL_1_every_cards_luck_counts_whatever_its_type():
    game = four()
    chair = card_ids(game, "weapon", name="Beach Chair")[0]  # Luck 1
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR,
            hands={1: [chair]})
    game.apply(Pass())
    game.apply(Attack())
    game.apply(Foil((chair,)))
    assert not game.is_over


def test_I_FOIL_3_there_may_be_no_loser():
    game = four()
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR,
            hands={1: [], 2: [], 3: []})
    game.apply(Pass())
    game.apply(Attack())
    for _ in range(3):
        game.apply(Foil(()))
    assert game.winner == 0 and game.loser is None


def test_I_FOIL_3_a_partial_discard_while_holding_enough_counts_as_passing():
    game = four()
    one, four_ = card_ids(game, "failure", luck=1)[0], card_ids(game, "failure", luck=4)[0]
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR,
            hands={1: [], 2: [one, four_], 3: []})
    game.attack[0] = 3
    game.apply(Pass())
    game.apply(Attack())
    game.apply(Foil(()))
    game.apply(Foil((one,)))
    game.apply(Foil(()))
    assert game.winner == 0 and game.loser == 2


def test_foil_with_cards_not_in_hand_is_refused_and_changes_nothing():
    game = four()
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR)
    game.apply(Pass())
    game.apply(Attack())
    before = snapshot(game)
    stranger = game.hands[2][0]
    with pytest.raises(IllegalAction, match="not in"):
        game.apply(Foil((stranger,)))
    with pytest.raises(IllegalAction, match="twice"):
        game.apply(Foil((game.hands[1][0], game.hands[1][0])))
    with pytest.raises(IllegalAction, match="not an action for foil"):
        game.apply(Draw())
    assert snapshot(game) == before


# -- Doctor Lucky between turns --------------------------------------------------------------

def test_I_DOC_1_doctor_lucky_steps_along_his_path_after_every_turn_24_to_1():
    game = four()
    board = game.board
    arrange(game, doctor=board.by_number(24))
    game.apply(Pass())
    events = game.apply(Pass())
    assert game.doctor == board.by_number(1)
    assert any(e.kind == "doctor_moves" for e in events)


def test_worked_example_8_I_DOC_2_empty_building_makes_short_hands_draw():
    game = four()
    board = game.board
    building = next(s for s in board.spaces if board.kind(s) == "building"
                    and board.kind(board.path[board.path.index(s) - 1]) != "building")
    before_building = board.path[board.path.index(building) - 1]
    arrange(game, doctor=before_building, hands={
        1: card_ids(game, "failure", n=2, luck=1),
        2: card_ids(game, "failure", n=3, luck=2)})
    game.apply(Pass())
    events = game.apply(Pass())
    assert game.doctor == building
    assert len(game.hands[1]) == 3 and len(game.hands[2]) == 3
    drawers = [e.data["seat"] for e in events if e.kind == "building_draw"]
    assert 1 in drawers and 2 not in drawers
    assert drawers == sorted(drawers, key=lambda s: (s - 0 - 1) % 4)  # from the active's left


def test_I_DOC_2_no_draws_when_the_building_has_a_player_in_it():
    game = four()
    board = game.board
    building = board.by_number(5)
    assert board.kind(building) == "building"
    arrange(game, doctor=board.by_number(4), positions={2: building},
            hands={1: card_ids(game, "failure", n=1)})
    game.apply(Pass())
    game.apply(Pass())
    assert len(game.hands[1]) == 1


def test_worked_example_3_I_DOC_3_the_turn_jumps_to_the_player_in_the_room():
    game = four()
    board = game.board
    room = board.by_number(10)
    arrange(game, doctor=board.by_number(9), positions={0: board.by_number(11), 2: room})
    game.apply(Move.to(0, room))  # Player 1 (seat 0) moves onto Player 3's (seat 2) space
    events = game.apply(Pass())
    assert game.doctor == room and game.current_player == 2
    assert "jumps to" in [e for e in events if e.kind == "doctor_moves"][0].text


def test_I_DOC_3_closest_to_the_left_of_the_last_active_player_who_counts_last():
    assert jump_target([0, 1, 2, 3], last_active=2, occupants=[2, 1]) == 1
    assert jump_target([0, 1, 2, 3], last_active=2, occupants=[2]) == 2
    game = four()
    board = game.board
    room = board.by_number(10)
    arrange(game, doctor=board.by_number(9), positions={0: room, 1: room, 3: room})
    game.apply(Pass())
    game.apply(Pass())
    assert game.current_player == 1


def test_I_DOC_3_riding_the_lucky_train():
    game = four()
    board = game.board
    arrange(game, doctor=board.by_number(9), positions={0: board.by_number(10)})
    game.apply(Pass())
    game.apply(Pass())
    assert game.current_player == 0  # re-activated by Doctor Lucky
    game.apply(Move.to(0, board.by_number(11)))
    game.apply(Pass())
    assert game.current_player == 0 and game.doctor == board.by_number(11)


def test_worked_example_4_I_DOC_4_no_jumps_in_the_first_round():
    game = new_game("island", players=4, seed=0)
    first = game.active
    board = game.board
    target = (first + 2) % 4
    ahead = board.next_on_path(game.doctor)
    arrange(game, positions={**all_far(game), target: ahead})
    game.apply(Pass())
    game.apply(Pass())
    assert game.doctor == ahead
    assert game.current_player == (first + 1) % 4  # the turn still passes left


def test_I_DOC_4_jumps_switch_on_at_the_end_of_the_last_seats_first_turn():
    game = new_game("island", players=4, seed=0)
    first = game.active
    last = (first - 1) % 4
    arrange(game, positions=all_far(game))
    for _ in range(3):  # three seats take their first turn
        game.apply(Pass())
        game.apply(Pass())
    assert game.current_player == last and not game._jumps_on
    ahead = game.board.next_on_path(game.doctor)
    arrange(game, positions={(first + 1) % 4: ahead})
    game.apply(Pass())
    game.apply(Pass())
    assert game.current_player == (first + 1) % 4  # the jump already applies


# -- Strangers -------------------------------------------------------------------------------

def test_I_STR_1_strangers_sit_between_players_and_start_on_empty_plains():
    game = new_game("island", players=3, seed=4)
    assert game.seats == (0, 1, 2, 3, 4, 5) and game.strangers == (1, 3, 5)
    spots = {game.position[s] for s in game.strangers}
    assert spots == {"Desperation Bluff", "Salient Point", "Lone Horse Ranch"}
    starts = set()
    for k in range(20):
        two = new_game("island", players=2, seed=k)
        starts.add(frozenset(two.position[s] for s in two.strangers))
    assert len(starts) > 1 and all(len(s) == 2 for s in starts)  # any two, seeded


def test_I_STR_1_strangers_can_be_switched_off_and_only_go_with_2_or_3():
    assert new_game("island", players=2, seed=1, strangers=False).strangers == ()
    with pytest.raises(ValueError, match="2 or 3 players"):
        new_game("island", players=5, seed=1, strangers=True)


def test_I_STR_2_strangers_hold_no_hand_and_live_players_get_7():
    game = new_game("island", players=2, seed=4)
    assert set(game.hands) == {0, 2}
    assert all(len(h) == 7 for h in game.hands.values())


def stranger_game(seed=3):
    game = new_game("island", players=2, seed=seed)
    arrange(game, positions={0: FAR, 1: FAR, 2: FAR, 3: FAR}, active=0, doctor=QUIET)
    game.phase = "phase1"
    game._had_turn = set(game.seats)
    game._jumps_on = True
    return game


def test_I_STR_3_a_stranger_foils_with_the_top_card_of_the_deck():
    game = stranger_game()
    top = game.deck[-1]
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR)
    game.apply(Pass())
    game.attack[0] = 99
    events = game.apply(Attack())
    assert game.discards[0] == top
    assert [e.data["seat"] for e in events if e.kind == "foil"] == [1]
    assert game.current_player == 2


def test_I_STR_4_a_stranger_walks_upstream_unless_it_can_attack():
    game = stranger_game()
    board = game.board
    arrange(game, positions={1: board.by_number(1)}, doctor=board.by_number(20))
    game.apply(Pass())
    game.apply(Pass())  # seat 1, a Stranger, plays now
    assert game.position[1] == board.by_number(24)  # 1 -> 24 upstream
    assert game.current_player == 2


def test_I_STR_5_a_stranger_attacks_when_it_can_and_grows_stronger():
    game = stranger_game()
    board = game.board
    target = board.by_number(14)
    arrange(game, positions={1: board.by_number(14)}, doctor=board.by_number(13), cat=FAR)
    game.apply(Pass())
    events = game.apply(Pass())  # Doctor Lucky walks in on the Stranger: its turn
    assert game.doctor == target
    attempts = [e for e in events if e.kind == "attempt"]
    assert attempts and attempts[0].data["seat"] == 1 and attempts[0].data["value"] == 1
    assert game.position[1] == target  # it stayed put to attack (I-STR-4)
    assert game.phase == "foil" and game.current_player == 2
    game.apply(Foil(tuple(game.hands[2])))
    if not game.is_over:
        assert game.attack[1] == 2


def test_I_STR_5_a_stranger_can_win():
    game = stranger_game()
    board = game.board
    arrange(game, positions={1: board.by_number(14)}, doctor=board.by_number(13), cat=FAR,
            hands={0: [], 2: []})
    zero_luck = [c for c in game.deck if game.cards[c].luck == 0]
    for c in zero_luck:  # Stranger 3 will turn up a card with no Luck
        game.deck.remove(c)
    game.deck.extend(zero_luck)
    game.apply(Pass())
    game.apply(Pass())
    game.apply(Foil(()))  # seat 2; then Stranger 3 turns up a card with no Luck
    game.apply(Foil(()))  # seat 0
    assert game.is_over and game.winner == 1 and game.result().winner_is_stranger


def test_I_STR_6_move_points_split_between_yourself_and_strangers():
    game = stranger_game()
    board = game.board
    arrange(game, positions={0: "Frog Pond", 1: "Sunset Beach", 3: "Lighthouse"})
    game.move[0] = 3
    game.apply(Move(((0, "Sugar Farm"), (1, "Old Mission"), (3, "Smuggler's Cove"))))
    assert game.position[1] == "Old Mission" and game.position[3] == "Smuggler's Cove"
    game = stranger_game()
    arrange(game, positions={0: "Frog Pond", 1: "Sunset Beach"})
    with pytest.raises(IllegalAction, match="takes 2 steps"):
        game.apply(Move(((0, "Sugar Farm"), (1, "Old Mission"))))
    assert board.distance("Frog Pond", "Sugar Farm") == 1


def test_I_STR_7_hazard_on_a_stranger_reveals_the_top_card():
    game = stranger_game()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]  # value 3
    zero = card_ids(game, "weapon", name="Shark Tooth")[0]  # Luck 0
    arrange(game, positions={1: "Banana Jungle"}, hands={0: [snare]})
    take_card(game, zero)
    game.deck.append(zero)
    game.apply(PlayHazard(snare, 1))
    assert zero in game.hands[0]  # not enough Luck: the thrower takes it
    game = stranger_game()
    four_ = card_ids(game, "failure", luck=4)[0]
    arrange(game, positions={1: "Banana Jungle"}, hands={0: [snare]})
    take_card(game, four_)
    game.deck.append(four_)
    game.apply(PlayHazard(snare, 1))
    assert four_ in game.discards
    assert_cards_accounted(game)


def test_I_STR_8_strangers_see_and_count_for_alone():
    game = stranger_game()
    snare = card_ids(game, "hazard", name="Hunting Snare")[0]
    arrange(game, positions={0: "Frog Pond", 1: "Sunset Beach", 2: "Banana Jungle",
                             3: "Banana Jungle"}, hands={0: [snare]}, cat=FAR, doctor=FAR)
    assert 1 in game.watchers(0)
    assert 2 not in game.hazard_targets(snare, 0)


# -- end -------------------------------------------------------------------------------------

def test_I_END_1_the_game_ends_when_doctor_lucky_dies():
    game = four()
    arrange(game, positions={0: "Sunset Beach"}, doctor="Sunset Beach", cat=FAR,
            hands={1: [], 2: [], 3: []})
    game.apply(Pass())
    game.apply(Attack())
    for _ in range(3):
        game.apply(Foil(()))
    assert game.is_over and game.finished and game.current_player is None
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        game.apply(Pass())
    result = game.result()
    assert result.finished and result.winner == 0 and result.attempts == 1


def test_I_END_2_a_turn_cap_stops_a_game_as_unfinished():
    game = new_game("island", players=4, seed=1, turn_cap=5)
    while not game.is_over:
        game.apply(Pass())
    assert game.turn == 5 and not game.finished and game.winner is None
    assert not game.result().finished


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="cat_blocks"):
        new_game("island", players=4, seed=1, cat_blocks="sideways")
    with pytest.raises(ValueError, match="turn_cap"):
        new_game("island", players=4, seed=1, turn_cap=0)
    with pytest.raises(TypeError):
        new_game("island", players=4, seed=1, colour="red")
    with pytest.raises(luckylab.UnknownGame, match="games: doctorwho, island"):
        new_game("chess", players=4, seed=1)
