"""Doctor Who: The Card Game rules, one test (or more) per rule ID of the rules file (the users'
copy is docs/rules/doctorwho.md), its eight worked examples, its rulings and every card's text.

Positions are staged: a fresh game with every hand emptied back into the deck, then the cards a
test needs moved from the deck to hands, reserves and Locations (so every card stays in exactly
one place).
"""

from __future__ import annotations

import pytest

from luckylab import DeckError, IllegalAction, load_deck, new_game, replay
from luckylab.cards import deck_from_data
from luckylab.cards.doctorwho import LABELS, RULEBOOK_NAMES
from luckylab.games.doctorwho import (
    Attack,
    Buy,
    Defend,
    Discard,
    DoctorWhoGame,
    Loc,
    MatchDiscard,
    Pass,
    PlayLocation,
    PlaySupport,
    Reserve,
    TakeOver,
    UseIronsides,
    UseValiant,
    match_options,
    score,
)

DECK = load_deck("doctor-who")


def cid(name: str, strength: int | None = None, n: int = 0) -> int:
    """The id of the ``n``-th card called ``name`` (with ``strength``)."""
    found = [c.id for c in DECK if c.name == name and (strength is None or c.strength == strength)]
    return found[n]


def stage(players: int = 3, **options) -> DoctorWhoGame:
    """Seat 0 goes first; every hand is emptied into the bottom of the deck."""
    game = DoctorWhoGame(players=players, seed=0,
                         starting=tuple(range(4, 4 - players, -1)), **options)
    for s in range(players):
        game.deck[0:0] = game.hands[s]
        game.hands[s] = []
    return game


def _pull(game: DoctorWhoGame, c: int) -> None:
    assert c in game.deck, f"card {c} ({DECK[c].name}) is not in the deck"
    game.deck.remove(c)


def give(game: DoctorWhoGame, seat: int, *cards: int, reserve: bool = False) -> None:
    for c in cards:
        _pull(game, c)
        (game.reserves if reserve else game.hands)[seat].append(c)


def filler(game: DoctorWhoGame, seat: int, n: int = 3) -> list[int]:
    """``n`` Location cards no test plays, for ``seat``'s hand, to stay above the floor."""
    busy = {"Skaro", "Starship UK", "Trenzalore", "Leadworth", "Midnight"}
    out = [c for c in game.deck if DECK[c].kind == "location" and DECK[c].name not in busy][:n]
    give(game, seat, *out)
    return out


def place(game: DoctorWhoGame, seat: int, loc: int, defenders=(), enemies=(), attacker=None,
          up=False, tardis=False) -> Loc:
    _pull(game, loc)
    for c in (*defenders, *enemies):
        _pull(game, c)
    game.locs[loc] = Loc(owner=seat, defenders=list(defenders), enemies=list(enemies),
                         up=set(enemies) if up else set(), attacker=attacker, tardis=tardis)
    game.lines[seat].append(loc)
    return game.locs[loc]


def accounted(game: DoctorWhoGame) -> bool:
    return sorted(c for cs in game.card_places().values() for c in cs) == list(range(len(DECK)))


LOC3 = cid("Skaro")        # 3 VP, 1 TP
LOC2 = cid("Starship UK")  # 2 VP, 1 TP
LOC4 = cid("Trenzalore")   # 4 VP, 0 TP
LOC1 = cid("Leadworth")    # 1 VP, 3 TP


# -- the deck ---------------------------------------------------------------------------------


def test_deck_has_127_game_cards_4_starting_locations_and_the_end_card():
    kinds = [c.kind for c in DECK]
    assert len(DECK) == 132
    assert sum(k in ("defender", "enemy", "location", "support") for k in kinds) == 127
    assert kinds.count("starting") == 4 and kinds.count("end") == 1
    assert sorted(c.number for c in DECK if c.kind == "starting") == [1, 2, 3, 4]


def test_deck_counts_and_values_are_inside_the_rules_constraints():
    count = {k: sum(c.kind == k for c in DECK) for k in ("location", "defender", "enemy",
                                                          "support")}
    assert 20 <= count["location"] <= 28 and 30 <= count["defender"] <= 40
    assert 38 <= count["enemy"] <= 50 and 20 <= count["support"] <= 28
    assert all(1 <= c.strength <= 5 for c in DECK if c.kind in ("defender", "enemy"))
    assert all(1 <= c.vp <= 4 and 0 <= c.tp <= 3 for c in DECK if c.kind == "location")
    assert any(c.kind == "enemy" and c.strength == 1 for c in DECK)
    assert sum(c.name == "The Doctor" for c in DECK) >= 4
    assert len({c.picture for c in DECK if c.name == "The Doctor"}) == 4


@pytest.mark.parametrize("name", RULEBOOK_NAMES)
def test_every_rulebook_card_is_in_the_deck_with_its_text_and_labelled_values(name):
    card = next(c for c in DECK if c.name == name)
    assert card.text and card.sources["text"] == "rulebook" and card.sources["name"] == "rulebook"
    assert set(card.sources.values()) <= set(LABELS)


def test_every_value_of_every_card_has_a_source_label():
    for c in DECK:
        assert "name" in c.sources and "text" in c.sources
        for f in ("strength", "vp", "tp", "number"):
            if getattr(c, f):
                assert c.sources[f] in LABELS, (c.name, f)


def _data() -> dict:
    from importlib import resources

    from luckylab.boards.files import _parse

    text = (resources.files("luckylab") / "data" / "doctor_who_deck.toml").read_text("utf-8")
    return _parse(text, "doctor_who_deck.toml")


@pytest.mark.parametrize("change, field", [
    (lambda d: d["cards"][0].update(strength=9), "strength"),
    (lambda d: d["cards"][0]["source"].update(strength="a guess"), "source.strength"),
    (lambda d: d["cards"][0]["source"].pop("strength"), "source.strength"),
    (lambda d: d["cards"][0].update(copies=4), "size"),
    (lambda d: d["starting"][0].update(number=2), "starting"),
    (lambda d: d["cards"][-1].update(kind="planet"), "kind"),
    (lambda d: d["cards"][0].update(text=""), "text"),
])
def test_a_malformed_deck_file_raises_deck_error_naming_file_and_field(change, field):
    data = _data()
    change(data)
    with pytest.raises(DeckError, match="doctor_who_deck.toml") as err:
        deck_from_data(data, source="doctor_who_deck.toml")
    assert field in err.value.field


# -- setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 5, "3", True])
def test_player_count_is_3_or_4(players):
    with pytest.raises(ValueError, match="3 or 4"):
        new_game("doctorwho", players=players, seed=1)


def test_D_SET_1_turns_go_left_cards_pass_right():
    game = stage()
    filler(game, 0, 3)
    game.apply(Pass(tuple(sorted(game.hands[0]))))
    assert game.turn_player == 1
    assert game.received[2] == game.passed[0] and len(game.passed[0]) == 3


