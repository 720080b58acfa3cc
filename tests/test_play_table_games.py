"""The play table seats Panic Island! and Doctor Who too, driven through its controls and its
picture as a student would (buttons, clicks on the picture), never by engine calls.

A seeded game of each is played to the end; the saved record replays to the same game; a card
that another seat holds hidden never appears in anything the table shows (its text, its log,
its choices, the labels of its picture); a click on a card of your hand selects it.
"""

from __future__ import annotations

import json
import re

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from luckylab import new_game, replay  # noqa: E402
from luckylab.viz.play import PlayTable, PlayTableError  # noqa: E402


def press_first(table: PlayTable) -> None:
    """Pick the first group and the first choice in it, and press "Do it"."""
    table.group_picker.value = table.group_picker.options[0]
    table.action_picker.value = table.action_picker.options[0][1]
    table.go_button.click()


def click_at(table: PlayTable, key: str) -> None:
    """A click on the picture at the centre of ``key`` (a place, a card, a Location)."""
    x, y = table.clicks.pixel_of(key)
    assert table.click({"dataX": x, "dataY": y}) == key


def shown_text(table: PlayTable) -> str:
    """Everything the table shows as text: the widgets' HTML, the choices, the picture."""
    parts = [table.title_html.value, table.hand_html.value, table.table_html.value,
             table.log_html.value, table.message_html.value, table.hint_html.value,
             table.alt_text, *(c.label for cs in table.choices.values() for c in cs)]
    parts += getattr(table.map, "texts", [])
    parts += list(getattr(table.map, "labels", {}).values())
    return "\n".join(parts)


def replays_to_the_same_game(table: PlayTable) -> None:
    table.save_button.click()
    record = json.loads(table.record_text.value)
    again = replay({k: v for k, v in record.items() if k != "table"})
    assert again.is_over and again.record() == table.game.record()
    assert again.result() == table.game.result()


# -- Panic Island! ----------------------------------------------------------------------------


def test_panic_is_played_to_the_end_by_the_team_with_the_buttons():
    table = PlayTable("panic", players=3, you=1, seed=2)
    assert table.group_picker.options == ("Turn a card", "Gouga!")
    assert table.clock_bar.layout.display == "" and table.clock_bar.value == 1.0
    decisions = 0
    while not table.game.is_over:
        press_first(table)
        decisions += 1
        assert decisions < 500
    assert decisions == 13
    assert table.title_html.value == ("<h3>The team escaped with the raft and the paddle: "
                                      "score 9 (Experts!).</h3>")
    assert "Hourglass:" in table.table_html.value
    assert 0.0 <= table.clock_bar.value < 1.0
    replays_to_the_same_game(table)


@pytest.mark.slow
def test_panic_hot_seat_played_to_the_end_by_clicks_on_the_grid():
    """Two players at one screen: every decision is two clicks on a card of the picture (pick,
    then do); the Gouga button is the only one pressed. A face-down card nobody has seen is
    never named, and the hourglass only runs down."""
    table = PlayTable("panic", players=2, you=[1, 2], seed=5)
    assert table.bot_names == {}
    clock = table.clock_bar.value
    clicks = 0
    while not table.game.is_over:
        choices = [c for cs in table.choices.values() for c in cs if c.space is not None]
        if not choices:
            press_first(table)
            continue
        target = choices[0].space
        moves = len(table.game.history)
        click_at(table, target)
        assert table.picked == target and table.chosen.space == target
        assert "Picked" in table.message_html.value
        click_at(table, target)
        clicks += 2
        assert len(table.game.history) == moves + 1  # the second click did it
        obs = table.game.observation(0)
        for place, label in table.map.labels.items():
            if label not in ("?", "", "volcano", "Landslide"):
                assert place in obs["cards"], (place, label)  # only what was seen
        assert table.clock_bar.value <= clock
        clock = table.clock_bar.value
        assert clicks < 1000
    assert "team" in table.title_html.value
    replays_to_the_same_game(table)


def test_panic_names_its_places_by_row_and_column_and_numbers_players_from_1():
    table = PlayTable("panic", players=2, you=2, seed=3)
    labels = [c.label for c in table.choices["Turn a card"]]
    assert labels[0] == "turn the card at row 1, column 1"
    assert "Player 2 (you)" in table.hand_html.value
    assert "Player 0" not in shown_text(table)


# -- Doctor Who --------------------------------------------------------------------------------


def ever_seen(record, seat: int) -> list[set[int]]:
    """The card ids ``seat`` has seen by each point of the recorded game (after 0, 1, ...
    actions): its hand, reserve, passed and received cards, every face-up card."""
    game = new_game(record["game"], players=record["players"], seed=record["seed"],
                    **record["options"])
    seen: set[int] = set()

    def look() -> set[int]:
        obs = game.observation(seat)
        ids = set(obs["hand"]) | set(obs["reserve"]) | set(obs["passed"]) | \
            set(obs["received"]) | set(obs["discard"]) | set(obs["set_aside"])
        for up in obs["reserve_up"]:
            ids |= set(up)
        for loc in obs["locations"]:
            ids |= {loc["card"]} | {c for c in loc["defenders"] + loc["enemies"]
                                    if c is not None}
        return ids

    out = [set(seen := seen | look())]
    for data in record["actions"]:
        game.apply(game.action_from_data(data))
        seen |= look()
        out.append(set(seen))
    return out


