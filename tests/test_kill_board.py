"""The real 1997 Kill Doctor Lucky board and cards, checked against the reference tables.

The package data holds the drawing only; adjacency and sight are derived by
luckylab.boards.geometry.
The reference tables (``tests/data/kill_doctor_lucky_1997_reference.json``, a copy of
the team's reference ``kill_doctor_lucky_1997.json``) were derived independently from the board
PDF's raster; here the derivation from the data file must equal them exactly, and every
rulebook example must hold.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from kill_staging import card_ids, staged

from luckylab import load_board, load_deck
from luckylab.games.kill import Attack, Foil, PlayCard, Step, attack_value, doctor_next

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HERE = Path(__file__).parent
REFERENCE_FILE = HERE / "data" / "kill_doctor_lucky_1997_reference.json"
REF = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
BOARD = load_board("kill-doctor-lucky")
DECK = load_deck("kill")
RAW = tomllib.loads(
    (resources.files("luckylab") / "data" / "kill_doctor_lucky_1997.toml").read_text("utf-8"))


def test_fixture_is_a_faithful_copy_of_the_shared_reference():
    """The fixture equals the team's reference table where it is beside the checkout."""
    candidates = [HERE.parent.parent / "shared" / "reference" / "kill_doctor_lucky_1997.json",
                  Path("/work/shared/reference/kill_doctor_lucky_1997.json")]
    shared = next((p for p in candidates if p.is_file()), None)
    if shared is None:
        pytest.skip("shared/reference is not beside this checkout")
    assert json.loads(shared.read_text(encoding="utf-8")) == REF


def test_data_file_keeps_the_provenance():
    assert RAW["status"] == "published"
    assert RAW["source"] == REF["source"]
    assert RAW["method"] == REF["method"]
    assert RAW["source_sha256"] == REF["source_sha256"]
    assert RAW["units"] == REF["units"] and RAW["page"] == REF["page"]


def test_data_file_geometry_is_the_reference_geometry():
    """Every rectangle, door and railing of the reference, and nothing else."""
    g = BOARD.geometry
    assert {s: list(r) for s, r in g.rects.items()} == {s["name"]: s["rect"]
                                                      for s in REF["spaces"]}
    assert sorted((sorted(o.between), list(o.rect)) for o in g.doors) == sorted(
        (sorted(d["between"]), d["rect"]) for d in REF["doors"])
    assert [(list(o.between), list(o.rect)) for o in g.see_through] == [
        (d["between"], d["rect"]) for d in REF["see_through"]]
    for s in REF["spaces"]:
        assert BOARD.number(s["name"]) == s["number"]
        assert BOARD.kind(s["name"]) == s["kind"]


def test_K_BOARD_1_thirty_two_spaces():
    """K-BOARD-1: 20 numbered rooms 0..19, 4 unnumbered named rooms, 6 hallways, 2 stairways."""
    assert len(BOARD) == 32
    numbered = sorted(BOARD.number(s) for s in BOARD.spaces if BOARD.number(s) is not None)
    assert numbered == list(range(20))
    unnumbered_rooms = {s for s in BOARD.spaces_of_kind("room") if BOARD.number(s) is None}
    assert unnumbered_rooms == {"Foyer", "Gallery", "White Room", "Wine Cellar"}
    assert len(BOARD.spaces_of_kind("hallway")) == 6
    assert len(BOARD.spaces_of_kind("stairs")) == 2


def test_K_BOARD_2_adjacency_derived_from_doors_equals_the_reference():
    """K-BOARD-2: one step = one door; the derived graph equals the reference table exactly."""
    derived = {s: sorted(BOARD.graph[s]) for s in BOARD.spaces}
    assert derived == REF["adjacent"]
    assert all(k == "door" for _, _, k in BOARD.graph.edges(data="kind"))
    assert sum(d for _, _, d in BOARD.graph.edges(data="doors")) == len(REF["doors"]) == 55


def test_K_SIGHT_1_sight_derived_from_geometry_equals_the_reference():
    """K-SIGHT-1: straight horizontal/vertical sight; equal to the raster-derived table."""
    derived = {s: sorted(BOARD.visible_from(s) - {s}) for s in BOARD.spaces}
    assert derived == REF["visible"]
    for s in BOARD.spaces:
        assert BOARD.sees(s, s)