def test_D_SET_2_highest_starting_number_goes_first_all_at_0_TP():
    for seed in range(6):
        game = new_game("doctorwho", players=3, seed=seed)
        numbers = [DECK[game.lines[s][0]].number for s in range(3)]
        assert game.first_player == numbers.index(max(numbers)) == game.current_player
        assert game.tp == [0, 0, 0] and len(game.set_aside) == 1  # the 4th Starting Location


def test_D_SET_3_the_player_right_of_the_first_gets_only_2_cards():
    game = new_game("doctorwho", players=3, seed=5, starting=(1, 3, 2))
    assert game.first_player == 1 and [len(h) for h in game.hands] == [2, 5, 5]


def test_D_SET_4_twenty_cards_under_the_end_card():
    game = new_game("doctorwho", players=3, seed=3)
    assert game.deck.index(game.end_card) == 20
    assert len(game.deck) == 127 - 12 + 1


def test_example_1_four_players_starting_numbers_1_4_2_3():
    """Worked example 1: seat 1 starts, seat 0 gets 2 cards, 90 above the End card, 20 below."""
    game = new_game("doctorwho", players=4, seed=11, starting=(1, 4, 2, 3))
    assert game.current_player == 1
    assert [len(h) for h in game.hands] == [2, 5, 5, 5]
    i = game.deck.index(game.end_card)
    assert i == 20 and len(game.deck) - i - 1 == 90


def test_D_VAR_1_two_players_pass_2_draw_3_without_third_player_cards():
    game = new_game("doctorwho", players=2, seed=3, two_player=True)
    names = {DECK[c].name for c in game.set_aside}
    assert {"Davros", "Cyberking", "Chameleon Arch"} <= names
    short = (game.first_player - 1) % 2
    assert len(game.hands[short]) == 3 and len(game.hands[game.first_player]) == 5
    seat = game.current_player
    while len(game.hands[seat]) > 2:
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Discard)
                        and len(a.cards) == 1))
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Pass)))
    assert len(game.passed[seat]) == 2 and len(game.hands[seat]) == 3
    with pytest.raises(ValueError):
        new_game("doctorwho", players=2, seed=1)


# -- turns --------------------------------------------------------------------------------------


def test_D_TURN_1_any_number_of_actions_in_any_order():
    game = stage()
    give(game, 0, LOC3, LOC2, *filler(game, 0, 0))
    filler(game, 0, 3)
    game.apply(PlayLocation(LOC3))
    game.apply(PlayLocation(LOC2))
    assert game.current_player == 0 and LOC3 in game.lines[0] and LOC2 in game.lines[0]


def test_D_TURN_2_never_fewer_than_three_cards():
    game = stage()
    give(game, 0, LOC3)
    filler(game, 0, 2)
    with pytest.raises(IllegalAction, match="fewer than 3"):
        game.apply(PlayLocation(LOC3))


def test_D_TURN_3_pass_three_leaving_no_hand_then_draw_two():
    game = stage()
    cards = filler(game, 0, 4)
    with pytest.raises(IllegalAction, match="no cards in hand"):
        game.apply(Pass(tuple(cards[:3])))
    game.apply(Reserve((cards[3],)))
    game.apply(Pass(tuple(cards[:3])))
    assert len(game.hands[0]) == 2 and game.reserves[0] == [cards[3]]
    assert set(cards[:3]) <= set(game.hands[2])


def test_D_RES_1_reserve_holds_two_and_is_used_freely():
    game = stage()
    cards = filler(game, 0, 3)
    give(game, 0, LOC3, LOC2)
    game.apply(Reserve((LOC3, LOC2)))
    with pytest.raises(IllegalAction, match="room for 0"):
        game.apply(Reserve((cards[0],)))
    game.apply(PlayLocation(LOC3))  # straight from the reserve: taking up is free
    assert game.reserves[0] == [LOC2] and LOC3 in game.lines[0]


def test_ruling_3_the_floor_counts_the_reserve_and_reserve_cards_may_be_passed():
    game = stage()
    cards = filler(game, 0, 3)
    give(game, 0, LOC3)
    game.apply(Reserve((cards[0], cards[1])))
    game.apply(PlayLocation(LOC3))          # hand 1 + reserve 2 = 3: allowed
    game.apply(Pass(tuple(sorted(cards))))  # two of them from the reserve
    assert game.reserves[0] == [] and set(cards) <= set(game.hands[2])


# -- actions ------------------------------------------------------------------------------------


def test_D_LOC_1_location_gives_its_TP_from_the_supply_then_from_players():
    game = stage()
    filler(game, 0, 3)
    give(game, 0, LOC1)
    game.tp = [0, 20, 9]  # supply 1
    game.apply(PlayLocation(LOC1))
    assert game.tp == [3, 18, 9]  # 1 from the supply, 2 from the richest
    assert LOC1 in game.lines[0]


def test_D_LOC_1_take_from_names_who_pays():
    game = stage()
    filler(game, 0, 3)
    give(game, 0, LOC1)
    game.tp = [0, 15, 15]
    game.apply(PlayLocation(LOC1, take_from=(2,)))
    assert game.tp == [3, 15, 12]


def test_D_DEF_1_defenders_face_down_never_two_of_a_type():
    game = stage()
    filler(game, 0, 3)
    d1, d2, amy = cid("The Doctor", 4), cid("The Doctor", 2), cid("Amy Pond", 2)
    give(game, 0, d1, d2, amy)
    start = game.lines[0][0]
    with pytest.raises(IllegalAction, match="two Defenders of one type"):
        game.apply(Defend(start, (d1, d2)))
    game.apply(Defend(start, (d1, amy)))
    assert game.locs[start].defenders == [d1, amy]
    with pytest.raises(IllegalAction, match="two Defenders of one type"):
        game.apply(Defend(start, (d2,)))
    assert game.observation(1)["locations"][0]["defenders"] == [None, None]


def test_D_DEF_1_defenders_may_join_a_TARDIS():
    game = stage()
    filler(game, 0, 3)
    start = game.lines[0][0]
    game.locs[start].tardis = True
    d = cid("Rory", 2)
    give(game, 0, d)
    game.apply(Defend(start, (d,)))
    assert game.locs[start].defenders == [d] and game.locs[start].tardis


def test_D_ENE_1_one_type_or_cards_that_combine():
    game = stage()
    filler(game, 0, 3)
    dal, cyb, master = cid("Dalek", 1), cid("Cybermen", 1), cid("The Master")
    give(game, 0, dal, cyb, master)
    target = game.lines[1][0]
    with pytest.raises(IllegalAction, match="one type"):
        game.apply(Attack(target, (dal, cyb)))
    game.apply(Attack(target, (dal, master)))
    loc = game.locs[target]
    assert loc.attacker == 0 and loc.enemies == [dal, master] and not loc.up
    with pytest.raises(IllegalAction, match="one type"):
        game.apply(Attack(target, (cyb,)))  # added cards must combine with the attack


