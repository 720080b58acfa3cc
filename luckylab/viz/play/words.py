"""What the play table says and draws for each game: wording and pictures as data, no rules.

Each game the table seats has one :class:`TableWords`: the word for the place, the picture to
draw, the button word of each kind of action (by the action's record name, ``type_name``),
the order of the buttons, and the few phrases that differ between the games. Everything the
table offers comes from the engine (:meth:`~luckylab.games.protocol.GameState.choices`);
these only name it.

>>> WORDS["kill"].buttons["snoop"], WORDS["save"].unit, WORDS["island"].picture
('Snoop', 'Failure', 'paths')
>>> WORDS["panic"].picture, WORDS["doctorwho"].picture
('grid', 'tableau')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["BUTTON_ORDER", "PHASE_WORDS", "WORDS", "TableWords"]


@dataclass(frozen=True)
class TableWords:
    """The wording and pictures of one game at the play table."""

    place: str
    """What the map shows, in "Map of the ...": "island", "mansion", "ship", "table"."""
    picture: str
    """Which picture the map is: "paths" (spaces as discs joined by paths), "rooms" (a
    mansion's rooms), "ship" (rooms that sink), "grid" (Panic Island!'s cards in a grid),
    "tableau" (Doctor Who's table: Locations, counters, your hand)."""
    buttons: Mapping[str, str]
    """Action record name (``type_name``) -> the word on its group's button."""
    unit: str
    """What a foiling card is worth: "Luck" or "Failure" (Doctor Who: "TP"; Panic: none)."""
    card_details: bool = False
    """Name a card with its kind and Luck ("Axe (weapon, Luck 1)"), not its name alone."""
    character_names: bool = False
    """Players are characters with names ("Player 1 (Janet Principle)")."""
    strength_column: bool = False
    """The players' table shows each player's Move and Attack."""
    table_notes: tuple[str, ...] = ()
    """What the line under the players' table adds: "deck", "cat", "afloat"."""
    odds_card_kind: str = "weapon"
    """The kind of card the Hint's odds are computed for ("weapon" or "aid"; "" for a game
    without foiling odds)."""
    odds_attempt: str = "an attack"
    """The attempt the Hint's odds are about ("an attack", "a rescue")."""
    odds_no_card: str = "bare-handed"
    """The words of an attempt without such a card."""
    pay_verbs: Mapping[str, str] = field(default_factory=dict)
    """Payment record name -> its verb, where it is not "pay"."""
    payments: frozenset[str] = frozenset({"foil", "discard"})
    """Action record names that pay cards' points (offered once per sum, see
    :mod:`luckylab.viz.play.choices`); none in a game without foiling."""
    phases: Mapping[str, str] = field(default_factory=dict)
    """The game's own words for its phases (before :data:`PHASE_WORDS`)."""
    clicks: str = "click a space to move there or pick a card's target"
    """What a click on the picture does, for the sentence under it."""
    team: bool = False
    """The players are one team (Panic Island!): the table shows the team's score and clock."""


BUTTON_ORDER: tuple[str, ...] = (
    "Move", "Snoop", "Step", "Play a card", "Move the cat", "Hazard", "Draw", "Attack", "Rescue",
    "Pay", "Give a card", "Discard Luck", "Pass", "End turn",
    "Turn a card", "Gouga!", "Call for Gouga", "Put back",
    "Location", "Defend", "Take over", "Support", "Reserve", "Buy", "Discard", "Ironsides",
    "Valiant", "Match", "Pass cards")
"""The buttons in the order they are shown (a button word not listed comes last)."""

WORDS: Mapping[str, TableWords] = MappingProxyType({
    "island": TableWords(
        place="island", picture="paths", unit="Luck", card_details=True,
        character_names=True, strength_column=True, table_notes=("deck", "cat"),
        buttons={"move": "Move", "move_cat": "Move the cat", "hazard": "Hazard",
                 "pass": "Pass", "draw": "Draw", "attack": "Attack", "foil": "Pay",
                 "give": "Give a card", "discard": "Discard Luck"},
        pay_verbs={"discard": "discard"}),
    "kill": TableWords(
        place="mansion", picture="rooms", unit="Failure", table_notes=("deck",),
        buttons={"snoop": "Snoop", "step": "Step", "play": "Play a card", "attack": "Attack",
                 "foil": "Pay", "end_turn": "End turn"}),
    "save": TableWords(
        place="ship", picture="ship", unit="Failure", table_notes=("afloat",),
        buttons={"snoop": "Snoop", "step": "Step", "move_card": "Play a card",
                 "rescue": "Rescue", "foil": "Pay", "end_turn": "End turn"},
        odds_card_kind="aid", odds_attempt="a rescue", odds_no_card="with no Aid"),
    "panic": TableWords(
        place="island's cards", picture="grid", unit="", team=True,
        buttons={"reveal": "Turn a card", "wake_gouga": "Gouga!", "gouga_call": "Call for Gouga",
                 "place": "Put back"},
        odds_card_kind="", payments=frozenset(),
        phases={"turn": "turn over a first card (or wake Gouga)",
                "second": "turn over a second card",
                "gouga": "Gouga is awake: name native, dodo or egg and turn one card",
                "place": "put the card back face down on an empty place"},
        clicks="click a card to pick it, click it again to turn it (or put a card there)"),
    "doctorwho": TableWords(
        place="table", picture="tableau", unit="TP",
        buttons={"location": "Location", "defend": "Defend", "attack": "Attack",
                 "takeover": "Take over", "support": "Support", "reserve": "Reserve",
                 "buy": "Buy", "discard": "Discard", "pass": "Pass cards",
                 "ironsides": "Ironsides", "valiant": "Valiant", "match": "Match"},
        odds_card_kind="", payments=frozenset(),
        phases={"turn": "a turn (two actions, then pass cards)",
                "endgame": "the End Game (one action a turn)",
                "decide": "a decision in a conflict"},
        clicks="click a card of your hand to select it, then a Location; click again to do it"),
})
"""The games the play table seats, and their words."""


PHASE_WORDS: Mapping[str, str] = MappingProxyType({
    "phase1": "Phase 1 (move)", "phase2": "Phase 2 (draw or attack)",
    "foil": "a foiling round", "penalty": "a Hazard penalty", "turn": "the start of a turn",
    "active": "an active turn", "doing": "a doing-something turn"})
"""The words of a game's phase in the title (a phase not listed is shown as it is)."""
