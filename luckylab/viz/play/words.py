"""What the play table says and draws for each game: wording and pictures as data, no rules.

Each game the table seats has one :class:`TableWords`: the word for the place, the picture to
draw, the button word of each kind of action (by the action's record name, ``type_name``),
the order of the buttons, and the few phrases that differ between the games. Everything the
table offers comes from the engine (:meth:`~luckylab.games.protocol.GameState.choices`);
these only name it.

>>> WORDS["kill"].buttons["snoop"], WORDS["save"].unit, WORDS["island"].picture
('Snoop', 'Failure', 'paths')
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
    """What the map shows, in "Map of the ...": "island", "mansion", "ship"."""
    picture: str
    """Which picture the map is: "paths" (spaces as discs joined by paths), "rooms" (a
    mansion's rooms), "ship" (rooms that sink)."""
    buttons: Mapping[str, str]
    """Action record name (``type_name``) -> the word on its group's button."""
    unit: str
    """What a foiling card is worth: "Luck" or "Failure"."""
    card_details: bool = False
    """Name a card with its kind and Luck ("Axe (weapon, Luck 1)"), not its name alone."""
    character_names: bool = False
    """Players are characters with names ("Player 1 (Janet Principle)")."""
    strength_column: bool = False
    """The players' table shows each player's Move and Attack."""
    table_notes: tuple[str, ...] = ()
    """What the line under the players' table adds: "deck", "cat", "afloat"."""
    odds_card_kind: str = "weapon"
    """The kind of card the Hint's odds are computed for ("weapon" or "aid")."""
    odds_attempt: str = "an attack"
    """The attempt the Hint's odds are about ("an attack", "a rescue")."""
    odds_no_card: str = "bare-handed"
    """The words of an attempt without such a card."""
    pay_verbs: Mapping[str, str] = field(default_factory=dict)
    """Payment record name -> its verb, where it is not "pay"."""
    no_look_ahead: str = ""
    """Added to "no bot ..." when the game has no look-ahead bot."""


BUTTON_ORDER: tuple[str, ...] = (
    "Move", "Snoop", "Step", "Play a card", "Move the cat", "Hazard", "Draw", "Attack", "Rescue",
    "Pay", "Give a card", "Discard Luck", "Pass", "End turn")
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
        odds_card_kind="aid", odds_attempt="a rescue", odds_no_card="with no Aid",
        no_look_ahead=" (the look-ahead bot 'ismcts' plays Island and Kill only)"),
})
"""The games the play table seats, and their words."""


PHASE_WORDS: Mapping[str, str] = MappingProxyType({
    "phase1": "Phase 1 (move)", "phase2": "Phase 2 (draw or attack)",
    "foil": "a foiling round", "penalty": "a Hazard penalty", "turn": "the start of a turn",
    "active": "an active turn", "doing": "a doing-something turn"})
"""The words of a game's phase in the title (a phase not listed is shown as it is)."""
