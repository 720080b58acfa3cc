"""The one foiling round (luckylab.games.foiling) as Island, Kill and Save use it.

Its listing is checked against every subset of small hands (one payment per combination of
values, each one the rules allow, none missing); ``probability.p_foil`` against enumerating
the round's payments over every deal of a small case; ``theory.solve_foil_round`` against
playing the round with the solver's choices. The rules: I-FOIL-1..3, I-STR-3, K-FAIL-1,
S-FAIL-1..3 (docs/rules/).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kill_staging import staged

from luckylab import IllegalAction, load_deck, new_game
from luckylab.analysis.dilemma import discard_options, solve_foil_round
from luckylab.analysis.luck import p_foil
from luckylab.games import island, kill, save
from luckylab.games.foiling import FoilRound, FoilRules, asking_order

ISLAND = load_deck("island")
KILL = load_deck("kill")
SAVE = load_deck("save")
RULES = {
    "island": island.foil_rules(),
    "kill": kill.foil_rules(),
    "save": save.foil_rules(SAVE),
    "save, S-FAIL-3 off": save.foil_rules(SAVE, last_must_foil=False),
}
DECKS = {"island": ISLAND, "kill": KILL, "save": SAVE, "save, S-FAIL-3 off": SAVE}


def worth(rules, cards):
    return sum(rules.values[c] for c in cards)


def value_multiset(rules, cards):
    return tuple(sorted(rules.values[c] for c in cards))


def round_for(value, *, asked=0, seats=4, paid=0):
    """A round against ``value`` in which ``asked`` seats have passed (seat 0 attacks)."""
    round_ = FoilRound(attacker=0, value=value, order=asking_order(list(range(seats)), 0))
    for seat in round_.order[:asked]:
        round_.record(seat, (), 0)
    round_.paid = paid
    return round_


def small_hands(deck, size):
    """Hands of up to ``size`` cards, drawn from the deck's cards (hypothesis)."""
    return st.lists(st.sampled_from([c.id for c in deck]), max_size=size, unique=True)


# -- the listing: one payment per combination of values ------------------------------------------

