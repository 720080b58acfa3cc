"""Save Doctor Lucky, rule by rule (``docs/rules/save.md``): every ``S-*`` rule, the four
worked examples, and properties of seeded games.

Seats are numbered from 0, so the rulebook's "player 1" is seat 0. Scenarios are arranged by
moving pawns and cards directly (cards are always *moved*, so all 90 stay accounted for).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from luckylab import IllegalAction, load_deck, new_game, replay
from luckylab.agents.save import AGENTS, DEFAULT
from luckylab.errors import OptionError
from luckylab.games.save import (
    DOCTOR,
    SELF,
    EndTurn,
    Foil,
    PlayMove,
    Rescue,
    SaveGame,
    Snoop,
    Step,
    foil_rules,
    sinking_boards,
)

CARDS = load_deck("save")
WHISKY = next(c.id for c in CARDS if c.name == "Whisky")
LIFEBOAT_SEAT = next(c.id for c in CARDS if c.name == "Lifeboat Seat")  # Aid 3, no special room
ONES = [c.id for c in CARDS if c.kind == "failure" and c.luck == 1]
TWOS = [c.id for c in CARDS if c.kind == "failure" and c.luck == 2]
THREES = [c.id for c in CARDS if c.kind == "failure" and c.luck == 3]
MOVE = {c.room: c.id for c in CARDS if c.kind == "move"}
FAR = "Cargo Hold"  # deck D, sees only the Mail Room: a good place to be out of the way


# -- arranging scenarios ---------------------------------------------------------------------


def take(game: SaveGame, seat: int, *cards: int) -> None:
    """Put ``cards`` into ``seat``'s hand from wherever they are."""
    for c in cards:
        for pile in game.piles.values():
            if c in pile:
                pile.remove(c)
        for hand in game.hands:
            if c in hand:
                hand.remove(c)
        if c in game.discards:
            game.discards.remove(c)
        game.hands[seat].append(c)


def empty_hands(game: SaveGame, *seats: int) -> None:
    for s in seats or game.seats:
        game.discards.extend(game.hands[s])
        game.hands[s].clear()


def arrange(game: SaveGame, positions: list[str], doctor: str, turn: int) -> SaveGame:
    game.positions[:] = positions
    game.doctor = doctor
    game.phase = "turn"
    game.turn_player = turn
    game._decider = turn
    game.step_used = False
    return game


def leave_in_pile(game: SaveGame, deck: str, n: int) -> None:
    """Discard all but the top ``n`` cards of a deck's pile."""
    pile = game.piles[deck]
    game.discards.extend(pile[:-n] if n else pile)
    del pile[:len(pile) - n]


def snapshot(game: SaveGame) -> tuple:
    attempt = game.attempt
    return (list(game.positions), game.doctor, [list(h) for h in game.hands],
            {d: list(p) for d, p in game.piles.items()}, list(game.discards), game.phase,
            game.current_player, game.turn_player, len(game.history), game.afloat,
            game.step_used, None if attempt is None else (attempt.needed, len(attempt.asked)),
            game.board)


def all_cards(game: SaveGame) -> list[int]:
    return sorted(c for cards in game.card_places().values() for c in cards)