@pytest.mark.slow
def test_doctorwho_is_played_to_the_end_and_never_shows_a_hidden_card():
    """Player 1 plays a seeded three-player game through the buttons. At every decision the
    table's text, choices and picture labels are kept; afterwards, for each of those moments,
    no card Player 1 had never seen may be named (a name shared with a card it had seen is
    not evidence, so it is left out)."""
    table = PlayTable("doctorwho", players=3, you=1, seed=2)
    moments = []
    while not table.game.is_over:
        moments.append((len(table.game.history), shown_text(table)))
        press_first(table)
        assert len(moments) < 400
    assert len(moments) == 45
    assert table.title_html.value.startswith("<h3>Player 3 wins (Player 1 (you) 1 VP")
    replays_to_the_same_game(table)
    record = table.game.record()
    seen = ever_seen(record, 0)
    cards = table.game.cards
    checked = 0
    for moves, text in moments:
        known_names = {str(cards[c]) for c in seen[moves]}
        hidden = {str(c) for c in cards if c.id not in seen[moves]} - known_names - {"TARDIS"}
        for name in hidden:
            assert not re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text), \
                (moves, name)
        checked += len(hidden)
    assert checked > 1000  # many hidden cards, checked at every decision


def test_doctorwho_a_click_on_a_hand_card_selects_it_and_a_location_then_plays_it():
    """Click a Defender of your hand: a choice with it is picked and framed in the picture;
    click one of your Locations: the Defend choice with that card and Location is picked; a
    second click on it carries it out. A short game (turn cap 6) then ends by clicks and
    buttons."""
    table = PlayTable("doctorwho", players=3, you=1, seed=2, turn_cap=6)
    obs = table.game.observation(0)
    defender = next(c for c in obs["hand"] if table.game.card(c).kind == "defender")
    click_at(table, f"card:{defender}")
    assert table.picked == f"card:{defender}"
    assert table.chosen.touches(f"card:{defender}")
    assert "Picked" in table.message_html.value and "Rory (2)" in table.message_html.value
    mine = next(loc["card"] for loc in obs["locations"] if loc["owner"] == 0)
    click_at(table, f"loc:{mine}")
    chosen = table.chosen
    assert type(chosen.action).type_name == "defend"
    assert chosen.action.loc == mine and defender in chosen.action.cards
    before = len(table.game.history)
    click_at(table, f"loc:{mine}")
    assert table.game.history[before] == chosen.action
    while not table.game.is_over:
        keyed = [c for cs in table.choices.values() for c in cs if c.space is not None]
        if keyed:
            click_at(table, keyed[0].space)
            click_at(table, keyed[0].space)
        else:
            press_first(table)
    assert table.lines[-1] == "The game stops unfinished at its turn cap (6 turns)."
    assert table.title_html.value.startswith("<h3>The game ended with no winner (Player 1")
    replays_to_the_same_game(table)


def test_doctorwho_shows_your_hand_reserve_and_what_you_passed_and_received():
    table = PlayTable("doctorwho", players=3, you=1, seed=2)
    while "Received: nothing yet" in table.hand_html.value and not table.game.is_over:
        press_first(table)
    obs = table.game.observation(0)
    for cid in obs["hand"]:
        assert str(table.game.card(cid)) in table.hand_html.value
        assert f"card:{cid}" in table.clicks.boxes
    assert "Passed to Player 3:" in table.hand_html.value
    for cid in obs["received"]:
        assert str(table.game.card(cid)) in table.hand_html.value
    assert any(t.startswith("You passed to Player 3") for t in table.map.texts)
    # the others' hands are counts only; every seat is numbered from 1
    text = shown_text(table)
    assert "Player 0" not in text and "Player 4" not in text


def test_doctorwho_hot_seat_shows_the_hand_of_the_seat_deciding():
    table = PlayTable("doctorwho", players=3, you=[1, 3], seed=2)
    seen_by = set()
    for _ in range(12):
        if table.game.is_over:
            break
        seat = table.game.current_player
        assert seat in table.humans and table.viewer == seat
        hand = table.game.observation(seat)["hand"]
        assert {f"card:{c}" for c in hand} <= set(table.clicks.boxes)
        assert f"Hand of Player {seat + 1}" in table.hand_html.value
        seen_by.add(seat)
        press_first(table)
    assert seen_by == {0, 2}


def test_an_unknown_game_is_refused_with_the_five_names():
    with pytest.raises(PlayTableError, match="island, kill, save, panic, doctorwho"):
        PlayTable("chess")