def test_D_ENE_1_never_your_own_location_nor_another_players_attack():
    game = stage()
    filler(game, 0, 3)
    d1, d2 = cid("Dalek", 1), cid("Dalek", 1, 1)
    give(game, 0, d1, d2)
    with pytest.raises(IllegalAction, match="your own"):
        game.apply(Attack(game.lines[0][0], (d1,)))
    place(game, 2, LOC3, enemies=[cid("Cybermen", 2)], attacker=1)
    with pytest.raises(IllegalAction, match="already attacked"):
        game.apply(Attack(LOC3, (d1,)))


def test_D_ENE_2_enemies_on_defenders_fight_at_once():
    game = stage()
    filler(game, 0, 3)
    place(game, 1, LOC3, defenders=[cid("Donna", 1)])
    dal = cid("Dalek", 3)
    give(game, 0, dal)
    game.apply(Attack(LOC3, (dal,)))
    assert game.locs[LOC3].defenders == [] and game.locs[LOC3].enemies == [dal]
    assert game.locs[LOC3].up == {dal}


def test_example_5_enemy_on_a_TARDIS_is_discarded_defender_stays_face_down():
    """Worked example 5 (D-ENE-2)."""
    game = stage()
    filler(game, 0, 3)
    rory = cid("Rory", 2)
    place(game, 1, LOC3, defenders=[rory], tardis=True)
    dal = cid("Dalek", 1)
    give(game, 0, dal)
    game.apply(Attack(LOC3, (dal,)))
    loc = game.locs[LOC3]
    assert dal in game.discard and not loc.tardis and loc.defenders == [rory]
    assert loc.attacker is None and game.daleks_in_play(0) == 0
    seen = {loc["card"]: loc for loc in game.observation(0)["locations"]}
    assert seen[LOC3]["defenders"] == [None]


def test_D_SUP_1_support_is_an_action_and_is_discarded():
    game = stage()
    filler(game, 0, 3)
    t = cid("TARDIS")
    give(game, 0, t)
    game.apply(PlaySupport(t))
    assert t in game.discard and game.tp[0] == 2


def test_D_TP_1_buy_cards_for_5_TP_each():
    game = stage()
    filler(game, 0, 3)
    game.tp[0] = 12
    top = game.deck[-2:]
    game.apply(Buy(2))
    assert game.tp[0] == 2 and set(top) <= set(game.hands[0])
    with pytest.raises(IllegalAction, match="cost 5 TP"):
        game.apply(Buy(1))


def test_D_TP_2_discard_one_or_two_for_a_TP_each():
    game = stage()
    cards = filler(game, 0, 3)
    give(game, 0, LOC3, LOC2)
    game.apply(Discard((LOC3, LOC2)))
    assert game.tp[0] == 2 and {LOC3, LOC2} <= set(game.discard)
    with pytest.raises(IllegalAction, match="1 or 2"):
        game.apply(Discard(tuple(cards)))


def test_example_6_hand_floor_and_buying():
    """Worked example 6: hand 5, reserve 0, 0 TP: after 2 cards a third is illegal; with 7 TP
    buy one and keep 2."""
    game = stage()
    locs = [LOC3, LOC2, LOC4, LOC1, cid("Midnight")]
    give(game, 0, *locs)
    game.apply(PlayLocation(LOC3))
    game.apply(PlayLocation(LOC2))
    with pytest.raises(IllegalAction, match="fewer than 3"):
        game.apply(PlayLocation(LOC4))
    game.tp[0] = 7
    game.apply(Buy(1))
    assert game.tp[0] == 2 and len(game.hands[0]) == 4


# -- conflicts ---------------------------------------------------------------------------------


def test_example_2_defence_equal_to_attack_wins():
    """Worked example 2 (D-CON-2): Defenders 3+2 vs Enemies 3+2."""
    game = stage()
    filler(game, 0, 3)
    defs = [cid("The Doctor", 3), cid("Rory", 2)]
    place(game, 1, LOC3, defenders=defs)
    ens = (cid("Dalek", 3), cid("Dalek", 2))
    give(game, 0, *ens)
    game.apply(Attack(LOC3, ens))
    loc = game.locs[LOC3]
    assert set(defs + list(ens)) <= set(game.discard)
    assert loc.tardis and loc.attacker is None and not loc.enemies and not loc.defenders
    assert game.daleks_in_play(0) == 0 and game.tardis_in_play(1) == 1


def test_D_CON_2_defender_wins_ties():
    test_example_2_defence_equal_to_attack_wins()


def test_example_3_matching_discard():
    """Worked example 3 (D-CON-3): defence 4 vs 3,2,2: both 2s go; defence 5 vs 4,3: the 4."""
    game = stage()
    filler(game, 0, 3)
    place(game, 1, LOC3, defenders=[cid("The Doctor", 4)])
    three, two_a, two_b = cid("Dalek", 3), cid("Dalek", 2), cid("Dalek", 2, 1)
    give(game, 0, three, two_a, two_b)
    game.apply(Attack(LOC3, (three, two_a, two_b)))
    assert game.locs[LOC3].enemies == [three] and game.locs[LOC3].up == {three}
    assert {two_a, two_b} <= set(game.discard)
    assert match_options({1: 4, 2: 3}, [1, 2], 5) == [(1,)]
    game2 = stage()
    filler(game2, 0, 3)
    place(game2, 1, LOC3, defenders=[cid("The Doctor", 3), cid("Amy Pond", 2)])
    king, cyb = cid("Cyberking"), cid("Cybermen", 3)
    give(game2, 0, king, cyb)
    game2.apply(Attack(LOC3, (king, cyb)))
    assert game2.locs[LOC3].enemies == [cyb] and king in game2.discard


def test_D_CON_3_attacker_discards_to_match_without_exceeding():
    test_example_3_matching_discard()


def test_ruling_4_attacker_chooses_between_equal_matching_sets():
    game = stage()
    filler(game, 0, 3)
    place(game, 1, LOC3, defenders=[cid("The Doctor", 3)])
    ens = (cid("Weeping Angels", 3), cid("Weeping Angels", 1), cid("Weeping Angels", 2))
    give(game, 0, *ens)
    game.apply(Attack(LOC3, ens))
    assert game.phase == "decide" and game.current_player == 0
    options = game.legal_actions()
    assert {a.cards for a in options} == {tuple(sorted((ens[0],))),
                                          tuple(sorted((ens[1], ens[2])))}
    game.apply(MatchDiscard(tuple(sorted((ens[1], ens[2])))))
    assert game.locs[LOC3].enemies == [ens[0]] and game.phase == "turn"


