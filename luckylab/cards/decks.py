"""Card lists (decks), loaded from package data files and validated.

A deck file is TOML with a ``[[cards]]`` table per card design; ``copies`` repeats a design.
Cards get ids 0..N-1 in file order, so a seed and a list of actions that name card ids replay
exactly. Cards are frozen values; a game keeps *where* each card is (deck, a hand, the
discards, under a character), never changes the card.

>>> from luckylab import load_deck
>>> deck = load_deck("island")
>>> len(deck), sum(card.luck for card in deck if card.kind == "failure")
(72, 50)
>>> chair = next(card for card in deck if card.name == "Beach Chair")
>>> chair.weapon_value("Sunset Beach"), chair.weapon_value("Frog Pond")
(4, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..boards.files import _parse, read_data_file
from ..errors import DeckError, OptionError, UnknownGame
from .card import Card, Deck, check_card_fields

__all__ = ["DECKS", "deck_from_data", "load_characters", "load_deck"]

DECKS: dict[str, str] = {
    "island": "island_deck.toml",
    "kill": "kill_doctor_lucky_1997_cards.toml",
    "save": "save_deck.toml",
    "doctor-who": "doctor_who_deck.toml",
}
"""Built-in card lists: game name -> package data file in ``luckylab/data``."""


# Which fields each kind of card must have (and may have). Games with new kinds add rows.
KIND_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "weapon": (frozenset({"value"}), frozenset({"special_space", "special_value", "luck"})),
    "hazard": (frozenset({"space_kind", "value"}), frozenset({"luck"})),
    "failure": (frozenset({"luck"}), frozenset()),
    "room": (frozenset({"room"}), frozenset({"luck"})),
    "move": (frozenset({"steps"}), frozenset({"room", "luck"})),
    "aid": (frozenset({"value"}), frozenset({"special_space", "special_value", "luck"})),
}
_COMMON = frozenset({"name", "kind", "copies", "facts"})
_TOP_FIELDS = frozenset({"game", "name", "status", "source", "notes", "board", "kinds", "luck",
                         "size", "cards", "characters"})
MAX_CARDS = 10_000
"""The most cards a deck file may make (after ``copies``)."""


def load_deck(game: str | Path) -> Deck:
    """The card list of a game (``"island"``, ``"kill"``, ``"save"``) or of a deck file.

    Raises :class:`~luckylab.errors.UnknownGame` for an unknown name and
    :class:`~luckylab.errors.DeckError` (naming the file and field) for a malformed file.
    """
    if not isinstance(game, (str, Path)):
        raise OptionError(f"a deck is a game name or a file path, not {game!r}")
    key = str(game)
    if key in DECKS:
        return _load_builtin(key)
    path = Path(game)
    if path.suffix.lower() in (".toml", ".json"):
        if not path.exists():
            raise UnknownGame(f"no deck file at {key!r}")
        return deck_from_data(read_data_file(path, DeckError), source=path.name,
                              folder=path.parent)
    raise UnknownGame(f"unknown deck {key!r}; built-in decks: {', '.join(sorted(DECKS))}; "
                      "or give a .toml/.json file path")


@cache
def _load_builtin(game: str) -> Deck:
    filename = DECKS[game]
    resource = resources.files("luckylab") / "data" / filename
    if not resource.is_file():
        raise UnknownGame(f"deck {game!r} is registered but its data file {filename} is missing")
    return deck_from_data(_parse(resource.read_text(encoding="utf-8"), filename), source=filename)


def deck_from_data(data: Mapping[str, Any], source: str = "<data>",
                   folder: str | Path | None = None) -> Deck:
    """Validate parsed deck data and expand it into cards with ids 0..N-1.

    ``folder`` is the deck file's folder: a ``board = "x.toml"`` path is read from there.
    """

    def err(field: str, problem: str) -> None:
        raise DeckError(source, field, problem)

    if data.get("format") == "doctor-who":  # its own card shape
        from .doctorwho import dw_deck_from_data

        return dw_deck_from_data(data, source)  # type: ignore[return-value]
    extra = set(data) - _TOP_FIELDS
    if extra:
        err("(top level)", f"unknown field(s) {sorted(extra)}; allowed: {sorted(_TOP_FIELDS)}")
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        err("cards", "must be a non-empty list of [[cards]] tables")
    kinds = data.get("kinds", sorted(KIND_FIELDS))
    if not (isinstance(kinds, list) and kinds and all(isinstance(k, str) for k in kinds)):
        err("kinds", f"must be a non-empty list of kind names, not {kinds!r}")
    luck_ranges = data.get("luck", {})
    if not isinstance(luck_ranges, dict) or not all(
            isinstance(r, list) and len(r) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in r)
            for r in luck_ranges.values()):
        err("luck", f"must be a table of kind = [lowest, highest] whole numbers, not "
                    f"{luck_ranges!r}")
    for f in ("name", "status", "game", "source", "notes"):
        if f in data and not isinstance(data[f], str):
            err(f, f"must be a string, not {data[f]!r}")
    characters = data.get("characters", {"names": []})
    if not (isinstance(characters, dict)
            and set(characters) <= {"names", "facts", "source", "notes"}
            and isinstance(characters.get("names"), list)
            and all(isinstance(n, str) and n for n in characters["names"])
            and all(isinstance(v, str) for k, v in characters.items() if k != "names")):
        err("characters", "must be a table with names = a list of character names (and "
                          "optional facts, source, notes strings)")
    board = None
    if data.get("board") is not None:
        from ..boards import load_board
        from ..errors import BoardError

        where = data["board"]
        if not isinstance(where, str) or not where:
            err("board", f"must be a board name or file path, not {where!r}")
        if folder is not None and Path(where).suffix.lower() in (".toml", ".json") \
                and not Path(where).is_absolute():
            where = str(Path(folder) / where)  # relative to the deck file, not the cwd
        try:
            board = load_board(where)
        except (BoardError, UnknownGame) as exc:
            err("board", str(exc))
    cards: list[Card] = []
    for i, row in enumerate(raw):
        if not isinstance(row, dict):
            err(f"cards[{i}]", "must be a table")
        name = row.get("name")
        where = f"cards[{i}] ({name})"
        if not isinstance(name, str) or not name:
            err(f"cards[{i}].name", "must be a non-empty string")
        kind = row.get("kind")
        if not isinstance(kind, str) or kind not in kinds or kind not in KIND_FIELDS:
            err(f"{where}.kind", f"unknown kind {kind!r}; allowed: {', '.join(kinds)}")
        check_card_fields(err, where, kind, row, *KIND_FIELDS[kind], _COMMON)
        for f in ("luck", "value", "special_value", "steps", "copies"):
            v = row.get(f)
            if f in row and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
                err(f"{where}.{f}", f"must be a whole number >= 0, not {v!r}")
        for f in ("special_space", "space_kind", "room", "facts"):
            v = row.get(f)
            if v is not None and not isinstance(v, str):
                err(f"{where}.{f}", f"must be a string, not {v!r}")
        luck = row.get("luck", 0)
        if kind in luck_ranges:
            lo, hi = luck_ranges[kind]
            if not lo <= luck <= hi:
                err(f"{where}.luck", f"a {kind} card has Luck {lo}..{hi}, not {luck}")
        if ("special_space" in row) != ("special_value" in row):
            err(where, "special_space and special_value go together")
        if board is not None:
            for f in ("special_space", "room"):
                if row.get(f) is not None and row[f] not in board:
                    err(f"{where}.{f}", f"{row[f]!r} is not a space of {board.name}")
            if row.get("space_kind") is not None and row["space_kind"] not in board.kinds:
                err(f"{where}.space_kind", f"{row['space_kind']!r} is not a kind of space on "
                                           f"{board.name}; kinds: {', '.join(board.kinds)}")
        copies = row.get("copies", 1)
        if copies < 1:
            err(f"{where}.copies", "must be at least 1")
        if len(cards) + copies > MAX_CARDS:
            err(f"{where}.copies", f"makes more than {MAX_CARDS} cards; a deck holds at most "
                                   f"{MAX_CARDS}")
        for _ in range(copies):
            cards.append(Card(
                id=len(cards), name=name, kind=kind, luck=luck,
                value=row.get("value"), special_space=row.get("special_space"),
                special_value=row.get("special_value"), space_kind=row.get("space_kind"),
                room=row.get("room"), steps=row.get("steps"), facts=str(row.get("facts", "")),
            ))
    size = data.get("size")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool)):
        err("size", f"must be a whole number, not {size!r}")
    if size is not None and size != len(cards):
        err("size", f"the file says {size} cards but lists {len(cards)}")
    return tuple(cards)


@cache
def load_characters(game: str = "island") -> tuple[str, ...]:
    """The Character names of a game, seat 0 first (from the ``[characters]`` table of its deck
    file); the names the rulebook gives and the reconstructed ones are told apart there."""
    if game not in DECKS:
        raise UnknownGame(f"unknown deck {game!r}; built-in decks: {', '.join(sorted(DECKS))}")
    filename = DECKS[game]
    data = _parse((resources.files("luckylab") / "data" / filename).read_text("utf-8"), filename)
    names = data.get("characters", {}).get("names")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise DeckError(filename, "characters.names", "must be a list of names")
    return tuple(names)