def refused(game: SaveGame, action, match: str | None = None) -> None:
    """The action raises IllegalAction and changes nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=match):
        game.apply(action)
    assert snapshot(game) == before


# -- S-SETUP-* --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "hand"), [(3, 8), (4, 6), (5, 6), (6, 6), (7, 6)])
def test_S_SETUP_1_three_to_seven_players(players, hand):
    game = SaveGame(players, seed=1)
    assert [len(h) for h in game.hands] == [hand] * players
    assert all_cards(game) == list(range(90))


@pytest.mark.parametrize("players", [0, 1, 2, 8, True, "4"])
def test_S_SETUP_1_other_player_counts_are_refused(players):
    with pytest.raises(ValueError, match="3 to 7 players"):
        SaveGame(players, seed=1)


def test_S_SETUP_1_two_players_as_an_option_get_8_cards():
    game = SaveGame(2, seed=1, allow_two_players=True)
    assert [len(h) for h in game.hands] == [8, 8]
    assert game.options["allow_two_players"] is True


@pytest.mark.parametrize("seed", range(6))
def test_S_SETUP_2_start_rooms_dealt_from_move_cards_from_the_chosen_player_leftwards(seed):
    game = SaveGame(5, seed=seed)
    rng = random.Random(seed)
    first = rng.randrange(5)
    order = list(range(90))
    rng.shuffle(order)
    rooms = [CARDS[c].room for c in order if CARDS[c].kind == "move"]
    assert game.first_player == first == game.current_player  # the chosen player starts
    for i in range(5):
        assert game.positions[(first + i) % 5] == rooms[i]
    assert game.doctor == rooms[5]  # the next Move card places Doctor Lucky
    assert game.events[0].kind == "setup"


def test_S_SETUP_2_the_chosen_player_can_be_set():
    game = SaveGame(4, seed=9, first_player=2)
    assert game.current_player == 2 and game.options["first_player"] == 2


def test_S_SETUP_3_the_rest_makes_four_near_equal_piles_drawn_from_deck_D_first():
    game = SaveGame(4, seed=2)
    sizes = {d: len(p) for d, p in game.piles.items()}
    assert sum(sizes.values()) == 90 - 4 * 6
    assert max(sizes.values()) - min(sizes.values()) <= 1
    assert sizes["D"] >= sizes["A"]
    assert game.draw_deck == "D"
    seat = game.current_player
    top = game.piles["D"][-1]
    game.apply(Snoop(game.positions[seat]))
    assert top in game.hands[seat]
    assert len(game.piles["D"]) == sizes["D"] - 1
    assert {d: len(game.piles[d]) for d in "ABC"} == {d: sizes[d] for d in "ABC"}


# -- S-TURN-1, S-SNOOP-1, S-ACT-* ------------------------------------------------------------


def four(seed: int = 0, **options) -> SaveGame:
    game = SaveGame(4, seed=seed, **options)
    return arrange(game, ["Captain's Cabin", FAR, FAR, FAR], "Library", turn=0)


def test_S_TURN_1_the_first_action_makes_the_turn_snooping_or_active():
    game = four()
    kinds = {type(a) for a in game.legal_actions()}
    assert {Snoop, Step, EndTurn} <= kinds
    game.apply(Step("Bridge"))
    assert game.phase == "active"
    assert not any(isinstance(a, Snoop) for a in game.legal_actions())
    refused(game, Snoop("Bridge"), "not an action now")


def test_S_SNOOP_1_one_step_then_draw_one_card():
    game = four()
    hand = len(game.hands[0])
    events = game.apply(Snoop("Bridge"))
    assert game.positions[0] == "Bridge"
    assert len(game.hands[0]) == hand + 1
    assert events[0].kind == "snoop" and events[0].data["deck"] == "D"


def test_S_SNOOP_1_staying_put_is_a_snoop_too():
    game = four()
    game.apply(Snoop("Captain's Cabin"))
    assert game.positions[0] == "Captain's Cabin"


@pytest.mark.parametrize("to", ["Chart Room", "Galley", "Nowhere Deck"])
def test_S_SNOOP_1_farther_than_one_step_is_refused(to):
    refused(four(), Snoop(to))


def test_S_ACT_1_one_free_step_and_move_cards_before_and_after_it_no_draw():
    game = four()
    empty_hands(game, 0)
    take(game, 0, MOVE["Galley"], MOVE["Bridge"])
    piles = {d: len(p) for d, p in game.piles.items()}
    game.apply(PlayMove(MOVE["Galley"], SELF, "Galley"))  # to the room it names
    game.apply(Step("Chart Room"))                         # the free step
    refused(game, Step("Bridge"), "already took your free step")
    game.apply(PlayMove(MOVE["Bridge"], SELF, "Bridge"))   # and another card after it
    assert game.positions[0] == "Bridge"
    assert game.hands[0] == []
    game.apply(EndTurn())
    assert {d: len(p) for d, p in game.piles.items()} == piles  # an active turn draws nothing


def test_S_ACT_1_a_move_card_goes_to_its_room_or_up_to_its_steps_for_you_or_doctor_lucky():
    game = four()
    card = MOVE["Bridge"]  # Bridge is room 0: printed Move 1
    take(game, 0, card)
    assert game.step_value(card) == 1
    assert game.move_destinations(card, "Library") == {"Bridge", "Dining Saloon", "Mail Room"}
    legal = game.legal_actions()
    assert PlayMove(card, DOCTOR, "Bridge") in legal
    assert PlayMove(card, DOCTOR, "Mail Room") in legal           # Library -> Mail Room: 1 step
    refused(game, PlayMove(card, DOCTOR, "Gymnasium"), "up to 1 step")  # 2 steps
    refused(game, PlayMove(card, "cat", "Bridge"), "yourself")
    refused(game, PlayMove(WHISKY, SELF, "Bridge"))                # not in hand / not a Move
    game.apply(PlayMove(card, DOCTOR, "Mail Room"))
    assert game.doctor == "Mail Room" and card in game.discards


def test_S_ACT_1_a_card_that_would_move_nobody_is_refused():
    game = four()
    take(game, 0, MOVE["Captain's Cabin"])
    refused(game, PlayMove(MOVE["Captain's Cabin"], SELF, "Captain's Cabin"))


@pytest.mark.parametrize(("room", "printed", "by_deck"), [
    ("Pump Room", 2, 3),   # deck D counts as Move 3
    ("Galley", 3, 2),      # deck C as Move 2
    ("Library", 3, 1),     # deck B as Move 1
    ("Bridge", 1, 0),      # deck A: no step value
])
def test_S_ACT_2_optional_step_values_by_the_deck_of_the_named_room(room, printed, by_deck):
    assert four().step_value(MOVE[room]) == printed
    game = four(deck_steps=True)
    assert game.step_value(MOVE[room]) == by_deck
    if by_deck == 0:
        assert game.move_destinations(MOVE[room], "Library") == {room}


def test_S_ACT_2_pile_reading_counts_the_deck_whose_pile_the_card_came_from():
    """S-ACT-2, "came out of deck D" read as *drawn from deck D's pile*: a Move card naming
    the Bridge (deck A) drawn from D's pile counts as Move 3; dealt cards keep their value."""
    game = four(deck_steps="pile")
    card = MOVE["Bridge"]
    take(game, 1, card)
    assert game.step_value(card) == 1  # dealt, not drawn: printed value
    game.hands[1].remove(card)
    deck = game.draw_deck
    game.piles[deck].append(card)  # on top of the pile of the lowest deck afloat
    game.apply(Snoop(game.positions[0]))
    assert deck == "D" and card in game.hands[0]
    assert game.step_value(card) == 3
    assert four(deck_steps="room").step_value(card) == 0  # the room reading: deck A