def test_example_4_rory_returns_only_if_there_before_the_attack():
    """Worked example 4 (D-CON-3, D-CARD-1)."""
    game = stage()
    filler(game, 0, 3)
    rory, doc = cid("Rory", 1), cid("The Doctor", 2)
    place(game, 1, LOC3, defenders=[rory, doc])
    ens = (cid("Dalek", 3), cid("Dalek", 3, 1))
    give(game, 0, *ens)
    game.apply(Attack(LOC3, ens))
    assert rory in game.hands[1] and doc in game.discard
    assert len(game.locs[LOC3].enemies) == 1  # defence 3: one 3 discarded
    # Rory played into an attack is discarded
    game2 = stage()
    filler(game2, 0, 3)
    ens2 = [cid("Dalek", 3), cid("Dalek", 3, 1)]
    place(game2, 0, LOC3, enemies=ens2, attacker=1)
    give(game2, 0, rory, doc)
    game2.apply(Defend(LOC3, (rory, doc)))
    assert rory in game2.discard and doc in game2.discard


def test_D_CON_1_reveal_gives_TP_for_river_donna_angels_and_empty_child():
    game = stage()
    filler(game, 0, 3)
    game.tp = [0, 2, 0]
    place(game, 1, LOC3, defenders=[cid("River Song", 3), cid("Donna", 2)])
    ens = (cid("Weeping Angels", 3),)
    child = cid("The Empty Child", 2)
    give(game, 0, *ens)
    game.apply(Attack(LOC3, ens))
    assert game.tp == [1, 4, 0]  # Angel +1; River +1, Donna +1 (then the defence holds)
    game2 = stage()
    filler(game2, 0, 3)
    game2.tp = [0, 2, 0]
    place(game2, 1, LOC3, defenders=[cid("Rory", 1)])
    give(game2, 0, child)
    game2.apply(Attack(LOC3, (child,)))
    assert game2.tp == [1, 1, 0]


def test_ruling_5_a_sonic_revealed_weeping_angel_pays_its_TP_once():
    game = stage()
    filler(game, 0, 3)
    angel = cid("Weeping Angels", 2)
    place(game, 0, LOC3, enemies=[angel], attacker=1)
    sonic = cid("Sonic Screwdriver")
    give(game, 0, sonic, cid("The Doctor", 4))
    game.apply(PlaySupport(sonic, loc=LOC3))
    # revealed by the Sonic: the Angel's player gains 1 TP now; the Sonic's player 1
    assert game.tp == [1, 1, 0] and game.locs[LOC3].up == {angel}
    game.apply(Defend(LOC3, (cid("The Doctor", 4),)))
    assert game.tp == [1, 1, 0]  # already face up: no second TP at the conflict


def test_ruling_5_a_sonic_revealed_empty_child_takes_its_TP_once():
    game = stage()
    filler(game, 0, 3)
    game.tp = [2, 0, 0]
    child = cid("The Empty Child", 2)
    place(game, 0, LOC3, enemies=[child], attacker=1)
    sonic = cid("Psychic Paper")
    give(game, 0, sonic, cid("The Doctor", 4))
    game.apply(PlaySupport(sonic, loc=LOC3))
    assert game.tp == [2, 1, 0]  # the Child takes 1 from the defender; Psychic Paper +1
    game.apply(Defend(LOC3, (cid("The Doctor", 4),)))
    assert game.tp == [2, 1, 0]


def test_ruling_5_a_conflict_still_pays_the_reveal_TP_of_face_down_cards():
    game = stage()
    filler(game, 0, 3)
    game.tp = [2, 0, 0]
    place(game, 0, LOC3, enemies=[cid("The Empty Child", 2), cid("The Empty Child", 2, 1)],
          attacker=1)
    doc = cid("The Doctor", 4)
    give(game, 0, doc)
    game.apply(Defend(LOC3, (doc,)))
    assert game.tp == [0, 2, 0]


def test_D_CON_4_locations_never_change_hands_and_can_be_won_back():
    game = stage()
    filler(game, 0, 3)
    dal = cid("Dalek", 2)
    place(game, 0, LOC3, enemies=[dal], attacker=1, up=True)
    assert score(game.locs, DECK, 3)[1] >= 3
    doc = cid("The Doctor", 3)
    give(game, 0, doc)
    game.apply(Defend(LOC3, (doc,)))
    assert game.locs[LOC3].owner == 0 and game.locs[LOC3].tardis
    assert LOC3 in game.lines[0]


def test_ruling_1_conflict_order_astronaut_before_kovarian():
    """Astronaut meets River first (discarded), then Kovarian turns River (not discarded)."""
    game = stage()
    filler(game, 0, 3)
    river = cid("River Song", 2)
    place(game, 1, LOC3, defenders=[river, cid("The Doctor", 4)])
    astro, kov = cid("The Impossible Astronaut"), cid("Madame Kovarian")
    sil = cid("The Silence", 3)
    give(game, 0, astro, kov, sil)
    game.apply(Attack(LOC3, (astro, kov, sil)))
    # River turned: attack kov 2 + silence 3 + river 2 = 7 vs Doctor 4 -> the attack wins
    loc = game.locs[LOC3]
    assert astro in game.discard and river in loc.enemies + game.discard
    assert loc.attacker == 0 and game.tp[1] == 1  # River's reveal TP still paid


# -- end ----------------------------------------------------------------------------------------


def test_D_END_1_five_counters_of_a_kind_end_the_game_at_the_start_of_a_turn():
    game = stage()
    filler(game, 0, 3)
    for lid in (LOC1, LOC2, LOC3, LOC4):
        place(game, 1, lid, tardis=True)
    game.locs[game.lines[1][0]].tardis = True
    game.apply(Pass(tuple(sorted(game.hands[0]))))
    assert game.is_over and game.finished and "D-END-1" in game.end_reason


def test_ruling_2_no_free_dalek_counter_no_new_attack():
    game = stage()
    filler(game, 0, 3)
    for lid in (LOC1, LOC2, LOC3, LOC4, cid("Midnight")):
        place(game, 1, lid, enemies=[cid("Cybermen", 1, 0) if lid == LOC1 else
                                     [c for c in game.deck if DECK[c].kind == "enemy"
                                      and DECK[c].name == "Dalek"][0]], attacker=0)
    dal = [c for c in game.deck if DECK[c].name == "Dalek"][0]
    give(game, 0, dal)
    with pytest.raises(IllegalAction, match="Dalek counters"):
        game.apply(Attack(game.lines[2][0], (dal,)))
    game.locs[game.lines[2][0]].tardis = True
    game.apply(Attack(game.lines[2][0], (dal,)))  # bouncing off a TARDIS needs no counter


def test_example_7_end_card_on_top_after_the_first_end_draw():
    """Worked example 7 (D-END-2, ruling 7): set aside, draw 4 (hand 5), the End Game starts
    on the left."""
    game = stage()
    cards = filler(game, 0, 3)
    i = game.deck.index(game.end_card)
    game.deck = game.deck[: i + 1] + [game.deck[-1]]  # one card above the End card
    give(game, 1, game.deck[0])
    game.apply(Pass(tuple(sorted(cards))))
    assert game.end_card in game.set_aside and game.end_revealed
    assert len(game.hands[0]) == 5 and game.endgame and game.turn_player == 1
    assert game.phase == "endgame"


