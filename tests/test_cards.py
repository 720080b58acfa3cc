"""The Island deck (a reconstruction, labelled) and the deck loader's validation."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import luckylab
from luckylab import DeckError, UnknownGame, load_characters, load_deck
from luckylab.boards import read_data_file
from luckylab.cards import deck_from_data

DATA = Path(luckylab.__file__).parent / "data" / "island_deck.toml"


@pytest.fixture(scope="module")
def deck():
    return load_deck("island")


def test_72_cards_of_three_kinds_with_ids_in_order(deck):
    assert len(deck) == 72
    assert [c.id for c in deck] == list(range(72))
    assert Counter(c.kind for c in deck) == {"weapon": 24, "hazard": 24, "failure": 24}


def test_luck_ranges_from_the_rulebook(deck):
    for c in deck:
        if c.kind == "failure":
            assert 1 <= c.luck <= 4
        else:
            assert 0 <= c.luck <= 2


def test_failure_luck_budget_is_the_sister_games(deck):
    assert Counter(c.luck for c in deck if c.kind == "failure") == {1: 10, 2: 6, 3: 4, 4: 4}


def test_known_names_are_kept(deck):
    names = {c.name for c in deck}
    assert {"Beach Chair", "Shark Tooth", "Elephant Gun", "Bad Dates"} <= names
    assert {"Fire Pit", "Hunting Snare", "Hammerhead Crabs", "Fire Ants",
            "Bag of Harpoons"} <= names
    assert {"Janet Principle", "Sara Halurin", "Simaon Fratelli"} <= set(load_characters())
    assert len(load_characters()) == 8


def test_I_KILL_2_beach_chair_2_or_4_on_sunset_beach(deck):
    chair = next(c for c in deck if c.name == "Beach Chair")
    assert chair.weapon_value("Sunset Beach") == 4 and chair.weapon_value("Frog Pond") == 2
    assert "rulebook" in chair.facts


def test_weapons_and_hazards_name_real_spaces_and_kinds(deck):
    board = luckylab.load_board("isla-fortuna")
    for c in deck:
        if c.kind == "weapon":
            assert c.special_space in board and c.special_value > c.value
        if c.kind == "hazard":
            assert c.space_kind in board.kinds and c.value >= 2
    with pytest.raises(ValueError, match="not a weapon"):
        next(c for c in deck if c.kind == "failure").weapon_value("Frog Pond")


def test_every_card_says_where_its_facts_come_from(deck):
    assert all(c.facts for c in deck)
    assert read_data_file(DATA)["status"] == "reconstruction"


def test_unknown_deck():
    with pytest.raises(UnknownGame, match="island"):
        load_deck("poker")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": "spell"}, "unknown kind 'spell'"),
        ({"luck": 7}, "Luck 0..2, not 7"),
        ({"luck": -1}, "whole number >= 0"),
        ({"special_space": "Atlantis"}, "'Atlantis' is not a space"),
        ({"space_kind": "beach"}, r"\[.space_kind.\] do not belong on a weapon card"),
        ({"colour": "red"}, "do not belong"),
    ],
)
def test_malformed_deck_files_name_the_file_and_field(change, message):
    data = read_data_file(DATA)
    first = data["cards"][0]
    first.update({k: v for k, v in change.items() if v is not None})
    with pytest.raises(DeckError, match=message) as info:
        deck_from_data(data, source="my_deck.toml")
    assert str(info.value).startswith("my_deck.toml: cards[0] (Beach Chair)")


def test_size_mismatch_is_reported():
    data = read_data_file(DATA)
    data["cards"].pop()
    with pytest.raises(DeckError, match="says 72 cards but lists 68"):
        deck_from_data(data, source="my_deck.toml")