def test_S_ACT_2_room_reading_is_true_and_bad_values_are_refused():
    assert four(deck_steps=True).step_value(MOVE["Pump Room"]) == 3
    assert four(deck_steps="room").step_value(MOVE["Pump Room"]) == 3
    for bad in ("yes", 1, None, "Pile"):
        with pytest.raises(OptionError, match="deck_steps"):
            SaveGame(4, seed=0, deck_steps=bad)


def test_S_ACT_2_pile_reading_games_replay():
    game = play(SaveGame(5, seed=11, deck_steps="pile"), DEFAULT, 11)
    again = replay(game.record())
    assert again.result() == game.result()
    assert [e.text for e in again.events] == [e.text for e in game.events]


def test_S_FAIL_2_the_loser_award_is_optional():
    """S-FAIL-2: "you may give" a loser award: with loser_award=False nobody is named."""
    game = arrange(SaveGame(4, seed=5, loser_award=False),
                   ["Captain's Cabin", "Radio Room", FAR, FAR], "Captain's Cabin", turn=0)
    empty_hands(game)
    take(game, 1, ONES[0])
    game.apply(Rescue(None))
    for _ in range(3):
        events = game.apply(Foil())
    assert game.winner == 0 and game.loser is None
    assert "Player 2 could have stopped it" in events[-1].text  # still reported
    assert game.record()["options"]["loser_award"] is False
    with pytest.raises(OptionError, match="loser_award"):
        SaveGame(4, seed=5, loser_award="no")


# -- S-SAVE-* ----------------------------------------------------------------------------------


def rescue_scene(players: int = 4, witness_room: str = "Radio Room") -> SaveGame:
    game = SaveGame(players, seed=5)
    positions = ["Captain's Cabin", witness_room] + [FAR] * (players - 2)
    return arrange(game, positions, "Captain's Cabin", turn=0)


def test_S_SAVE_1_a_witness_in_straight_line_sight_allows_a_rescue():
    game = rescue_scene(witness_room="Radio Room")
    assert game.witnesses(0) == [1]
    assert Rescue(None) in game.legal_actions()


def test_S_SAVE_1_a_witness_in_the_same_room_counts():
    game = rescue_scene(witness_room="Captain's Cabin")
    assert game.rescue_problem(0) is None