def test_D_END_2_end_card_revealed_in_the_turn_means_draw_5():
    game = stage()
    cards = filler(game, 0, 3)
    i = game.deck.index(game.end_card)
    game.deck = game.deck[: i + 1] + [game.deck[-1]]
    game.tp[0] = 5
    game.apply(Buy(1))  # the End card becomes the top card: revealed now (ruling 7)
    assert game.end_revealed and not game.endgame and game.current_player == 0
    bought = game.hands[0][-1]
    game.apply(Discard((bought,)))
    game.apply(Pass(tuple(sorted(cards))))
    assert len(game.hands[0]) == 5 and game.endgame and game.turn_player == 1


def test_D_END_3_end_game_one_action_no_pass_ends_when_a_player_cannot_act():
    game = stage()
    game.endgame = game.end_revealed = True
    game.deck.remove(game.end_card)
    game.set_aside.append(game.end_card)
    game.phase = "endgame"
    give(game, 0, LOC3)
    give(game, 1, LOC2)
    assert not any(isinstance(a, Pass) for a in game.legal_actions())
    game.apply(PlayLocation(LOC3))  # one action, then Player 2
    assert game.turn_player == 1
    game.apply(Discard((LOC2,)))     # no floor in the End Game
    assert game.is_over and "cannot act" in game.end_reason  # Player 3: no cards, 0 TP


def test_ruling_8_a_player_with_5_TP_and_cards_to_draw_can_still_act():
    game = stage()
    game.endgame = game.end_revealed = True
    game.phase = "endgame"
    give(game, 0, LOC3)
    game.tp = [0, 5, 0]
    game.apply(Discard((LOC3,)))  # Player 2: no cards but 5 TP and a deck: can still buy
    assert not game.is_over and game.turn_player == 1
    assert game.legal_actions() == [Buy(1)]


def test_D_END_3_empty_deck_reshuffles_the_discards():
    game = stage()
    game.endgame = game.end_revealed = True
    game.phase = "endgame"
    game.discard, game.deck = game.deck, []
    game.tp[0] = 5
    game.apply(Buy(1))
    assert len(game.hands[0]) == 1 and game.deck and accounted(game)


def test_example_8_scoring():
    """Worked example 8 (D-SCO-1): A = 7, B = 2, C = 0."""
    locs = {LOC3: Loc(owner=0), LOC2: Loc(owner=0, enemies=[cid("Dalek", 1)], attacker=1),
            LOC4: Loc(owner=2, enemies=[cid("Dalek", 2)], attacker=0)}
    assert score(locs, DECK, 3) == [7, 2, 0]


def test_D_SCO_1_papal_mainframe_scores_for_nobody_and_ties_share():
    locs = {LOC3: Loc(owner=0, enemies=[cid("Papal Mainframe")], attacker=1),
            LOC2: Loc(owner=1), LOC4: Loc(owner=2, enemies=[cid("Dalek", 1)], attacker=1)}
    assert score(locs, DECK, 3) == [0, 6, 0]
    game = stage()
    filler(game, 0, 3)
    for lid in (LOC1, LOC2, LOC3, cid("Midnight")):
        place(game, 1, lid, tardis=True)
    game.locs[game.lines[1][0]].tardis = True
    game.apply(Pass(tuple(sorted(game.hands[0]))))
    assert game.scores == [2, 2 + 1 + 2 + 3 + 1, 2]
    game2 = stage()
    game2._finish("test")
    assert game2.winners == [0, 1, 2] and game2.result().winner is None


# -- card texts (D-CARD-*) -----------------------------------------------------------------------


def _attacked(game, seat=0, enemies=None, up=False, attacker=1, loc=LOC3):
    enemies = enemies or [cid("Dalek", 2)]
    return place(game, seat, loc, enemies=enemies, attacker=attacker, up=up)


def test_D_CARD_1_river_and_donna_give_TP_when_played_into_an_attack():
    game = stage()
    filler(game, 0, 3)
    _attacked(game, enemies=[cid("Dalek", 1)])
    river, donna = cid("River Song", 2), cid("Donna", 1)
    give(game, 0, river, donna)
    game.apply(Defend(LOC3, (river, donna)))
    assert game.tp[0] == 2 and game.locs[LOC3].tardis


@pytest.mark.parametrize("name", ["Sonic Screwdriver", "Psychic Paper", "Vincent Van Gogh"])
def test_D_CARD_2_sonic_psychic_paper_van_gogh_reveal_an_attack_plus_1_TP(name):
    game = stage()
    filler(game, 0, 3)
    loc = _attacked(game, enemies=[cid("Dalek", 2), cid("Dalek", 1)])
    card = cid(name)
    give(game, 0, card)
    game.apply(PlaySupport(card, loc=LOC3))
    assert loc.up == set(loc.enemies) and game.tp[0] == 1
    seen = {loc["card"]: loc for loc in game.observation(2)["locations"]}
    assert None not in seen[LOC3]["enemies"]


@pytest.mark.parametrize("name", ["Captain Jack", "Collecting on Debts"])
def test_D_CARD_2_captain_jack_and_collecting_on_debts_discard_an_enemy(name):
    game = stage()
    filler(game, 0, 3)
    a, b = cid("Dalek", 2), cid("Dalek", 1)
    loc = _attacked(game, enemies=[a, b])
    card = cid(name)
    give(game, 0, card)
    game.apply(PlaySupport(card, loc=LOC3, index=0))
    assert loc.enemies == [b] and a in game.discard and not loc.tardis
    card2 = cid("Collecting on Debts" if name == "Captain Jack" else "Captain Jack")
    give(game, 0, card2)
    game.apply(PlaySupport(card2, loc=LOC3, index=0))
    assert not loc.enemies and loc.tardis and loc.attacker is None


@pytest.mark.parametrize("name", ["Wilf", "Ood"])
def test_D_CARD_3_wilf_and_ood_widen_the_reserve(name):
    game = stage()
    cards = filler(game, 0, 3)
    card = cid(name)
    give(game, 0, card, LOC3, LOC2, LOC4)
    game.apply(PlaySupport(card))
    assert game.reserve_up[0] == [card] and game.capacity(0) == 3
    game.apply(Reserve((LOC3, LOC2)))
    game.apply(Reserve((LOC4,)))
    assert game.reserve_used(0) == 3 and cards


