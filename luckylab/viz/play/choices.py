"""The choices the play table offers: the engine's grouped legal actions, in words.

The engine lists what may be done (:meth:`~luckylab.games.protocol.GameState.choices`); this
module only names each action, puts each group under its button word (from
:mod:`luckylab.viz.play.words`) and trims what would read twice:

- payments (a foil, a penalty paid in Luck) that differ only by which of two equal cards is
  paid are offered once, and a payment is offered only if no card of it could be kept back
  while still paying what is needed (paying less than is needed is offered too);
- a Move spread over several pawns (Island's Strangers, ``I-STR-6``) is offered one pawn at a
  time: the Moves the engine lists that add one pawn to the moves already planned.

Everything offered is one of the engine's legal actions.

>>> from luckylab import new_game
>>> from luckylab.viz.play.words import WORDS
>>> game = new_game("kill", players=3, seed=4)
>>> groups = offered(game, WORDS["kill"], Namer(game, WORDS["kill"], {0}))
>>> list(groups)[0], groups["Snoop"][0].label
('Snoop', 'stay in 0, Drawing Room and draw')
>>> all(c.action in game.legal_actions() for cs in groups.values() for c in cs)
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from ...games.protocol import ChoiceGroup
from .state import live_seats, needed, seen, where
from .words import BUTTON_ORDER, TableWords

__all__ = ["Choice", "Namer", "movable_pawns", "offered"]


@dataclass(frozen=True)
class Choice:
    """One offered choice: the words shown, the engine action, the space it goes to (if any),
    and the other things on the picture it touches (Doctor Who: ``"card:27"``, ``"loc:130"``),
    which a click can pick it by."""

    label: str
    action: Any
    space: str | None = None
    also: tuple[str, ...] = ()

    def touches(self, key: str) -> bool:
        """Whether a click on ``key`` (a space, a card, a Location) may pick this choice."""
        return key == self.space or key in self.also


def grid_words(place: str) -> str:
    """``"row 2, column 3"``: a place of Panic Island!'s grid (``"r2c3"``).

    >>> grid_words("r2c3"), grid_words("beach")
    ('row 2, column 3', 'beach')
    """
    if place.startswith("r") and "c" in place:
        row, _, col = place[1:].partition("c")
        if row.isdigit() and col.isdigit():
            return f"row {row}, column {col}"
    return place


def space_words(board: Any, space: str) -> str:
    """``"13, Gallery"``: a space with its number, where it has one."""
    number = board.number(space) if space in board else None
    return space if number is None else f"{number}, {space}"


class Namer:
    """Names seats, cards and spaces the way the table shows them to ``humans``."""

    def __init__(self, game: Any, words: TableWords, humans: Collection[int]) -> None:
        self.game, self.words, self.humans = game, words, humans
        self.live = live_seats(game)
        self.seen: Any = {}  # what the seat deciding now may know (its observation's data)

    def player_number(self, seat: int) -> int:
        """The number students read (Player 1 ...) of an engine seat."""
        return self.live.index(seat) + 1

    def who(self, seat: int) -> str:
        """``"Player 2"`` (and the character's name where players are characters)."""
        you = seat in self.humans and len(self.humans) == 1
        if seat not in self.live:  # an Island Stranger: its name says so
            return str(self.game.view().names[seat])
        name = f"Player {self.player_number(seat)}"
        if self.words.character_names:  # the Island's and Kill's characters: public
            return f"{name} ({self.game.view().names[seat]}{', you' if you else ''})"
        return name + (" (you)" if you else "")

    def card(self, card_id: int) -> str:
        """A card as the hand shows it."""
        card = self.game.view().card(card_id)  # what a card is: public
        if self.words.picture == "tableau":  # Doctor Who: its name and strength or VP
            return str(card)
        if card.kind == "failure":
            return f"{card.name} ({card.luck} {self.words.unit})"
        if self.words.card_details:
            return f"{card.name} ({card.kind}, Luck {card.luck})"
        return str(card.name)

    def space(self, space: str) -> str:
        if self.words.picture == "grid":
            return grid_words(space)
        return space_words(self.game.view().board, space)

    def paid(self, action: Any) -> int:
        """The points a payment pays."""
        view = self.game.view()
        return sum(view.card(c).luck for c in action.cards)

    def plain(self, action: Any) -> str:
        """Plain words for an action not among the offered choices."""
        if hasattr(action, "moves"):
            return "move " + ", ".join(f"{self.who(p)} to {self.space(s)}"
                                       for p, s in action.moves)
        label = labels_of(self.words).get(getattr(type(action), "type_name", ""))
        if self.words.picture in ("grid", "tableau") and label is not None:
            seat = self.game.current_player
            view = self.game.view(seat)
            return label(action, self, -1 if seat is None else seat, view, False).label
        if hasattr(action, "cards"):
            return f"pay {self.paid(action)}: " + ", ".join(self.card(c) for c in action.cards)
        return str(action)


# -- one label per kind of action (by its record name) ------------------------------------------

Label = Callable[[Any, Namer, int, Any, bool], Choice]


def _move_cat(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice(f"the cat to {n.space(a.space)}", a, a.space)


def _hazard(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    target = "Doctor Lucky" if a.target == "doctor" else n.who(a.target)
    card = view.card(a.card)
    return Choice(f"{card.name} (value {card.value}) at {target}", a)


def _pass(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice("stay put" if moving else "do nothing", a)


def _draw(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice("draw a card (nobody sees you)", a)


def _attack(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    how = "bare-handed" if a.weapon is None else f"with {view.card(a.weapon).name}"
    return Choice(f"attack {how}: value {view.attack_value(seat, a.weapon)}", a)


def _give(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice(f"give {n.card(a.card)}", a)


def _snoop(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    if a.to == where(n.seen, seat):
        return Choice(f"stay in {n.space(a.to)} and draw", a, a.to)
    return Choice(f"snoop into {n.space(a.to)} and draw", a, a.to)


def _step(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice(f"step into {n.space(a.to)}", a, a.to)


def _play(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    pawn = getattr(a, "pawn", getattr(a, "target", None))
    who = "yourself" if pawn == "self" else "Doctor Lucky"
    return Choice(f"{n.card(a.card)}: {who} to {n.space(a.to)}", a, a.to)


def _rescue(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    value = view.rescue_value(a.aid, where(n.seen, seat))
    how = "with no Aid" if a.aid is None else f"with {view.card(a.aid).name}"
    return Choice(f"rescue {how}: worth {value}", a)


def _end_turn(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice("end your turn", a)


# -- Panic Island! (a place of the grid is the choice's space) ---------------------------------


def _reveal(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice(f"turn the card at {n.space(a.place)}", a, a.place)


def _wake_gouga(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice("shout \"Gouga!\" (once a game)", a)


def _gouga_call(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice(f"\"{a.kind}!\" and turn the card at {n.space(a.place)}", a, a.place)


def _place(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice(f"put the card back at {n.space(a.place)}", a, a.place)


# -- Doctor Who (a card in your hand, or a Location, is what a click picks) --------------------


def _cards(n: Namer, cards: Sequence[int]) -> str:
    return ", ".join(n.card(c) for c in cards) or "nothing"


def _loc(n: Namer, lid: int) -> str:
    """A Location with its owner, as the deciding seat sees the table."""
    for loc in n.seen.get("locations", ()):
        if loc["card"] == lid:
            return f"{n.card(lid)} of {n.who(loc['owner'])}"
    return n.card(lid)


def _keys(cards: Sequence[int] = (), loc: int | None = None) -> tuple[str | None, tuple[str, ...]]:
    keys = [f"card:{c}" for c in cards] + ([] if loc is None else [f"loc:{loc}"])
    return (keys[0] if keys else None), tuple(keys[1:])


def _dw(label: str, a: Any, cards: Sequence[int] = (), loc: int | None = None) -> Choice:
    space, also = _keys(cards, loc)
    return Choice(label, a, space, also)


def _location(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    tp = view.card(a.card).tp
    return _dw(f"play {n.card(a.card)}, take {tp} TP", a, (a.card,))


def _defend(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return _dw(f"defend {_loc(n, a.loc)} with {_cards(n, a.cards)}", a, a.cards, a.loc)


def _dw_attack(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return _dw(f"attack {_loc(n, a.loc)} with {_cards(n, a.cards)}", a, a.cards, a.loc)


def _takeover(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return _dw(f"{n.card(a.card)} takes over the attack on {_loc(n, a.loc)}", a, (a.card,),
               a.loc)


def _support(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    words = [f"play {n.card(a.card)}"]
    if a.loc is not None:
        words.append(f"on the attack on {_loc(n, a.loc)}")
    if a.to is not None:
        words.append(f"turning it to {_loc(n, a.to)}")
    if a.index is not None:
        words.append(f"(the Enemy in place {a.index + 1})")
    if a.cards:
        words.append(f"with {_cards(n, a.cards)}")
    return _dw(" ".join(words), a, (a.card,), a.loc)


def _reserve(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return _dw(f"reserve {_cards(n, a.cards)}", a, a.cards)


def _buy(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice(f"buy {a.n} card{'s' if a.n > 1 else ''} for {5 * a.n} TP", a)


def _dw_discard(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return _dw(f"discard {_cards(n, a.cards)} for {len(a.cards)} TP", a, a.cards)


def _dw_pass(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    right = (seat - 1) % n.game.players
    return _dw(f"end the turn: pass {_cards(n, a.cards)} to {n.who(right)}", a, a.cards)


def _ironsides(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice("pay 1 TP for +1 defence" if a.pay else "keep your TP", a)


def _valiant(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return Choice("play The Valiant" if a.play else "do not play The Valiant", a)


def _match(a: Any, n: Namer, seat: int, view: Any, moving: bool) -> Choice:
    return _dw(f"discard {_cards(n, a.cards)} to match the defence", a, a.cards)


LABELS: dict[str, Label] = {
    "move_cat": _move_cat, "hazard": _hazard, "pass": _pass, "draw": _draw,
    "attack": _attack, "give": _give, "snoop": _snoop, "step": _step, "play": _play,
    "move_card": _play, "rescue": _rescue, "end_turn": _end_turn,
    "reveal": _reveal, "wake_gouga": _wake_gouga, "gouga_call": _gouga_call, "place": _place,
}
"""How each kind of action is put in words (kinds not listed: the action's own words)."""

DW_LABELS: dict[str, Label] = {
    "location": _location, "defend": _defend, "attack": _dw_attack, "takeover": _takeover,
    "support": _support, "reserve": _reserve, "buy": _buy, "discard": _dw_discard,
    "pass": _dw_pass, "ironsides": _ironsides, "valiant": _valiant, "match": _match,
}
"""Doctor Who's words for its actions (some record names are shared with the other games)."""


def labels_of(words: TableWords) -> dict[str, Label]:
    """The labels of a game's actions."""
    return DW_LABELS if words.picture == "tableau" else LABELS


ONE_PER_LABEL = frozenset({"give"})
"""Kinds offered once per label (two equal cards to give: one choice)."""


def _payments(actions: Sequence[Any], n: Namer, view: Any) -> list[Choice]:
    """One payment per multiset of values (paying the lowest card ids of each value), and
    only if no card of it could be kept back while still paying what is needed (paying less
    than needed is offered too); cheapest first, then fewest of the low values."""
    luck = {c: view.card(c).luck for a in actions for c in a.cards}
    best: dict[tuple[int, ...], Any] = {}
    for action in actions:
        lucks = tuple(sorted(luck[c] for c in action.cards))
        if lucks and lucks[0] == 0:
            continue  # a card worth nothing adds nothing
        need = needed(n.seen, action)
        if lucks and need is not None and sum(lucks) - lucks[0] >= need:
            continue  # a card of it could be kept back
        held = best.get(lucks)
        if held is None or sorted(action.cards) < sorted(held.cards):
            best[lucks] = action
    values = sorted(set(luck.values()))
    out = []
    for lucks, action in sorted(best.items(), key=lambda kv: (
            sum(kv[0]), tuple(kv[0].count(v) for v in values))):
        if not action.cards:
            out.append(Choice("pay nothing", action))
            continue
        cards = ", ".join(n.card(c) for c in action.cards)
        verb = n.words.pay_verbs.get(type(action).type_name, "pay")
        out.append(Choice(f"{verb} {sum(lucks)} {n.words.unit}: {cards}", action))
    return out


# -- moves spread over pawns ------------------------------------------------------------------


def _pawn_order(seat: int) -> Callable[[int], tuple[bool, int]]:
    return lambda p: (p != seat, p)


def movable_pawns(moves: Sequence[Any], seat: int, plan: Sequence[tuple[int, str]]) -> list[int]:
    """The pawns a Move may still take, after the moves already ``plan``\\ ned (the deciding
    seat's own pawn first), from the engine's legal Moves."""
    planned = set(plan)
    pawns = {p for m in moves if len(m.moves) == len(planned) + 1 and planned <= set(m.moves)
             for p, s in m.moves if (p, s) not in planned}
    pawns -= {p for p, _ in plan}
    return sorted(pawns, key=_pawn_order(seat))


def _pawn_moves(moves: Sequence[Any], plan: Sequence[tuple[int, str]], pawn: int,
                n: Namer, view: Any) -> list[Choice]:
    """The legal Moves that add ``pawn``'s move to ``plan``, nearest first."""
    planned = set(plan)
    here = where(n.seen, pawn)
    out = []
    for m in moves:
        if len(m.moves) != len(planned) + 1 or not planned <= set(m.moves):
            continue
        extra = [(p, s) for p, s in m.moves if (p, s) not in planned]
        if len(extra) != 1 or extra[0][0] != pawn:
            continue
        dest = extra[0][1]
        steps = view.board.distance(here, dest)
        word = "step" if steps == 1 else "steps"
        out.append(Choice(f"to {n.space(dest)} ({steps} {word})", m, dest))
    return out


# -- all of it ---------------------------------------------------------------------------------


def offered(game: Any, words: TableWords, namer: Namer, plan: Sequence[tuple[int, str]] = (),
            pawn: int | None = None,
            engine_groups: Sequence[ChoiceGroup] | None = None) -> dict[str, list[Choice]]:
    """Button word -> the choices under it, for the seat deciding now (empty when the game is
    over). ``plan`` and ``pawn``: the moves already planned and the pawn to move next, for a
    Move spread over pawns (default: the deciding seat's own pawn). ``engine_groups``:
    ``game.choices()`` if already asked for."""
    seat = game.current_player
    groups: dict[str, list[Choice]] = {}
    if seat is None:
        return groups
    if engine_groups is None:
        engine_groups = game.choices()
    namer.seen = seen(game, seat)
    view = game.view(seat)  # what the seat deciding now may know
    moving = any(g.actions and hasattr(g.actions[0], "moves") for g in engine_groups)
    for group in engine_groups:
        if not group.actions:
            continue
        kind = type(group.actions[0]).type_name
        button = words.buttons.get(kind, group.label)
        if hasattr(group.actions[0], "moves"):
            pawns = movable_pawns(group.actions, seat, plan)
            if pawns:
                who = pawn if pawn in pawns else pawns[0]
                moves = _pawn_moves(group.actions, plan, who, namer, view)
                if moves:
                    groups.setdefault(button, []).extend(moves)
            continue
        out = groups.setdefault(button, [])
        if kind in words.payments:  # payments: in Luck or Failure points
            out.extend(_payments(group.actions, namer, view))
        else:
            labels = labels_of(words)
            for action in group.actions:
                kind = type(action).type_name
                label = labels.get(kind)
                choice = label(action, namer, seat, view, moving) if label else \
                    Choice(str(action), action)
                if kind in ONE_PER_LABEL and any(c.label == choice.label for c in out):
                    continue  # two equal cards: one choice
                out.append(choice)
        if not out:
            del groups[button]
    return {g: groups[g] for g in BUTTON_ORDER if g in groups} | \
        {g: c for g, c in groups.items() if g not in BUTTON_ORDER}