def test_S_SAVE_1_you_must_be_in_doctor_lucky_room():
    game = rescue_scene()
    game.doctor = "Bridge"
    assert not any(isinstance(a, Rescue) for a in game.legal_actions())
    refused(game, Rescue(None), "Doctor Lucky is in Bridge")


def test_worked_example_4_alone_with_doctor_lucky_and_unseen_no_rescue_is_possible():
    """S-SAVE-1: alone in his room and nobody can see you: no attempt."""
    game = rescue_scene(witness_room="First-Class Lounge")  # two misaligned doors away
    assert game.witnesses(0) == []
    assert not any(isinstance(a, Rescue) for a in game.legal_actions())
    refused(game, Rescue(None), "needs a witness")


def test_S_SAVE_1_a_rescue_is_the_end_of_an_active_turn():
    game = rescue_scene()
    game.apply(Rescue(None))
    assert game.phase == "foil" and game.current_player == 1  # asked from the rescuer's left
    refused(game, Step("Bridge"), "not an action now")
    refused(game, Rescue(None), "not an action now")


def test_S_SAVE_2_an_aid_card_sets_the_value_higher_in_its_room():
    game = rescue_scene()
    assert game.rescue_value(None, "Captain's Cabin") == 1
    assert game.rescue_value(WHISKY, "Captain's Cabin") == 6
    assert game.rescue_value(WHISKY, "Bridge") == 2
    take(game, 0, WHISKY, ONES[0])
    refused(game, Rescue(ONES[0]), "not an Aid card")
    game.apply(Rescue(WHISKY))
    assert game.attempt.value == 6 and WHISKY in game.discards


# -- S-FAIL-* ----------------------------------------------------------------------------------


def test_S_FAIL_1_each_other_player_once_from_the_left_until_it_is_stopped():
    game = rescue_scene()
    game.turn_player = game._decider = 2  # seat 2 rescues from its room
    game.positions[:] = [FAR, "Radio Room", "Captain's Cabin", FAR]
    empty_hands(game)
    take(game, 0, ONES[0])
    game.apply(Rescue(None))
    assert game.attempt.order == [3, 0, 1]
    game.apply(Foil())
    game.apply(Foil((ONES[0],)))
    assert game.attempt is None and not game.is_over  # foiled; seat 1 was never asked
    assert game.attempt_log[-1]["foiled_by"] == 0
    assert [s for s, _ in game.attempt_log[-1]["asked"]] == [3, 0]


def test_S_FAIL_1_only_failure_cards_and_none_past_the_one_that_stops_it():
    game = rescue_scene()
    empty_hands(game)
    take(game, 1, ONES[0], ONES[1], THREES[0], LIFEBOAT_SEAT)
    game.apply(Rescue(None))  # worth 1
    refused(game, Foil((LIFEBOAT_SEAT,)), "not a Failure card")
    refused(game, Foil((ONES[0], ONES[1])), "play fewer cards")
    refused(game, Foil((ONES[0], THREES[0])), "play fewer cards")
    refused(game, Foil((ONES[0], ONES[0])), "twice")
    assert Foil((THREES[0],)) in game.legal_actions()  # one big card is fine
    game.apply(Foil((ONES[0],)))
    assert game.attempt is None


def test_S_FAIL_2_the_loser_is_the_last_player_who_could_have_stopped_it():
    game = rescue_scene()
    empty_hands(game)
    take(game, 1, ONES[0])
    take(game, 2, ONES[1])
    game.apply(Rescue(None))
    game.apply(Foil())  # seat 1 could have, and passes
    game.apply(Foil())  # seat 2 could have, and passes
    game.apply(Foil())  # seat 3 holds nothing
    assert game.is_over and game.winner == 0 and game.loser == 2
    assert game.result().finished and game.result().extra["end"] == "rescued"


def test_S_FAIL_2_nobody_loses_when_nobody_could_have_stopped_it():
    game = rescue_scene()
    empty_hands(game)
    game.apply(Rescue(None))
    for _ in range(3):
        game.apply(Foil())
    assert game.winner == 0 and game.loser is None


def test_S_FAIL_3_the_last_player_asked_may_not_pass_holding_enough():
    game = rescue_scene()
    empty_hands(game)
    take(game, 3, ONES[0])
    game.apply(Rescue(None))
    game.apply(Foil())
    game.apply(Foil())
    assert game.current_player == 3 and game.attempt.is_last_asked
    assert Foil() not in game.legal_actions()
    refused(game, Foil(), "S-FAIL-3")
    game.apply(Foil((ONES[0],)))
    assert not game.is_over