def test_D_CARD_3_ironsides_counts_in_the_reserve_and_buys_plus_1():
    game = stage()
    filler(game, 0, 3)
    iron = cid("Ironsides")
    give(game, 0, iron)
    game.apply(PlaySupport(iron))
    assert game.reserve_used(0) == 1 and game.capacity(0) == 2
    game.tp[0] = 2
    _attacked(game, enemies=[cid("Dalek", 3)])
    doc = cid("The Doctor", 2)
    give(game, 0, doc)
    game.apply(Defend(LOC3, (doc,)))
    assert game.phase == "decide" and game.current_player == 0
    game.apply(UseIronsides(True))
    assert game.tp[0] == 1 and game.locs[LOC3].tardis and game.phase == "turn"


def _ironsides_defence(tp: int, defender: int, enemies: list[int]):
    game = stage()
    filler(game, 0, 3)
    iron = cid("Ironsides")
    give(game, 0, iron)
    game.apply(PlaySupport(iron))
    game.tp[0] = tp
    _attacked(game, enemies=enemies)
    give(game, 0, defender)
    game.apply(Defend(LOC3, (defender,)))
    return game


def test_D_CARD_3_ironsides_is_offered_when_paying_only_makes_the_attacker_discard_more():
    big, small = cid("Dalek", 3), cid("Dalek", 2)
    game = _ironsides_defence(1, cid("The Doctor", 2), [big, small])  # defence 2, attack 5
    assert game.phase == "decide" and game.legal_actions() == [UseIronsides(True),
                                                               UseIronsides(False)]
    game.apply(UseIronsides(True))  # defence 3: the attacker matches 3 with the Dalek 3
    assert game.tp[0] == 0 and game.locs[LOC3].enemies == [small] and big in game.discard
    again = _ironsides_defence(1, cid("The Doctor", 2), [big, small])
    again.apply(UseIronsides(False))  # defence 2: the Dalek 2 goes, the Dalek 3 stays
    assert again.tp[0] == 1 and again.locs[LOC3].enemies == [big]


def test_D_CARD_3_ironsides_is_offered_even_when_paying_changes_nothing():
    game = _ironsides_defence(2, cid("The Doctor", 4), [cid("Dalek", 1)])
    assert game.phase == "decide" and game.current_player == 0
    game.apply(UseIronsides(True))
    assert game.tp[0] == 1 and game.locs[LOC3].tardis and game.phase == "turn"


def test_D_CARD_3_ironsides_is_not_offered_without_a_time_point():
    game = _ironsides_defence(0, cid("The Doctor", 2), [cid("Dalek", 3)])
    assert game.phase == "turn" and not game.locs[LOC3].tardis


def test_D_TURN_2_the_valiant_is_not_offered_when_it_would_break_the_hand_floor():
    """The deadlock of issue 29 (4 players seed 864, 3 players seed 923): a turn player at the
    floor defended, an Astronaut discarded the Defender, and The Valiant, played outside any
    action, left 2 cards: no Pass (3 needed), no other action, the game stuck."""
    game = stage()
    filler(game, 0, 2)
    val, doc = cid("The Valiant"), cid("The Doctor", 4)
    give(game, 0, val, doc)
    _attacked(game, enemies=[cid("The Impossible Astronaut")])
    game.apply(Defend(LOC3, (doc,)))  # 3 cards left: the floor
    assert doc in game.discard and game.phase == "turn"  # no Valiant decision
    assert [type(a).__name__ for a in game.legal_actions()].count("Pass") == 1
    with pytest.raises(IllegalAction):
        game.apply(UseValiant(True))