@pytest.mark.parametrize("name", list(RULES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_I_FOIL_1_K_FAIL_1_S_FAIL_1_one_listed_payment_per_allowed_combination_of_values(
        name, data):
    rules, deck = RULES[name], DECKS[name]
    hand = data.draw(small_hands(deck, 9))
    value = data.draw(st.integers(1, 8))
    asked = data.draw(st.integers(0, 2))  # 2: the last of three asked (S-FAIL-3)
    round_ = round_for(value, asked=asked)
    listed = rules.payments(hand, round_)
    shapes = [value_multiset(rules, p.cards) for p in listed]
    assert len(shapes) == len(set(shapes)), "one payment per combination of values"
    for payment in listed:
        assert rules.problem(hand, payment.cards, round_) is None
        assert list(payment.cards) == sorted(payment.cards)
        assert all(rules.values[c] for c in payment.cards), "no card worth 0 is listed"
    # every combination of positive values that some allowed subset pays is listed
    allowed = {value_multiset(rules, subset)
               for r in range(len(hand) + 1) for subset in itertools.combinations(hand, r)
               if all(rules.values[c] for c in subset)
               and rules.problem(hand, subset, round_) is None}
    assert set(shapes) == allowed


@pytest.mark.parametrize("name", ["island", "kill"])
def test_I_FOIL_1_K_FAIL_1_any_payment_listed_count_is_the_product_of_copies_plus_one(name):
    rules, deck = RULES[name], DECKS[name]
    hand = [c.id for c in deck if rules.values[c.id]][::3]
    copies = Counter(rules.values[c] for c in hand)
    expected = 1
    for n in copies.values():
        expected *= n + 1
    assert len(rules.payments(hand, round_for(3))) == expected


def test_I_FOIL_1_a_32_card_island_hand_lists_payments_not_subsets():
    """Issue 29: a random game reached a 32-card hand; listing 2**32 subsets never returned."""
    game = new_game("island", players=4, seed=5)
    hand = [c.id for c in ISLAND if c.luck == 1]  # 32 cards worth 1 Luck: 33 payments
    stage_foil(game, {1: hand}, attack=3)
    start = time.process_time()
    listed = game.legal_actions()
    assert time.process_time() - start < 1.0
    assert len(listed) == 33 and listed[0] == island.Foil(())
    big = [c.id for c in ISLAND if c.luck > 0][:32]  # four values: at most (32/4 + 1) ** 4
    game = new_game("island", players=4, seed=5)
    stage_foil(game, {1: big}, attack=3)
    copies = Counter(ISLAND[c].luck for c in big)
    expected = 1
    for n in copies.values():
        expected *= n + 1
    assert len(game.legal_actions()) == expected < 2 ** 16


def test_I_FOIL_1_island_offers_failure_cards_before_weapons_and_hazards_of_equal_luck():
    rules = RULES["island"]
    weapon = next(c.id for c in ISLAND if c.kind == "weapon" and c.luck == 2)
    hazard = next(c.id for c in ISLAND if c.kind == "hazard" and c.luck == 2)
    failure = next(c.id for c in ISLAND if c.kind == "failure" and c.luck == 2)
    hand = [weapon, hazard, failure]
    assert [p.cards for p in rules.payments(hand, round_for(2))] == [
        (), (failure,), tuple(sorted([weapon, failure])), (weapon, hazard, failure)]
    # without a Failure card: the lowest ids first (Kill's and Save's rule)
    assert [p.cards for p in rules.payments([hazard, weapon], round_for(2))][1] == (weapon,)


@pytest.mark.parametrize("name", ["kill", "save"])
def test_K_FAIL_1_S_FAIL_1_kill_and_save_offer_the_lowest_ids_of_each_value(name):
    rules, deck = RULES[name], DECKS[name]
    ones = [c.id for c in deck if c.kind == "failure" and c.luck == 1][:3]
    listed = rules.payments(list(reversed(ones)), round_for(2))
    # Kill lets a player play more than needed; Save stops at the card that stops it
    more = [(ones[0], ones[1], ones[2])] if name == "kill" else []
    assert [p.cards for p in listed] == [(), (ones[0],), (ones[0], ones[1]), *more]


def test_S_FAIL_1_no_card_past_the_one_that_stops_it_and_S_FAIL_3_the_last_must_stop():
    rules = RULES["save"]
    ones = [c.id for c in SAVE if c.kind == "failure" and c.luck == 1][:2]
    three = next(c.id for c in SAVE if c.kind == "failure" and c.luck == 3)
    hand = [*ones, three]
    assert rules.problem(hand, (ones[0], three), round_for(1)) is not None
    assert [p.cards for p in rules.payments(hand, round_for(1))] == [(), (three,), (ones[0],)]
    last = round_for(1, asked=2)
    assert rules.must_stop(hand, last)
    assert [p.cards for p in rules.payments(hand, last)] == [(three,), (ones[0],)]
    assert "S-FAIL-3" in rules.problem(hand, (), last)
    assert RULES["save, S-FAIL-3 off"].problem(hand, (), last) is None


def test_I_FOIL_3_S_FAIL_2_the_last_seat_that_held_enough_and_paid_less_is_the_loser():
    rules = RULES["island"]
    one, four_ = (next(c.id for c in ISLAND if c.kind == "failure" and c.luck == v)
                  for v in (1, 4))
    round_ = round_for(3)
    rules.pay(round_, 1, (), hand=[four_])       # held enough, passed: the loser so far
    rules.pay(round_, 2, (one,), hand=[one, four_])  # a token discard: still a loser
    rules.pay(round_, 3, (), hand=[])
    assert round_.next_seat is None and not round_.foiled and round_.loser == 2
    assert RULES["kill"].names_loser is False  # kill.md names no loser


# -- apply: the listed payment and any other the rules allow --------------------------------------

def stage_foil(game, hands, attack):
    """An Island game in a foiling round against ``attack``: seat 0 attacks, ``hands`` given."""
    spot = "Skull Rock"
    for seat in game.seats:
        game.position[seat] = spot if seat == 0 else "Lighthouse"
    game.doctor, game.cat = spot, "Lighthouse"
    for seat, cards in hands.items():
        for c in cards:
            for place in (game.deck, game.discards, *game.hands.values(), *game.under.values()):
                if c in place:
                    place.remove(c)
        game.deck[0:0] = game.hands[seat]
        game.hands[seat] = list(cards)
    game._held = sum(game.hand_luck(s) for s in game.seats)
    game.active = game._decider = 0
    game.phase = "phase2"
    game.attack[0] = attack
    game.apply(island.Attack(None))
    assert game.phase == "foil" and game.current_player == 1


def test_I_FOIL_1_apply_accepts_a_weapon_the_listing_would_not_offer_first():
    game = new_game("island", players=4, seed=5)
    weapon = next(c.id for c in ISLAND if c.kind == "weapon" and c.luck == 2)
    failure = next(c.id for c in ISLAND if c.kind == "failure" and c.luck == 2)
    zero = next(c.id for c in ISLAND if c.luck == 0)
    stage_foil(game, {1: [weapon, failure, zero]}, attack=3)
    assert island.Foil((weapon,)) not in game.legal_actions()
    game.apply(island.Foil((zero, weapon)))  # today's behaviour: any cards of the hand
    assert game.foil.paid == 2 and weapon in game.discards and zero in game.discards


def test_K_FAIL_1_apply_accepts_any_copy_of_a_value_not_only_the_listed_one():
    game = staged(players=4, positions={0: "Nursery", 1: "Kitchen", 2: "Piazza",
                                        3: "Hedge Maze"},
                  doctor="Nursery", hands={1: ["Failure 1", "Failure 1", "Move-1"]})
    game.apply(kill.Attack(None))
    low, high = sorted(c for c in game.hands[1] if KILL[c].kind == "failure")
    assert game.legal_actions() == [kill.Foil(()), kill.Foil((low,)), kill.Foil((low, high))]
    game.apply(kill.Foil((high,)))  # today's behaviour: any copy
    assert high in game.removed and game.foil is None


def test_S_FAIL_1_any_copy_is_allowed_not_only_the_listed_one():
    rules = RULES["save"]
    ones = [c.id for c in SAVE if c.kind == "failure" and c.luck == 1][:2]
    round_ = round_for(1)
    assert save.Foil((ones[1],)) not in rules.payments(ones, round_)
    assert rules.problem(ones, (ones[1],), round_) is None


def test_S_FAIL_1_check_raises_with_the_listed_payments():
    rules = RULES["save"]
    ones = [c.id for c in SAVE if c.kind == "failure" and c.luck == 1][:2]
    with pytest.raises(IllegalAction, match="play fewer cards") as err:
        rules.check(ones, tuple(ones), round_for(1))
    assert "legal now" in str(err.value)


# -- p_foil: the chance the table CAN foil, against enumerating the round -----------------------

def can_foil(rules, hands, attack):
    """Play the round with every seat paying its most valuable listed payment."""
    round_ = FoilRound(attacker=0, value=attack, order=list(range(1, len(hands) + 1)))
    while (seat := round_.next_seat) is not None:
        hand = hands[seat - 1]
        best = max(rules.payments(hand, round_), key=lambda p: worth(rules, p.cards))
        assert rules.problem(hand, best.cards, round_) is None
        rules.pay(round_, seat, best.cards, hand)
    return round_.foiled


@pytest.mark.parametrize(("name", "sizes"), [("island", [2, 1]), ("island", [1, 1, 1]),
                                             ("kill", [2, 1]), ("save", [1, 2])])
def test_I_FOIL_2_K_FAIL_1_S_FAIL_1_p_foil_equals_enumerating_the_round_over_every_deal(
        name, sizes):
    rules, deck = RULES[name], DECKS[name]
    # A small case: the attacker has seen all but 11 cards (a spread of values stays unseen).
    unseen = [c.id for c in deck][::len(deck) // 11][:11]
    known = [c.id for c in deck if c.id not in unseen]
    for attack in range(1, 8):
        deals = foiled = 0
        for cards in itertools.permutations(unseen, sum(sizes)):
            hands, at = [], 0
            for size in sizes:
                hand = cards[at:at + size]
                if list(hand) != sorted(hand):
                    break  # one ordering per hand: a hand is a set of cards
                hands.append(list(hand))
                at += size
            else:
                deals += 1
                foiled += can_foil(rules, hands, attack)
        exact = p_foil(attack, sizes, deck=name.split(",")[0], known=known, exact=True)
        assert Fraction(foiled, deals) == exact, (name, sizes, attack)


# -- theory: the solver's plan, played on the round -------------------------------------------

def island_style(lucks):
    """The Island's rules (every card counts, worth its Luck; any discard; a loser) over a
    made-up deck holding these hands (the real deck has no Luck 5 and only four 3s): the hands
    as card ids, and the rules."""
    rules = RULES["island"]
    deck = [luck for hand in lucks for luck in hand]
    made_up = FoilRules(deck, island.Foil, stop_at_card=rules.stop_at_card,
                        last_must_stop=rules.last_must_stop, names_loser=rules.names_loser)
    ids = iter(range(len(deck)))
    return [[next(ids) for _ in hand] for hand in lucks], made_up


def play_the_plan(attack, lucks, strangers=()):
    """Solve the round, then play it on the foiling round with the solver's amounts; return
    the plan, the round played and its rules."""
    plan = solve_foil_round(attack, lucks, strangers=strangers)
    hands, rules = island_style(lucks)
    round_ = FoilRound(attacker=len(lucks), value=attack, order=list(range(len(lucks))))
    while (seat := round_.next_seat) is not None:
        if seat in strangers:  # I-STR-3: the top card of the deck, never the loser
            round_.record(seat, hands[seat], worth(rules, hands[seat]))
            continue
        amounts = {worth(rules, p.cards): p for p in rules.payments(hands[seat], round_)}
        # every amount the solver weighs (Luck 0 cards aside) is one listed payment
        assert set(amounts) == set(discard_options(lucks[seat]))
        payment = amounts[plan.strategy[seat][round_.needed]]
        rules.pay(round_, seat, payment.cards, hands[seat])
    return plan, round_, rules


def test_I_FOIL_1_2_3_worked_example_6_the_plan_played_on_the_round():
    plan, round_, _ = play_the_plan(4, [[2], [0], [5]])
    assert round_.foiled == plan.foiled is True
    assert [s for s, cards in round_.asked if cards] == list(plan.payers) == [2]


def test_I_FOIL_3_the_solvers_loser_is_the_rounds_loser():
    plan, round_, _ = play_the_plan(4, [[4], [1], [0]])
    assert plan.loser == round_.loser
    assert round_.foiled == plan.foiled


@settings(max_examples=80, deadline=None)
@given(attack=st.integers(1, 9),
       lucks=st.lists(st.lists(st.integers(0, 4), max_size=4), min_size=1, max_size=4),
       data=st.data())
def test_I_FOIL_1_2_3_I_STR_3_solver_payer_and_payment_agree_with_playing_the_round(
        attack, lucks, data):
    single = [i for i, hand in enumerate(lucks) if len(hand) == 1]
    strangers = tuple(data.draw(st.lists(st.sampled_from(single), unique=True))) if single \
        else ()
    plan, round_, rules = play_the_plan(attack, lucks, strangers)
    assert round_.foiled == plan.foiled
    assert (None if round_.foiled else round_.loser) == plan.loser
    assert len(round_.asked) == len(plan.path)
    paid = {seat: worth(rules, cards) for seat, cards in round_.asked if worth(rules, cards)}
    assert paid == plan.paid
    assert tuple(paid) == plan.payers