def test_S_FAIL_3_option_off_lets_the_last_player_pass_and_lose():
    game = rescue_scene()
    game.last_must_foil = False
    empty_hands(game)
    take(game, 3, ONES[0])
    game.apply(Rescue(None))
    for _ in range(3):
        game.apply(Foil())
    assert game.winner == 0 and game.loser == 3


def test_S_FAIL_3_a_last_player_short_of_points_may_pass():
    game = rescue_scene()
    empty_hands(game)
    take(game, 0, LIFEBOAT_SEAT)
    take(game, 3, ONES[0], ONES[1])
    game.apply(Rescue(LIFEBOAT_SEAT))  # worth 3
    game.apply(Foil())
    game.apply(Foil())
    assert Foil() in game.legal_actions()
    game.apply(Foil((ONES[0], ONES[1])))  # short by one: the attempt succeeds
    assert game.winner == 0 and game.loser is None


def test_worked_example_1_whisky_in_the_captains_cabin_foiled_by_players_4_5_6():
    game = rescue_scene(players=6)
    empty_hands(game)
    take(game, 0, WHISKY)
    take(game, 1, ONES[0])  # players 2 and 3 pass, guessing the others hold enough
    take(game, 3, ONES[1], ONES[2], TWOS[0])
    take(game, 4, THREES[0])
    take(game, 5, ONES[3])
    game.apply(Rescue(WHISKY))
    assert game.attempt.value == 6
    game.apply(Foil())                        # player 2
    game.apply(Foil())                        # player 3
    game.apply(Foil((ONES[1], ONES[2])))      # player 4: two 1-point Failures
    assert game.attempt.needed == 4
    game.apply(Foil((THREES[0],)))            # player 5: a 3-point Failure
    assert game.attempt.needed == 1
    events = game.apply(Foil((ONES[3],)))     # player 6: the last point
    assert events[0].kind == "foiled"
    assert not game.is_over and game.winner is None  # play goes on
    assert all_cards(game) == list(range(90))


# -- S-DOC-* -----------------------------------------------------------------------------------


def doctor_after_one_turn(doctor: str) -> str:
    game = arrange(SaveGame(4, seed=3), [FAR] * 4, doctor, turn=0)
    game.apply(EndTurn())
    return game.doctor


@pytest.mark.parametrize(("start", "end"), [
    ("Bridge", "Captain's Cabin"),          # 0 -> 1
    ("Officers' Mess", "Galley"),           # 10 -> 11, down a deck (a jump, not a walk)
    ("Pump Room", "Bridge"),                # 22 -> 0
])
def test_S_DOC_1_from_a_numbered_room_to_the_next_number(start, end):
    assert doctor_after_one_turn(start) == end


@pytest.mark.parametrize(("start", "end"), [
    ("Boat Deck Landing", "First-Class Lounge"),  # 3 beats Radio Room's 2
    ("Saloon Landing", "Turkish Bath"),           # 14 beats Crew Quarters' 13
    ("Promenade Landing", "Purser's Office"),     # the other landings have no number
    ("Firemen's Passage", "Engine Room"),         # 19 beats Baggage Room's 18
])
def test_S_DOC_2_from_an_unnumbered_room_to_the_highest_numbered_neighbour(start, end):
    assert doctor_after_one_turn(start) == end


def sink_bottom_deck(game: SaveGame) -> list:
    """The current player snoops the last card of the lowest deck's pile."""
    leave_in_pile(game, game.draw_deck, 1)
    seat = game.current_player
    return game.apply(Snoop(game.positions[seat]))


def test_S_DOC_3_his_deck_sinks_highest_room_above_then_lowest_then_the_path_skipping_sunk():
    game = arrange(SaveGame(4, seed=3), ["Bridge", "Bridge", "Bridge", "Bridge"],
                   "Engine Room", turn=0)
    events = sink_bottom_deck(game)
    kinds = [e.kind for e in events]
    assert kinds.index("sink") < kinds.index("doctor_floats")
    assert "doctor_moves" not in kinds  # floating up was his move this turn
    assert game.doctor == "Mail Room"   # 16: the highest number on deck C
    game.apply(EndTurn())
    assert game.doctor == "Galley"      # 11: the lowest number on deck C
    path = []
    for _ in range(6):
        game.apply(EndTurn())
        path.append(game.board.number(game.doctor))
    assert path == [12, 13, 14, 15, 16, 0]  # 17..22 sank with deck D