@pytest.mark.parametrize(("players", "seed", "stuck_at"), [(4, 864, 162), (3, 923, 107)])
def test_D_TURN_2_the_random_games_that_deadlocked_now_end(players, seed, stuck_at):
    import random

    game = new_game("doctorwho", players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over:
        actions = game.legal_actions()
        assert actions, f"no legal action before the end, after {n} actions"
        game.apply(rng.choice(actions))
        n += 1
    assert game.finished and n > stuck_at


def test_D_CARD_4_the_valiant_returns_the_defenders_to_hand():
    game = stage()
    filler(game, 0, 3)
    val = cid("The Valiant")
    give(game, 1, val)
    defs = [cid("The Doctor", 2), cid("Amy Pond", 1)]
    place(game, 1, LOC3, defenders=defs)
    ens = (cid("Dalek", 3), cid("Dalek Flagship"))
    give(game, 0, *ens)
    game.apply(Attack(LOC3, ens))
    assert game.phase == "decide" and game.current_player == 1
    assert UseValiant(True) in game.legal_actions()
    with pytest.raises(IllegalAction, match="only when you lose"):
        DoctorWhoGame._check_support(game, 1, PlaySupport(val))
    game.apply(UseValiant(True))
    assert set(defs) <= set(game.hands[1]) and val in game.discard
    assert game.locs[LOC3].enemies == [ens[1]]  # defence 3: the Dalek 3 is discarded


def test_D_CARD_4_mr_clever_returns_tardis_counters_and_gives_2_TP():
    game = stage()
    filler(game, 0, 3)
    place(game, 1, LOC3, tardis=True)
    place(game, 2, LOC2, tardis=True)
    mc = cid("Mr Clever")
    give(game, 0, mc)
    game.apply(PlaySupport(mc, cards=(LOC2, LOC3)))
    assert not game.locs[LOC3].tardis and not game.locs[LOC2].tardis and game.tp[0] == 2


@pytest.mark.parametrize("name, counter", [("TARDIS", "tardis"), ("Crack in Time", "dalek")])
def test_D_CARD_4_tardis_and_crack_in_time_pay_per_counter(name, counter):
    game = stage()
    filler(game, 0, 3)
    if counter == "tardis":
        place(game, 1, LOC3, tardis=True)
    else:
        place(game, 1, LOC3, enemies=[cid("Dalek", 1)], attacker=2)
    card = cid(name)
    give(game, 0, card)
    game.apply(PlaySupport(card))
    assert game.tp == ([2, 1, 0] if counter == "tardis" else [2, 0, 1])


def test_D_CARD_5_chameleon_arch_redirects_an_attack_not_to_its_owner():
    game = stage()
    filler(game, 0, 3)
    a = cid("Dalek", 2)
    _attacked(game, enemies=[a], attacker=1)
    arch = cid("Chameleon Arch")
    give(game, 0, arch)
    with pytest.raises(IllegalAction):
        game.apply(PlaySupport(arch, loc=LOC3, to=game.lines[1][0]))
    target = game.lines[2][0]
    game.apply(PlaySupport(arch, loc=LOC3, to=target))
    assert game.locs[target].enemies == [a] and game.locs[target].attacker == 1
    assert not game.locs[LOC3].enemies and not game.locs[LOC3].tardis


def test_ruling_9_chameleon_arch_onto_defenders_fights_onto_a_tardis_bounces():
    game = stage()
    filler(game, 0, 3)
    a = cid("Dalek", 2)
    _attacked(game, enemies=[a], attacker=1)
    place(game, 2, LOC2, defenders=[cid("The Doctor", 3)])
    arch = cid("Chameleon Arch")
    give(game, 0, arch)
    game.apply(PlaySupport(arch, loc=LOC3, to=LOC2))
    assert game.locs[LOC2].tardis and a in game.discard  # 3 >= 2: Player 3 wins


def test_D_CARD_5_jammy_dodger_k9_bad_wolf_defeat_an_attack():
    for name in ("Jammy Dodger", "K-9", "Bad Wolf"):
        game = stage()
        filler(game, 0, 3)
        loc = _attacked(game, enemies=[cid("Dalek", 2)], up=(name == "Bad Wolf"))
        card = cid(name)
        give(game, 0, card)
        if name == "K-9":
            doc = cid("The Doctor", 3)
            give(game, 0, doc)
            game.apply(PlaySupport(card, loc=LOC3, cards=(doc,)))
            assert doc in game.discard
        else:
            game.apply(PlaySupport(card, loc=LOC3))
        assert not loc.enemies and loc.tardis and loc.attacker is None, name


def test_D_CARD_5_bad_wolf_needs_a_face_up_dalek_attack():
    game = stage()
    filler(game, 0, 3)
    _attacked(game, enemies=[cid("Dalek", 2)], up=False)
    bw = cid("Bad Wolf")
    give(game, 0, bw)
    with pytest.raises(IllegalAction):
        game.apply(PlaySupport(bw, loc=LOC3))


def test_D_CARD_5_regeneration_swaps_hand_cards_and_draws_one_more():
    game = stage()
    cards = filler(game, 0, 3)
    reg = cid("Regeneration")
    give(game, 0, reg)
    top = game.deck[-3:]
    game.apply(PlaySupport(reg, cards=(cards[0], cards[1])))
    assert set(top) <= set(game.hands[0]) and len(game.hands[0]) == 4
    assert {reg, cards[0], cards[1]} <= set(game.discard)


def test_D_CARD_6_silurians_against_amy_pond_are_all_discarded():
    game = stage()
    filler(game, 0, 3)
    amy = cid("Amy Pond", 1)
    place(game, 1, LOC3, defenders=[amy])
    sil = (cid("Silurians", 3), cid("Silurians", 3, 1))
    give(game, 0, *sil)
    game.apply(Attack(LOC3, sil))
    assert game.locs[LOC3].tardis and {amy, *sil} <= set(game.discard)


@pytest.mark.parametrize("name, base", [("Davros", "Dalek"), ("Cyberking", "Cybermen")])
def test_D_CARD_6_davros_and_cyberking_take_over_a_face_up_attack(name, base):
    game = stage()
    filler(game, 0, 3)
    e = cid(base, 2)
    place(game, 2, LOC3, enemies=[e], attacker=1, up=True)
    card = cid(name)
    give(game, 0, card)
    assert TakeOver(card, LOC3) in game.legal_actions()
    game.apply(TakeOver(card, LOC3))
    assert game.locs[LOC3].attacker == 0 and card in game.locs[LOC3].enemies
    # a face-down attack cannot be taken over
    game2 = stage()
    filler(game2, 0, 3)
    place(game2, 2, LOC3, enemies=[e], attacker=1, up=False)
    give(game2, 0, card)
    with pytest.raises(IllegalAction, match="face-up"):
        game2.apply(TakeOver(card, LOC3))


def test_D_CARD_6_madame_kovarian_turns_river_song_for_good():
    game = stage()
    filler(game, 0, 3)
    river = cid("River Song", 3)
    place(game, 1, LOC3, defenders=[river, cid("Rory", 1)])
    kov, cler = cid("Madame Kovarian"), cid("Clerics", 1)
    give(game, 0, kov, cler)
    game.apply(Attack(LOC3, (kov, cler)))
    # River joins: attack 2 + 1 + 3 = 6 vs Rory 1: the attack wins, matching discards the 1
    loc = game.locs[LOC3]
    assert river in loc.enemies and loc.attacker == 0 and game.tp[1] == 1


@pytest.mark.parametrize("defender, kept", [("River Song", False), ("The Doctor", True),
                                            ("Rory", True)])
def test_D_CARD_6_the_impossible_astronaut(defender, kept):
    game = stage()
    filler(game, 0, 3)
    d = cid(defender, None)
    place(game, 1, LOC3, defenders=[d])
    astro, dal = cid("The Impossible Astronaut"), cid("Dalek Flagship")
    give(game, 0, astro, dal)
    game.apply(Attack(LOC3, (astro, dal)))
    loc = game.locs[LOC3]
    # River (with the Astronaut) and the Doctor are discarded; Rory, beaten, goes home
    assert d in (game.hands[1] if defender == "Rory" else game.discard)
    assert (astro in loc.enemies) == kept
    if defender == "Rory":  # ruling 6: strength 0, not discarded, kept when the attack wins
        assert loc.enemies == [astro, dal] or set(loc.enemies) == {astro, dal}


def test_ruling_6_astronaut_with_kovarian_does_not_discard_river():
    test_ruling_1_conflict_order_astronaut_before_kovarian()


def test_the_master_clerics_and_papal_mainframe_combine_as_their_texts_say():
    """Every pair of an attack must combine: Clerics go with The Silence, the Master with
    anyone; The Silence and the Headless Monks do not go together."""
    game = stage()
    filler(game, 0, 3)
    cler, sil, monk = cid("Clerics", 2), cid("The Silence", 2), cid("Headless Monks", 2)
    master, papal = cid("The Master"), cid("Papal Mainframe")
    give(game, 0, cler, sil, monk, master, papal)
    with pytest.raises(IllegalAction, match="combine"):
        game.apply(Attack(game.lines[1][0], (sil, monk)))
    game.apply(Attack(game.lines[1][0], (cler, sil, master)))
    assert game.locs[game.lines[1][0]].enemies == [cler, sil, master]
    game.apply(Attack(game.lines[2][0], (papal, monk)))
    assert game.locs[game.lines[2][0]].enemies == [papal, monk]


# -- rulings 10 and the interface -------------------------------------------------------------


def test_ruling_10_observation_shows_own_cards_and_hides_others():
    game = new_game("doctorwho", players=3, seed=9)
    for seat in range(3):
        obs = game.observation(seat)
        assert obs["hand"] == game.hands[seat] and obs["hands"] == [len(h) for h in game.hands]
        other = (seat + 1) % 3
        assert not set(game.hands[other]) & set(obs["hand"])
    with pytest.raises(ValueError):
        game.observation(7)


def test_ruling_10_a_seats_view_shows_what_its_observation_shows():
    """``game.view(seat)`` (the bots', widgets' and analyses' reading) agrees with
    ``observation(seat)`` at every step of played games, hides what the observation hides
    (another hand, another face-down reserve, others' face-down cards as None) and hands out
    nothing that changes the game."""
    from luckylab.agents.doctorwho import Careful
    from luckylab.errors import HiddenInformation

    conflicts = 0  # decisions inside a conflict seen
    for seed in range(3):
        game = new_game("doctorwho", players=4, seed=seed)
        bots = [Careful(seed=seed + s) for s in range(4)]
        steps = 0
        while not game.is_over:
            for seat in range(4):
                view, obs = game.view(seat), game.observation(seat)
                assert list(view.hand) == obs["hand"] and list(view.reserve) == obs["reserve"]
                assert [view.hand_size(s) for s in range(4)] == obs["hands"]
                assert [view.reserve_size(s) for s in range(4)] == obs["reserves"]
                assert [list(view.face_up_reserve(s)) for s in range(4)] == obs["reserve_up"]
                assert list(view.tp) == obs["tp"] and view.supply == obs["supply"]
                assert (view.phase, view.turn, view.endgame, view.end_revealed) == (
                    obs["phase"], obs["turn"], obs["endgame"], obs["end_revealed"])
                assert view.deck_size == obs["deck"] and list(view.discards) == obs["discard"]
                assert list(view.passed_by(seat)) == obs["passed"]
                assert list(view.received_by(seat)) == obs["received"]
                assert [view.daleks_in_play(s) for s in range(4)] == obs["daleks"]
                assert [view.tardis_in_play(s) for s in range(4)] == obs["tardises"]
                conflict = view.conflict
                assert (None if conflict is None else dict(conflict)) == obs["conflict"]
                if conflict is not None:
                    conflicts += 1
                    with pytest.raises(TypeError):
                        conflict["stage"] = "over"  # type: ignore[index]  # read-only
                seen = [{"card": lid, "owner": view.owner(lid), "tardis": view.tardis(lid),
                         "attacker": view.attacker(lid), "defenders": list(view.defenders(lid)),
                         "enemies": list(view.enemies(lid))}
                        for s in range(4) for lid in view.locations_of(s)]
                assert seen == obs["locations"]
                other = (seat + 1) % 4
                with pytest.raises(HiddenInformation, match="hand_size"):
                    view.hand_of(other)
                with pytest.raises(HiddenInformation, match="reserve_size"):
                    view.reserve_of(other)
                with pytest.raises(HiddenInformation):
                    view.passed_by((seat + 2) % 4)  # neither its own pass nor one to it
                if seat != game.turn_player:
                    with pytest.raises(HiddenInformation, match="turn player's view"):
                        view.legal_attacks()
                else:
                    assert view.legal_defences() == game.legal_defences()
            table = game.view()
            assert [table.hand_of(s) for s in range(4)] == [tuple(h) for h in game.hands]
            with pytest.raises(HiddenInformation, match="hand_of"):
                table.hand  # noqa: B018 (the open table holds no hand of its own)
            steps += 1
            game.apply(bots[game.current_player].choose(game))
        assert steps > 50
    assert conflicts > 0
    view = game.view(0)
    assert isinstance(view.hand, tuple) and isinstance(view.tp, tuple)
    with pytest.raises(AttributeError):
        view.other = 1  # type: ignore[attr-defined]  # __slots__: nothing to set on a view


def test_illegal_actions_leave_the_game_unchanged():
    game = new_game("doctorwho", players=3, seed=2)
    before = game.record(), [list(h) for h in game.hands], list(game.deck)
    for bad in (Pass((1, 2)), Discard((999,)), Attack(game.lines[0][0], (1,)), Buy(1),
                UseIronsides(True), PlayLocation(-1), Attack([1], (2,)), Discard(([1],)),
                Defend(game.lines[0][0], ("a",)), Buy("2"), "pass"):
        with pytest.raises(IllegalAction):
            game.apply(bad)
    assert (game.record(), [list(h) for h in game.hands], list(game.deck)) == before


def test_record_replays_identically():
    from luckylab.agents.doctorwho import Careful

    game = new_game("doctorwho", players=4, seed=21)
    bots = [Careful(seed=s) for s in range(4)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    again = replay(game.record())
    assert again.scores == game.scores and again.hands == game.hands
    assert [e.text for e in again.events] == [e.text for e in game.events]


def test_legal_actions_are_all_accepted():
    game = new_game("doctorwho", players=3, seed=8)
    for a in game.legal_actions():
        game.clone().apply(a)


def test_ruling_2_no_TARDIS_counter_left_none_is_placed():
    game = stage()
    filler(game, 0, 3)
    game.locs[game.lines[1][0]].tardis = True
    for lid in (LOC1, LOC2, LOC4, cid("Midnight")):
        place(game, 1, lid, tardis=True)
    place(game, 1, LOC3, defenders=[cid("The Doctor", 4)])
    dal = cid("Dalek", 1)
    give(game, 0, dal)
    game.apply(Attack(LOC3, (dal,)))
    assert not game.locs[LOC3].tardis and game.tardis_in_play(1) == 5
    assert game.locs[LOC3].attacker is None and dal in game.discard


def test_ruling_7_the_end_card_is_revealed_when_it_becomes_the_top_card():
    game = stage()
    filler(game, 0, 3)
    i = game.deck.index(game.end_card)
    game.deck = game.deck[: i + 1] + game.deck[-2:]
    game.tp[0] = 5
    game.apply(Buy(1))
    assert not game.end_revealed  # one card still covers it
    game.tp[0] = 5
    game.apply(Buy(1))
    assert game.end_revealed and game.end_card in game.set_aside and game.end_card not in game.deck


def test_events_say_public_things_only():
    """Face-down plays and passes are announced without naming the cards."""
    game = stage()
    filler(game, 0, 3)
    dal = cid("Dalek", 2)
    give(game, 0, dal)
    events = game.apply(Attack(game.lines[1][0], (dal,)))
    assert all("Dalek" not in e.text and dal not in e.data.values() for e in events)
    events = game.apply(Pass(tuple(sorted(game.hands[0]))))
    assert all("cards" not in e.data for e in events)


def test_D_END_3_a_conflict_decision_in_the_end_game_still_counts_as_one_action():
    game = stage()
    game.endgame = game.end_revealed = True
    game.deck.remove(game.end_card)
    game.set_aside.append(game.end_card)
    game.phase = "endgame"
    place(game, 1, LOC3, defenders=[cid("The Doctor", 3)])
    ens = (cid("Weeping Angels", 3), cid("Weeping Angels", 1), cid("Weeping Angels", 2))
    give(game, 0, *ens)
    give(game, 1, LOC2)
    game.apply(Attack(LOC3, ens))
    assert game.phase == "decide" and game.current_player == 0
    game.apply(game.legal_actions()[0])
    assert game.phase == "endgame" and game.turn_player == 1 and game.current_player == 1


def test_two_identical_cards_can_be_discarded_together():
    game = stage()
    filler(game, 0, 3)
    a, b = cid("Dalek", 1), cid("Dalek", 1, 1)
    give(game, 0, a, b)
    assert Discard((a, b)) in game.legal_actions()
    assert Attack(game.lines[1][0], (a, b)) in game.legal_actions()