def test_K_SIGHT_1_every_visible_pair_has_a_band_at_least_45_wide():
    """The reference's robustness note: the narrowest band (Green House-Hedge Maze) is 45 pt."""
    widths = BOARD.geometry.sight_widths()
    pairs = {frozenset((a, b)) for a, seen in REF["visible"].items() for b in seen}
    assert set(widths) == pairs
    narrowest = min(widths, key=widths.get)
    assert narrowest == {"Green House", "Hedge Maze"} and widths[narrowest] == 45


def test_K_SIGHT_2_gallery_railing_is_seen_through_not_walked_through():
    """K-SIGHT-2: the Gallery sees the Dining Hall over the railing but has no door to it."""
    assert BOARD.sees("Gallery", "Dining Hall")
    assert not BOARD.graph.has_edge("Gallery", "Dining Hall")
    assert BOARD.distance("Gallery", "Dining Hall") > 1
    rails = BOARD.geometry.see_through
    assert len(rails) == 1 and set(rails[0].between) == {"Gallery", "Dining Hall"}


def test_K_DOC_1_path_and_fallback_are_the_reference_and_agree_with_the_doors():
    """K-DOC-1: numbered rooms in order 0..19; every unnumbered space falls back to its
    highest-numbered adjoining room, as derived from the geometry's doors."""
    assert list(BOARD.path) == REF["doctor_path"]
    assert [BOARD.number(s) for s in BOARD.path] == list(range(20))
    fallback = {s: BOARD.graph.nodes[s]["fallback"] for s in BOARD.spaces
                if "fallback" in BOARD.graph.nodes[s]}
    assert fallback == REF["fallback"]
    unnumbered = {s for s in BOARD.spaces if BOARD.number(s) is None}
    assert set(fallback) == unnumbered
    for s, target in fallback.items():
        highest = max((BOARD.number(n), n) for n in BOARD.graph[s]
                      if BOARD.number(n) is not None)[1]
        assert target == highest, s


def test_the_96_cards_are_the_reference_cards():
    """Every card of the reference, in order, with its kind and values."""
    assert len(DECK) == len(REF["cards"]) == 96
    for card, ref in zip(DECK, REF["cards"], strict=True):
        assert card.kind == ref["type"]
        if ref["type"] == "room":
            assert card.room == ref["room"] and card.name == ref["room"]
        elif ref["type"] == "move":
            assert card.steps == ref["value"]
        elif ref["type"] == "weapon":
            assert (card.name, card.value) == (ref["name"], ref["value"])
            assert card.special_space == ref["special_room"]
            assert card.special_value == ref["special_value"]
        else:
            assert card.luck == ref["value"]
        assert "sheet {}-{}-{}".format(*ref["sheet"]) in card.facts


# -- every rulebook example ------------------------------------------------------------------