def test_S_DOC_3_floating_up_onto_players_makes_the_turn_jump():
    """Our ruling: floating up is his move for the turn, so it can send the turn (S-DOC-4)."""
    game = arrange(SaveGame(4, seed=3), ["Bridge", "Bridge", "Mail Room", "Bridge"],
                   "Engine Room", turn=0)
    events = sink_bottom_deck(game)
    assert game.doctor == "Mail Room"
    assert game.current_player == 2 and events[-2].kind == "turn_jumps"


def test_S_DOC_3_a_card_moving_him_after_he_floats_up_voids_the_pending_move():
    """S-DOC-3 ruling: a Move card that moves Doctor Lucky before his next own move cancels the
    pending move to the lowest-numbered room of that deck; he goes on by S-DOC-1/S-DOC-2."""
    game = arrange(SaveGame(4, seed=3), ["Bridge", "Bridge", "Bridge", "Bridge"],
                   "Engine Room", turn=0)
    sink_bottom_deck(game)
    assert game.doctor == "Mail Room" and game.doctor_next() == "Galley"
    seat = game.current_player
    take(game, seat, MOVE["Library"])
    game.apply(PlayMove(MOVE["Library"], DOCTOR, "Library"))
    assert game.doctor_next() == game.board.next_on_path("Library")
    game.apply(EndTurn())
    assert game.doctor != "Galley" and game.board.number(game.doctor) == 6  # Library is 5


def test_S_DOC_3_a_card_moving_a_player_keeps_the_pending_move():
    game = arrange(SaveGame(4, seed=3), ["Bridge", "Bridge", "Bridge", "Bridge"],
                   "Engine Room", turn=0)
    sink_bottom_deck(game)
    seat = game.current_player
    take(game, seat, MOVE["Library"])
    game.apply(PlayMove(MOVE["Library"], SELF, "Library"))
    game.apply(EndTurn())
    assert game.doctor == "Galley"


def test_S_DOC_4_worked_example_2_doctor_lucky_walks_in_on_player_1_after_player_4():
    game = arrange(SaveGame(4, seed=3), ["First-Class Lounge", "Library", "Library", "Library"],
                   "Radio Room", turn=3)
    events = game.apply(EndTurn())
    assert game.doctor == "First-Class Lounge"
    assert game.current_player == 0
    assert any(e.kind == "turn_jumps" for e in events)
    game.apply(EndTurn())                # Doctor Lucky walks on to the empty Smoking Room
    assert game.current_player == 1      # play continues from player 1's left


def test_S_DOC_4_worked_example_3_several_players_the_closest_to_the_left_goes():
    rooms = [FAR] * 6
    for seat in (2, 4, 5):  # players 3, 5 and 6
        rooms[seat] = "First-Class Lounge"
    game = arrange(SaveGame(6, seed=3), rooms, "Radio Room", turn=5)
    game.apply(EndTurn())
    assert game.current_player == 2  # player 3


def test_S_DOC_4_the_last_active_player_alone_there_goes_again():
    game = arrange(SaveGame(4, seed=3), ["First-Class Lounge", FAR, FAR, FAR],
                   "Radio Room", turn=0)
    game.apply(EndTurn())
    assert game.current_player == 0  # riding the Lucky Train


def test_S_DOC_4_moving_him_with_a_card_never_changes_the_turn_order():
    game = arrange(SaveGame(4, seed=3), [FAR, FAR, "Radio Room", FAR], "Bridge", turn=0)
    take(game, 0, MOVE["Radio Room"])
    events = game.apply(PlayMove(MOVE["Radio Room"], DOCTOR, "Radio Room"))
    assert game.doctor == "Radio Room" and not any(e.kind == "turn_jumps" for e in events)
    game.apply(EndTurn())  # his own move: Radio Room (2) -> First-Class Lounge (3), empty
    assert game.current_player == 1


# -- S-SINK-* ----------------------------------------------------------------------------------


