"""The Doctor Who card list: its own card shape (strength, VP, TP, combinations), validated on load.

Doctor Who cards are not Doctor Lucky cards: they have a type (Defender, Enemy, Location,
Support), a strength, victory points, Time Points and combination rules. The deck file
(``luckylab/data/doctor_who_deck.toml``) labels every value "rulebook", "secondary source" or
"reconstruction"; :func:`dw_deck_from_data` checks the file against the constraints of the rules
(127 game cards, 4 Starting Locations with distinct numbers, one End of the Game card, the count
ranges, strength 1-5, VP 1-4, Location TP 0-3, 4+ Doctors, 3+ cards of every plain Enemy type).

Ids: the 127 game cards are 0..126 in file order, then the 4 Starting Locations (127..130) and
the End of the Game card (131).

>>> from luckylab import load_deck
>>> deck = load_deck("doctor-who")
>>> len(deck), sum(c.kind in ("defender", "enemy", "location", "support") for c in deck)
(132, 127)
>>> doctor = next(c for c in deck if c.name == "The Doctor")
>>> doctor.strength, doctor.sources["strength"], doctor.sources["name"]
(4, 'reconstruction', 'rulebook')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import DeckError
from .card import check_card_fields

__all__ = ["DWCard", "LABELS", "compatible", "dw_deck_from_data"]

LABELS = ("rulebook", "secondary source", "reconstruction")
"""The only allowed source labels."""

GAME_KINDS = ("defender", "enemy", "location", "support")

_FIELDS = {
    "defender": ({"type", "strength"}, {"picture"}),
    "enemy": ({"type", "strength"}, {"combines"}),
    "location": ({"vp", "tp"}, set()),
    "support": (set(), set()),
    "starting": ({"number", "vp", "tp"}, set()),
    "end": (set(), set()),
}
_COMMON = {"name", "kind", "copies", "text", "source"}
_RANGES = {"strength": (1, 5), "vp": (1, 4), "tp": (0, 3), "number": (1, 4), "picture": (1, 4)}
# Names the rulebook gives; each must be in the deck (rules file, "Card list").
RULEBOOK_NAMES = (
    "The Doctor", "Amy Pond", "Rory", "River Song", "Donna",
    "Dalek", "Dalek Flagship", "Davros", "Cybermen", "Cyberking", "Silurians", "Weeping Angels",
    "The Silence", "Headless Monks", "Clerics", "Madame Kovarian", "The Master",
    "Papal Mainframe", "The Empty Child", "The Impossible Astronaut",
    "Sonic Screwdriver", "Psychic Paper", "Vincent Van Gogh", "Wilf", "Ood", "The Valiant",
    "Ironsides", "Mr Clever", "Captain Jack", "Collecting on Debts", "TARDIS", "Crack in Time",
    "Chameleon Arch", "Bad Wolf", "Jammy Dodger", "K-9", "Regeneration",
)
UNIQUE = ("Dalek Flagship", "Davros", "Cyberking", "Madame Kovarian", "The Master",
          "Papal Mainframe", "The Impossible Astronaut")
"""Unique characters: exactly one copy each (reconstruction)."""


@dataclass(frozen=True, slots=True)
class DWCard:
    """One Doctor Who card. ``kind`` is defender, enemy, location, support, starting or end;
    ``type`` is the Defender or Enemy type (all Doctors are one type); ``sources`` labels every
    value (field -> "rulebook" | "secondary source" | "reconstruction")."""

    id: int
    name: str
    kind: str
    type: str = ""
    strength: int = 0
    vp: int = 0
    tp: int = 0
    number: int = 0
    picture: int = 0
    combines: tuple[str, ...] = ()
    text: str = ""
    sources: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def __str__(self) -> str:
        if self.kind in ("defender", "enemy"):
            return f"{self.name} ({self.strength})"
        if self.kind in ("location", "starting"):
            return f"{self.name} ({self.vp} VP)"
        return self.name


def compatible(a: DWCard, b: DWCard) -> bool:
    """May Enemy cards ``a`` and ``b`` be in one attack (``D-ENE-1``)? Same type, or one says
    it combines with the other's type (or with any).

    >>> from luckylab import load_deck
    >>> deck = load_deck("doctor-who")
    >>> dalek, master, cyber = (next(c for c in deck if c.name == n)
    ...                         for n in ("Dalek", "The Master", "Cybermen"))
    >>> compatible(dalek, master), compatible(dalek, cyber)
    (True, False)
    """
    return (a.type == b.type or b.type in a.combines or a.type in b.combines
            or "any" in a.combines or "any" in b.combines)


def _check_row(row: Any, where: str, source: str) -> None:
    def err(f: str, problem: str) -> None:
        raise DeckError(source, f, problem)

    if not isinstance(row, dict):
        err(where, "must be a table")
    kind = row.get("kind")
    if not isinstance(kind, str) or kind not in _FIELDS:
        err(f"{where}.kind", f"unknown kind {kind!r}; allowed: {', '.join(_FIELDS)}")
    name = row.get("name")
    if not isinstance(name, str) or not name:
        err(f"{where}.name", "must be a non-empty string")
    where = f"{where} ({name})"
    check_card_fields(err, where, kind, row, *_FIELDS[kind], _COMMON)
    if "type" in row and (not isinstance(row["type"], str) or not row["type"]):
        err(f"{where}.type", f"must be a non-empty string, not {row['type']!r}")
    for f, (lo, hi) in _RANGES.items():
        if f in row:
            v = row[f]
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                err(f"{where}.{f}", f"must be a whole number {lo}..{hi}, not {v!r}")
    copies = row.get("copies", 1)
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        err(f"{where}.copies", f"must be a whole number >= 1, not {copies!r}")
    if not isinstance(row.get("text"), str) or not row["text"]:
        err(f"{where}.text", "every card needs its rule text")
    combines = row.get("combines", [])
    if not isinstance(combines, list) or not all(isinstance(c, str) for c in combines):
        err(f"{where}.combines", "must be a list of Enemy type names (or \"any\")")
    src = row.get("source")
    if not isinstance(src, dict):
        err(f"{where}.source", "must be a table labelling every value")
    for f in set(row) - {"kind", "source", "text"} | {"text"}:
        if f == "combines" and not combines:
            continue
        if f not in src:
            err(f"{where}.source.{f}", f"the value of {f!r} has no source label; "
                                       f"allowed: {', '.join(LABELS)}")
    for f, label in src.items():
        if label not in LABELS:
            err(f"{where}.source.{f}", f"unknown label {label!r}; allowed: {', '.join(LABELS)}")


def _make(row: Mapping[str, Any], cid: int) -> DWCard:
    return DWCard(id=cid, name=row["name"], kind=row["kind"], type=row.get("type", ""),
                  strength=row.get("strength", 0), vp=row.get("vp", 0), tp=row.get("tp", 0),
                  number=row.get("number", 0), picture=row.get("picture", 0),
                  combines=tuple(row.get("combines", ())), text=row["text"],
                  sources=dict(row["source"]))


def dw_deck_from_data(data: Mapping[str, Any], source: str = "<data>") -> tuple[DWCard, ...]:
    """Validate parsed Doctor Who deck data; the 127 game cards, 4 Starting Locations and the
    End of the Game card with ids 0..131. Raises :class:`~luckylab.errors.DeckError` naming the
    file and the field."""

    def err(f: str, problem: str) -> None:
        raise DeckError(source, f, problem)

    rows = data.get("cards")
    if not isinstance(rows, list) or not rows:
        err("cards", "must be a non-empty list of [[cards]] tables")
    cards: list[DWCard] = []
    for i, row in enumerate(rows):
        _check_row(row, f"cards[{i}]", source)
        if row["kind"] not in GAME_KINDS:
            err(f"cards[{i}].kind", f"a game card is one of {', '.join(GAME_KINDS)}")
        if len(cards) + row.get("copies", 1) > 127:  # before making them: copies = 10**9
            err("size", f"the game has 127 game cards; with cards[{i}].copies the file "
                        f"lists more")
        for _ in range(row.get("copies", 1)):
            cards.append(_make(row, len(cards)))
    size = data.get("size", 127)
    if len(cards) != size or size != 127:
        err("size", f"the game has 127 game cards; the file says {size} and lists {len(cards)}")
    ranges = data.get("counts", {})
    if not isinstance(ranges, dict) or not all(
            k in GAME_KINDS and isinstance(r, list) and len(r) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in r)
            for k, r in ranges.items()):
        err("counts", f"must be a table of {', '.join(GAME_KINDS)} = [lowest, highest] (whole "
                      f"numbers), not {ranges!r}")
    by_kind = Counter(c.kind for c in cards)
    for kind, (lo, hi) in ranges.items():
        if not lo <= by_kind[kind] <= hi:
            err(f"counts.{kind}", f"{by_kind[kind]} {kind} cards, outside {lo}..{hi}")
    names = {c.name for c in cards}
    for n in RULEBOOK_NAMES:
        if n not in names:
            err("cards", f"the rulebook names {n!r}, which the file lacks")
    by_name = Counter(c.name for c in cards)
    if by_name["The Doctor"] < 4 or len({c.picture for c in cards if c.name == "The Doctor"}) != 4:
        err("cards (The Doctor)", "the rulebook has 4+ Doctor cards with 4 pictures")
    for n in UNIQUE:
        if by_name[n] != 1:
            err(f"cards ({n})", f"a unique character appears once, not {by_name[n]} times")
    plain = Counter(c.type for c in cards if c.kind == "enemy")
    for t, n in plain.items():
        if t not in UNIQUE and n < 3:
            err(f"cards ({t})", f"every Enemy type has 3+ cards, {t} has {n}")
    if not any(c.kind == "enemy" and c.strength == 1 for c in cards):
        err("cards", "the rulebook mentions weak Enemy cards: some must have strength 1")
    starts = data.get("starting")
    if not isinstance(starts, list) or len(starts) != 4:
        err("starting", "the game has 4 Starting Locations")
    for i, row in enumerate(starts):
        _check_row(row, f"starting[{i}]", source)
        if row["kind"] != "starting":
            err(f"starting[{i}].kind", "must be \"starting\"")
        cards.append(_make(row, len(cards)))
    numbers = [c.number for c in cards if c.kind == "starting"]
    if len(set(numbers)) != 4:
        err("starting", f"Starting Location numbers must be distinct, not {numbers}")
    end = data.get("end")
    _check_row(end, "end", source)
    if end["kind"] != "end":
        err("end.kind", "must be \"end\"")
    cards.append(_make(end, len(cards)))
    return tuple(cards)