def check_example(check: dict) -> None:
    kind = check["type"]
    if kind == "space_counts":
        counts = Counter(BOARD.kind(s) for s in BOARD.spaces)
        assert len(BOARD) == check["total"]
        assert {k: counts[k] for k in ("room", "hallway", "stairs")} == {
            k: check[k] for k in ("room", "hallway", "stairs")}
    elif kind == "visible_equals":
        assert sorted(BOARD.visible_from(check["space"]) - {check["space"]}) == check["spaces"]
    elif kind == "adjacent_of_kind_equals":
        assert sorted(BOARD.neighbors(check["space"])
                      & set(BOARD.spaces_of_kind(check["kind"]))) == check["spaces"]
    elif kind == "not_visible":
        assert not BOARD.sees(check["a"], check["b"]) and not BOARD.sees(check["b"], check["a"])
    elif kind == "visible":
        assert BOARD.sees(check["a"], check["b"]) and BOARD.sees(check["b"], check["a"])
    elif kind == "not_adjacent":
        assert not BOARD.graph.has_edge(check["a"], check["b"])
    elif kind == "visible_named_rooms_equals":
        seen = BOARD.visible_from(check["space"]) - {check["space"]}
        assert sorted(seen & set(BOARD.spaces_of_kind("room"))) == check["spaces"]
    elif kind == "space_is":
        assert BOARD.start["players"] == check["space"]
        assert (BOARD.kind(check["space"]), BOARD.number(check["space"])) == (
            check["kind"], check["number"])
    elif kind == "snooping":
        assert set(BOARD.kinds) == set(check["walkable_kinds"])
        assert all(BOARD.neighbors(s) for s in BOARD.spaces)  # every space can be walked into
        draw = [s for s in BOARD.spaces if BOARD.kind(s) in check["draw_kinds"]]
        assert len(draw) == check["draw_spaces"]
    elif kind == "doctor_next":
        assert doctor_next(BOARD, check["from"]) == check["to"]
        if "numbers" in check:
            assert [BOARD.number(check["from"]), BOARD.number(check["to"])] == check["numbers"]
    elif kind == "walk":
        path = check["path"]
        assert all(BOARD.graph.has_edge(a, b) for a, b in zip(path, path[1:], strict=False))
        # ... and the game lets a player walk it: the free step, then a Move-1 card.
        game = staged(positions={0: path[0]}, doctor="Kitchen", hands={0: ["Move-1"]})
        game.apply(Step(path[1]))
        game.apply(PlayCard(game.hands[0][0], "self", path[2]))
        assert game.position[0] == path[2]
    elif kind == "attack_value":
        weapon = next(c for c in DECK if c.name == check["weapon"])
        assert attack_value(weapon, check["room"]) == check["value"]
    elif kind == "attack_values":
        for case in check["cases"]:
            if case["weapon_value"] is None:
                assert attack_value(None, "Kitchen") == case["value"]
                continue
            plain = [c for c in DECK if c.kind == "weapon" and c.value == case["weapon_value"]]
            assert plain
            for weapon in plain:  # anywhere but its special room
                room = next(s for s in BOARD.spaces if s != weapon.special_space)
                assert attack_value(weapon, room) == case["value"]
    elif kind == "foil":
        for case in check["cases"]:
            assert foiled_by(check["attack_value"], case["failure_points"]) == case["foiled"]
    elif kind == "deck":
        kinds = Counter(c.kind for c in DECK)
        assert len(DECK) == check["total"]
        assert dict(Counter(str(c.steps) for c in DECK if c.kind == "move")) == check["move"]
        assert kinds["room"] == check["room"] and kinds["weapon"] == check["weapon"]
        rooms = [c.room for c in DECK if c.kind == "room"]
        assert (len(set(rooms)) == len(rooms)) == check["room_distinct"]
        assert dict(Counter(str(c.luck) for c in DECK if c.kind == "failure")) == check["failure"]
    else:
        raise AssertionError(f"unknown rule example check {kind!r}: add it to this test")


def foiled_by(value: int, points: list[int]) -> bool:
    """Play a real foiling round: an attack worth ``value`` in a 5-player game where the
    players after the first pass and the last ``len(points)`` play one Failure card each."""
    weapon = next(c for c in DECK if c.kind == "weapon" and c.value == value
                  and c.special_space != "Nursery")
    hands = {0: [weapon.name]}
    seats = list(range(5 - len(points), 5))
    for seat, p in zip(seats, points, strict=True):
        hands[seat] = [f"Failure {p}"]
    far = ["Kitchen", "Piazza", "Hedge Maze", "White Room"]
    game = staged(players=5, positions={0: "Nursery", **dict(zip(range(1, 5), far, strict=True))},
                  doctor="Nursery", hands=hands)
    game.apply(Attack(card_ids(game, weapon.name)[0]))
    while not game.is_over and game.phase == "foil":
        seat = game.current_player
        game.apply(Foil(tuple(game.hands[seat]) if seat in seats else ()))
    return not game.finished


@pytest.mark.parametrize("example", REF["rule_examples"],
                         ids=[e["id"] for e in REF["rule_examples"]])
def test_rulebook_example(example):
    """Each of the reference's rulebook examples (K-SIGHT-1, K-DOC-1, K-KILL-1, K-FAIL-1 ...)."""
    check_example(example["check"])


def test_reference_has_twenty_rule_examples():
    assert len(REF["rule_examples"]) == 20