def test_S_SINK_1_an_empty_pile_sinks_its_deck_at_the_end_of_the_turn_pawns_float_up():
    game = arrange(SaveGame(4, seed=4), ["Cargo Hold", "Pump Room", "Bridge", "Engine Room"],
                   "Officers' Mess", turn=0)
    take(game, 0, MOVE["Boiler Room"])
    events = sink_bottom_deck(game)
    kinds = [e.kind for e in events]
    assert kinds.index("sink") < kinds.index("doctor_moves")  # sinking comes first
    assert game.afloat == ("A", "B", "C") and game.sunk == ("D",)
    assert game.draw_deck == "C"
    assert game.board is sinking_boards(game._boards[0])[1]
    assert "Cargo Hold" not in game.board and "Cargo Hold" not in game.board.graph
    assert all("Cargo Hold" not in game.board.visible_from(s) for s in game.board.spaces)
    # the lowest-numbered room of the deck above is the Galley (11)
    assert game.positions == ["Galley", "Galley", "Bridge", "Galley"]
    # ... and Doctor Lucky, moving after the sinking (10 -> 11), walks in on them
    assert game.doctor == "Galley"
    assert game.current_player == 1  # the floated pawn closest to seat 0's left
    # A Move card naming a sunken room keeps its steps (Boiler Room: printed Move 3).
    assert game.move_destinations(MOVE["Boiler Room"], "Galley") == (
        game.board.reachable("Galley", 3) - {"Galley"})
    game.turn_player = game._decider = 0
    refused(game, Step("Pump Room"), "has sunk")
    game.turn_player = game._decider = 1
    top = game.piles["C"][-1]
    game.apply(Snoop("Galley"))
    assert top in game.hands[1]  # drawn from deck C now
    assert all_cards(game) == list(range(90))


def test_S_SINK_2_when_deck_A_sinks_the_game_ends_with_no_winner():
    game = SaveGame(4, seed=8)
    for deck in "DCB":
        sink_bottom_deck(game)
        assert deck not in game.afloat and not game.is_over
        assert all(game.board.space(p).deck in game.afloat for p in game.positions)
        assert game.board.space(game.doctor).deck in game.afloat
    sink_bottom_deck(game)
    assert game.is_over and game.current_player is None and game.legal_actions() == []
    assert game.winner is None and game.loser is None
    result = game.result()
    assert result.finished and result.extra == {**result.extra, "end": "sunk", "decks_sunk": 4}
    refused(game, EndTurn(), "over")
    assert all_cards(game) == list(range(90))


# -- the state machine: refusals, replays ------------------------------------------------------


@pytest.mark.parametrize("action", [
    "snoop", None, Foil(), Rescue(None), Step("Galley"), Step("Bridj"),
    PlayMove(999, SELF, "Bridge"), Rescue(WHISKY),
])
def test_illegal_actions_raise_and_change_nothing(action):
    game = four()
    refused(game, action)


def test_an_unknown_room_name_is_refused_with_a_suggestion():
    game = four()
    with pytest.raises(IllegalAction, match="did you mean 'Bridge'"):
        game.apply(Step("Bridje"))


def test_actions_round_trip_through_plain_data():
    actions = [Snoop("Bridge"), Step("Galley"), PlayMove(3, DOCTOR, "Library"), Rescue(None),
               Rescue(7), EndTurn(), Foil(), Foil((40, 41))]
    for action in actions:
        assert SaveGame.action_from_data(action.to_data()) == action
        assert str(action)
    with pytest.raises(IllegalAction):
        SaveGame.action_from_data({"type": "teleport"})


def play(game: SaveGame, agent_name: str, seed: int, check=None) -> SaveGame:
    agents = [AGENTS[agent_name](seed=seed * 31 + s) for s in game.seats]
    while not game.is_over:
        action = agents[game.current_player].choose(game)
        if check:
            check(game, action)
        game.apply(action)
    return game


def test_a_record_replays_bit_for_bit():
    game = play(SaveGame(5, seed=11, deck_steps=True), DEFAULT, 11)
    again = replay(game.record())
    assert snapshot(again)[:-1] == snapshot(game)[:-1]
    assert again.result() == game.result()
    assert [e.text for e in again.events] == [e.text for e in game.events]


def test_new_game_face_and_options():
    game = new_game("save", players=4, seed=1)
    assert isinstance(game, SaveGame) and game.game_name == "save"
    assert game.options == {"allow_two_players": False, "hand_size": None, "deck_steps": False,
                            "last_must_foil": True, "first_player": None, "turn_cap": 2000}
    clone = game.clone()
    clone.apply(clone.legal_actions()[0])
    assert len(game.history) == 0 and clone.board is game.board


@pytest.mark.parametrize("options", [
    {"hand_size": -1}, {"hand_size": 30}, {"first_player": 4}, {"turn_cap": 0},
])
def test_bad_options_are_refused(options):
    with pytest.raises(ValueError):
        SaveGame(4, seed=1, **options)


def test_the_hand_size_can_be_changed():
    game = SaveGame(4, seed=1, hand_size=3)
    assert [len(h) for h in game.hands] == [3] * 4
    assert all_cards(game) == list(range(90))


def test_a_turn_cap_stops_a_game_as_unfinished():
    game = SaveGame(3, seed=1, turn_cap=5)
    while not game.is_over:
        game.apply(EndTurn())  # nobody ever snoops: the ship would never sink
    assert game.turns == 5 and not game.result().finished


# -- properties of seeded games ----------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 7),
       agent=st.sampled_from(sorted(AGENTS)), deck_steps=st.booleans())
def test_property_seeded_games_keep_all_90_cards_end_and_never_rescue_unseen(
        seed, players, agent, deck_steps):
    rng = random.Random(seed)

    def check(game: SaveGame, action) -> None:
        assert all_cards(game) == list(range(90))
        legal = game.legal_actions()
        assert action in legal
        if isinstance(action, Rescue):
            seat = game.current_player
            assert game.positions[seat] == game.doctor
            witnesses = game.witnesses(seat)
            assert witnesses and all(
                game.board.sees(game.positions[w], game.doctor) for w in witnesses)
        if rng.random() < 0.05:  # now and then: every listed action is accepted
            for other in legal:
                game.clone().apply(other)

    game = play(SaveGame(players, seed=seed, deck_steps=deck_steps), agent, seed, check)
    assert game.is_over and game.result().finished
    assert all_cards(game) == list(range(90))
    assert (game.winner is None) == (game.end_reason == "sunk")
    for attempt in game.attempt_log:
        assert attempt["value"] >= 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120), junk=st.data())
def test_property_a_refused_action_changes_nothing(seed, steps, junk):
    game = SaveGame(4, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    room = junk.draw(st.sampled_from(sorted(game._boards[0].spaces)))
    card = junk.draw(st.integers(0, 89))
    candidates = [Snoop(room), Step(room), PlayMove(card, SELF, room),
                  PlayMove(card, DOCTOR, room), Rescue(card), EndTurn(), Foil((card,)), Foil()]
    legal = game.legal_actions()
    for action in candidates:
        if isinstance(action, Foil) and game.phase == "foil":
            # legal_actions lists one discard per combination of point values: ask the rules
            rules = foil_rules(game.cards, game.last_must_foil)
            if rules.problem(game.hands[game.current_player], action.cards,
                             game.attempt) is None:
                continue
        elif action in legal:
            continue
        refused(game, action)


# -- the rulings corrected in docs/rules/save.md (issue 15) -------------------------------------



def test_S_DOC_3_a_card_that_moves_him_after_floating_up_voids_the_pending_move():
    """S-DOC-3 ruling: moved by a card before his next own move, he goes on from where he
    stands by S-DOC-1/S-DOC-2 instead of going to the lowest room of the deck."""
    game = arrange(SaveGame(4, seed=3), ["Bridge", "Bridge", "Bridge", "Bridge"],
                   "Engine Room", turn=0)
    sink_bottom_deck(game)
    assert game.doctor == "Mail Room"  # floated up; his next own move would go to the Galley
    seat = game.current_player
    take(game, seat, MOVE["Library"])
    game.apply(PlayMove(MOVE["Library"], DOCTOR, "Library"))
    game.apply(EndTurn())
    library = game.board.number("Library")
    assert game.board.number(game.doctor) == library + 1
    assert game.doctor != "Galley"



def test_S_ACT_2_optional_step_values_by_the_pile_the_card_was_drawn_from():
    """S-ACT-2, the pile reading (the source's words): a Move card drawn from deck D's pile
    counts as Move 3, whatever room it names."""
    game = four(deck_steps="pile")
    card = MOVE["Bridge"]  # names a room on deck A
    for pile in game.piles.values():
        if card in pile:
            pile.remove(card)
    for hand in game.hands:
        if card in hand:
            hand.remove(card)
    game.piles[game.draw_deck].append(card)  # the top of the lowest pile
    seat = game.current_player
    game.apply(Snoop(game.positions[seat]))
    assert card in game.hands[seat] and game.step_value(card) == 3
    assert four(deck_steps="room").step_value(card) == 0
