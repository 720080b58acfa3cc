"""What a seat of Doctor Who may know: its observation, a world it cannot tell from the true
one (for search), and the game's view (:class:`DoctorWhoView`).

Ruling 10: Time Points, counters, face-up cards and how many cards each player holds are
public; hands, face-down reserves and face-down cards are their owner's (a player may peek at
its own face-down Defenders and Enemies). The Defenders of a conflict waiting for a decision
are face up (ruling 1). :class:`DoctorWhoViews` gives the game class ``observation``,
``determinize``, ``view``, ``clone`` and ``card_places``; it holds no rule of play (those are
in :mod:`~luckylab.games.doctorwho.rules`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from ...cards.doctorwho import DWCard, compatible
from ...errors import HiddenInformation
from ..copying import light_copy
from ..protocol import Observation, SeatView
from .actions import Attack, Defend, Loc, Pass, PlaySupport, Reserve

__all__ = ["DoctorWhoView", "DoctorWhoViews"]

_G = TypeVar("_G", bound="DoctorWhoViews")


class DoctorWhoViews:
    """What each seat sees of a Doctor Who game (a mixin of
    :class:`~luckylab.games.doctorwho.rules.DoctorWhoGame`, whose state it reads)."""

    HIDDEN_ACTIONS: ClassVar[frozenset[type]] = frozenset(
        {Defend, Attack, Reserve, Pass, PlaySupport})
    """Hands, reserves and face-down cards are their owner's alone (ruling 10): a Defence,
    an Attack and a Reserve go face down, a pass goes to one neighbour, a Support's cards may
    come from the hand (K-9's Defender). Others see who took such an action, not its cards
    (the events say what was public: the Support played, how many cards)."""

    cards: tuple[DWCard, ...]
    players: int
    phase: str
    hands: list[list[int]]
    reserves: list[list[int]]
    reserve_up: list[list[int]]
    locs: dict[int, Loc]
    lines: list[list[int]]
    deck: list[int]
    discard: list[int]
    set_aside: list[int]
    passed: list[tuple[int, ...]]
    received: list[tuple[int, ...]]
    conflict: Any
    end_card: int
    rng: random.Random

    def _shared_attributes(self) -> frozenset[str]:
        """The card list: read-only, shared by every copy."""
        return frozenset({"cards"})

    def clone(self: _G) -> _G:
        """An independent copy, events and history included (cheap: the cards are shared, the
        state is copied as deep as the rules change it)."""
        return light_copy(self, self._shared_attributes())

    def card_places(self) -> dict[str, list[int]]:
        """Where every card is (for checks: each card is in exactly one place)."""
        places: dict[str, list[int]] = {"deck": list(self.deck), "discard": list(self.discard),
                                        "set_aside": list(self.set_aside)}
        for s in range(self.players):
            places[f"hand{s}"] = list(self.hands[s])
            places[f"reserve{s}"] = list(self.reserves[s]) + list(self.reserve_up[s])
        for lid, loc in self.locs.items():
            places[f"loc{lid}"] = [lid, *loc.defenders, *loc.enemies]
        return places

    # -- what a seat may know (ruling 10) -----------------------------------------------------
    def _face_up_defenders(self, lid: int) -> bool:
        """Defenders of a conflict waiting for a decision are face up (revealed, ruling 1)."""
        return self.conflict is not None and self.conflict.loc == lid

    def observation(self, seat: int, text: bool = True) -> Observation:
        """Exactly what ``seat`` may know: its hand and reserve, its own face-down Defenders and
        Enemies (it may peek), every face-up card, counts, TP, counters, the discard pile, and
        the cards it last passed and received. Other face-down cards are ``None``.
        ``text=False`` leaves the text for people empty (for a bot that reads only the data).

        >>> from luckylab import new_game
        >>> game = new_game("doctorwho", players=4, seed=2)
        >>> obs = game.observation(1)
        >>> obs["hand"] == game.hands[1], obs["hands"], obs["tp"]
        (True, [5, 2, 5, 5], [0, 0, 0, 0])
        >>> print(obs.text.splitlines()[0])
        Player 2 (you): 0 TP, 2 cards in hand, 0 in reserve; Player 3 goes first.
        """
        seat = self._check_seat(seat)
        cards, players = self.cards, self.players
        c = self.conflict
        shown = c.loc if c is not None else None  # a conflict's Defenders are face up
        daleks, tardises, scores = [0] * players, [0] * players, [0] * players
        locations = []
        for s in range(players):
            for lid in self.lines[s]:
                loc = self.locs[lid]
                attacker, enemies, defenders = loc.attacker, loc.enemies, loc.defenders
                if attacker is not None:
                    daleks[attacker] += 1
                if loc.tardis:
                    tardises[s] += 1
                # D-SCO-1 as this seat can tell: a face-down Papal Mainframe is unknown to it
                if not enemies:
                    scores[s] += cards[lid].vp
                    seen = []
                else:
                    up, mine_att = loc.up, attacker == seat
                    if attacker is not None and not any(
                            cards[e].name == "Papal Mainframe" and (mine_att or e in up)
                            for e in enemies):
                        scores[attacker] += cards[lid].vp
                    seen = list(enemies) if mine_att else [e if e in up else None
                                                           for e in enemies]
                locations.append({
                    "card": lid, "owner": s, "tardis": loc.tardis, "attacker": attacker,
                    "defenders": (list(defenders) if s == seat or lid == shown
                                  else [None] * len(defenders)),
                    "enemies": seen,
                })
        data = {
            "seat": seat, "players": self.players, "phase": self.phase,
            "current_player": self.current_player, "turn_player": self.turn_player,
            "turn": self.turns, "endgame": self.endgame, "end_revealed": self.end_revealed,
            "hand": list(self.hands[seat]), "reserve": list(self.reserves[seat]),
            "reserve_up": [list(r) for r in self.reserve_up],
            "hands": [len(h) for h in self.hands], "reserves": [len(r) for r in self.reserves],
            "tp": list(self.tp), "supply": self.supply,
            "daleks": daleks, "tardises": tardises,
            "locations": locations, "deck": len(self.deck), "discard": list(self.discard),
            "set_aside": list(self.set_aside),
            "passed": list(self.passed[seat]), "received": list(self.received[seat]),
            "conflict": None if c is None else {"loc": c.loc, "attacker": c.attacker,
                                                "defender": c.defender, "defence": c.defence,
                                                "attack": c.attack, "stage": c.stage},
            "scores": scores,
        }
        return Observation(seat, data, self._observation_text(seat, data) if text else "")

    def _observation_text(self, seat: int, data: dict[str, Any]) -> str:
        name = self._name
        hand = ", ".join(map(name, data["hand"])) or "nothing"
        lines = [f"{self._p(seat)} (you): {data['tp'][seat]} TP, {data['hands'][seat]} cards in "
                 f"hand, {data['reserves'][seat]} in reserve; "
                 + ("the game is over." if self.phase == "over" else
                    f"{self._p(self.current_player)} "  # type: ignore[arg-type]
                    f"{'goes first' if not self.history else 'to act'}."),
                 f"Your hand: {hand}."]
        for s in range(self.players):
            if s != seat:
                lines.append(f"{self._p(s)}: {data['tp'][s]} TP, {data['hands'][s]} cards in "
                             f"hand, {data['reserves'][s]} in reserve, "
                             f"{data['scores'][s]} VP now.")
        lines.append(f"Deck {data['deck']} cards; your score now {data['scores'][seat]} VP"
                     + ("; the End Game." if self.endgame else "."))
        return "\n".join(lines)

    def determinize(self: _G, seat: int, rng: random.Random) -> _G:
        """A copy of the game that ``seat`` cannot tell from this one: every card hidden from
        it (the deck below and above the face-up End card, other players' hands and face-down
        reserves, face-down Defenders of others, face-down Enemies of others' attacks) dealt
        anew from those same cards, and the game's generator reseeded from ``rng``. What the
        seat knows stays: the cards it passed stay where they went; a face-down Defender stack
        gets Defenders of distinct types, a face-down attack Enemies that combine with it.

        >>> from luckylab import new_game
        >>> game = new_game("doctorwho", players=3, seed=1)
        >>> world = game.determinize(0, random.Random(5))
        >>> world.observation(0) == game.observation(0), world.hands[1] == game.hands[1]
        (True, False)
        """
        seat = self._check_seat(seat)
        world = self.clone()
        world.rng = random.Random(rng.getrandbits(64))
        keep = set(self.passed[seat]) | {self.end_card}
        free: list[tuple[list[int], int]] = []  # (container, index): any hidden card fits
        stacks: list[tuple[str, Loc, list[int]]] = []  # face-down stacks with their rule
        free.extend((world.deck, i) for i in range(len(world.deck)))
        for s in range(self.players):
            if s != seat:
                free.extend((world.hands[s], i) for i in range(len(world.hands[s])))
                free.extend((world.reserves[s], i) for i in range(len(world.reserves[s])))
        for lid, loc in world.locs.items():
            if loc.owner != seat and loc.defenders and not self._face_up_defenders(lid):
                stacks.append(("defender", loc, list(range(len(loc.defenders)))))
            down = [i for i, e in enumerate(loc.enemies) if e not in loc.up]
            if loc.attacker != seat and down:
                stacks.append(("enemy", loc, down))
        free = [(box, i) for box, i in free if box[i] not in keep]
        stacks = [(kind, loc, [i for i in idx if (loc.defenders if kind == "defender"
                                                  else loc.enemies)[i] not in keep])
                  for kind, loc, idx in stacks]
        pool = [box[i] for box, i in free]
        pool += [(loc.defenders if kind == "defender" else loc.enemies)[i]
                 for kind, loc, idx in stacks for i in idx]
        pool.sort()  # two games that look the same to seat deal the same world
        for _ in range(20):  # a shuffle whose stacks cannot be filled is dealt again
            order = list(pool)
            rng.shuffle(order)
            dealt = self._deal_stacks(world, stacks, order)
            if dealt is not None:
                break
        else:  # (never seen) the stacks keep their cards; everything else is dealt anew
            dealt = {}
            order = list(pool)
            for kind, loc, idx in stacks:
                for i in idx:
                    order.remove((loc.defenders if kind == "defender" else loc.enemies)[i])
            rng.shuffle(order)
        for (kind, loc, idx) in stacks:
            for i, card in zip(idx, dealt.get(id(loc), {}).get(kind, ()), strict=False):
                (loc.defenders if kind == "defender" else loc.enemies)[i] = card
        for (box, i), card in zip(free, order, strict=True):
            box[i] = card
        return world

    def _deal_stacks(self, world: Any, stacks: list[tuple[str, Loc, list[int]]],
                     order: list[int]) -> dict[int, dict[str, list[int]]] | None:
        """Take from ``order`` (in place) the cards of each face-down stack, or None when a
        stack cannot be filled from this shuffle."""
        cards = self.cards
        dealt: dict[int, dict[str, list[int]]] = {}
        for kind, loc, idx in stacks:
            if kind == "defender":
                used = {cards[d].type for i, d in enumerate(loc.defenders) if i not in idx}
            else:
                shown = [e for i, e in enumerate(loc.enemies)
                         if i not in idx and cards[e].kind == "enemy"]
            picked: list[int] = []
            for card in order:
                if len(picked) == len(idx):
                    break
                if cards[card].kind != kind:
                    continue
                if kind == "defender":
                    if cards[card].type in used:
                        continue
                    used.add(cards[card].type)
                elif not all(compatible(cards[card], cards[e]) for e in shown + picked):
                    continue
                picked.append(card)
            if len(picked) < len(idx):
                return None
            for card in picked:
                order.remove(card)
            dealt.setdefault(id(loc), {})[kind] = picked
        return dealt


    def view(self, seat: int | None = None) -> DoctorWhoView:
        """What ``seat`` may know, read live (:class:`DoctorWhoView`); ``view()`` is the open
        table, every card shown."""
        if seat is None or (type(seat) is int and 0 <= seat < self.players):
            return DoctorWhoView.of(self, seat)  # (a bot asks each decision: no more checks)
        return DoctorWhoView.of(self, self._check_seat(seat))


class DoctorWhoView(SeatView):
    """One seat's view of a Doctor Who game, read live from the game (ruling 10).

    Public: the card list, Time Points, counters, Locations and their owners, face-up cards,
    the discards and how many cards each player holds. The seat's own: its hand, its face-down
    reserve, its own face-down Defenders and Enemies, what it last passed and received. Asking
    for another player's hand or face-down reserve raises
    :class:`~luckylab.errors.HiddenInformation`; a face-down card hidden from the seat is
    ``None`` in a stack (:meth:`defenders`, :meth:`enemies`), as in ``observation(seat)``.
    ``game.view()`` (seat None) is the open table.

    >>> from luckylab import new_game
    >>> game = new_game("doctorwho", players=3, seed=1)
    >>> view = game.view(0)
    >>> len(view.hand), view.hand_size(2), view.tp, view.supply
    (5, 2, (0, 0, 0), 30)
    >>> from luckylab.errors import HiddenInformation
    >>> try:
    ...     view.hand_of(1)
    ... except HiddenInformation as hidden:
    ...     print(str(hidden).replace("; ", ";\\n"))
    Seat 2's hand is hidden from Seat 1;
    view.hand_size(1) says how many cards it holds
    >>> view.card(view.locations_of(0)[0]).kind
    'starting'
    >>> game.view().hand_of(1) == game.view(1).hand
    True
    """

    __slots__ = ()

    # -- the course of the game --------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"turn"``, ``"endgame"`` (one action a turn, ``D-END-3``), ``"decide"`` (a
        decision inside a conflict) or ``"over"``."""
        return self._game.phase  # type: ignore[no-any-return]

    @property
    def turn(self) -> int:
        """The turn number (1 for the first player's first turn)."""
        return self._game.turns  # type: ignore[no-any-return]

    @property
    def turn_player(self) -> int:
        """Whose turn it is (in a conflict decision another seat may be deciding)."""
        return self._game.turn_player  # type: ignore[no-any-return]

    @property
    def endgame(self) -> bool:
        """Whether the End Game has begun (``D-END-2``, ``D-END-3``)."""
        return self._game.endgame  # type: ignore[no-any-return]

    @property
    def end_revealed(self) -> bool:
        """Whether the End of the Game card has been revealed (``D-END-2``, ruling 7)."""
        return self._game.end_revealed  # type: ignore[no-any-return]

    @property
    def floor(self) -> int:
        """Cards the turn player must keep in hand and reserve (``D-TURN-2``, ruling 3)."""
        return self._game.floor()  # type: ignore[no-any-return]

    @property
    def conflict(self) -> Mapping[str, Any] | None:
        """The conflict waiting for a decision (``loc``, ``attacker``, ``defender``,
        ``defence``, ``attack``, ``stage``), or None."""
        c = self._game.conflict
        if c is None:
            return None
        return MappingProxyType({"loc": c.loc, "attacker": c.attacker, "defender": c.defender,
                                 "defence": c.defence, "attack": c.attack, "stage": c.stage})

    # -- cards ---------------------------------------------------------------------------------
    @property
    def cards(self) -> tuple[DWCard, ...]:
        """The card list (public): ``cards[id]`` is the card with that id."""
        return self._game.cards  # type: ignore[no-any-return]

    def card(self, cid: int) -> DWCard:
        """The card with id ``cid``."""
        return self._game.cards[cid]  # type: ignore[no-any-return]

    @property
    def hand(self) -> tuple[int, ...]:
        """The viewing seat's hand (card ids)."""
        if self.seat is None:
            raise self._hidden("The open table holds no hand of its own",
                               "view.hand_of(seat) shows any seat's")
        return tuple(self._game.hands[self.seat])

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s hand: the viewer's own, or any on the open table."""
        self._sees_hand(seat)
        return tuple(self._game.hands[seat])

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds in hand (public)."""
        return len(self._game.hands[seat])

    @property
    def reserve(self) -> tuple[int, ...]:
        """The viewing seat's face-down reserve (``D-RES-1``)."""
        if self.seat is None:
            raise self._hidden("The open table holds no reserve of its own",
                               "view.reserve_of(seat) shows any seat's")
        return tuple(self._game.reserves[self.seat])

    def reserve_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s face-down reserve: the viewer's own, or any on the open table."""
        if self.seat is not None and seat != self.seat:
            raise self._hidden(f"Seat {seat + 1}'s face-down reserve",
                               f"view.reserve_size({seat}) says how many cards it holds")
        return tuple(self._game.reserves[seat])

    def reserve_size(self, seat: int) -> int:
        """How many face-down cards ``seat`` holds in reserve (public)."""
        return len(self._game.reserves[seat])

    def face_up_reserve(self, seat: int) -> tuple[int, ...]:
        """Wilf, Ood and Ironsides face up in ``seat``'s reserve (``D-CARD-3``)."""
        return tuple(self._game.reserve_up[seat])

    def capacity(self, seat: int) -> int:
        """``seat``'s reserve capacity: 2, +1 per Wilf or Ood (``D-RES-1``, ``D-CARD-3``)."""
        return self._game.capacity(seat)  # type: ignore[no-any-return]

    def passed_by(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` last passed to its right (``D-TURN-3``): known to it and to the
        player who received them."""
        if self.seat is not None and self.seat not in (seat, (seat - 1) % self._game.players):
            raise self._hidden(f"What Seat {seat + 1} passed",
                               "only it and the player to its right know")
        return self._game.passed[seat]  # type: ignore[no-any-return]

    def received_by(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` last received from its left: known to it and to the passer."""
        if self.seat is not None and self.seat not in (seat, (seat + 1) % self._game.players):
            raise self._hidden(f"What Seat {seat + 1} received",
                               "only it and the player to its left know")
        return self._game.received[seat]  # type: ignore[no-any-return]

    @property
    def deck_size(self) -> int:
        """Cards left in the deck (its order is hidden from every seat)."""
        return len(self._game.deck)

    @property
    def discards(self) -> tuple[int, ...]:
        """The discard pile, oldest first (public)."""
        return tuple(self._game.discard)

    # -- Time Points and counters (public, ruling 10) ---------------------------------------
    @property
    def tp(self) -> tuple[int, ...]:
        """Each seat's Time Points."""
        return tuple(self._game.tp)

    @property
    def supply(self) -> int:
        """Time Point tokens left in the supply."""
        return self._game.supply  # type: ignore[no-any-return]

    def daleks_in_play(self, seat: int) -> int:
        """How many of ``seat``'s Dalek counters mark an attack (ruling 2)."""
        return self._game.daleks_in_play(seat)  # type: ignore[no-any-return]

    def tardis_in_play(self, seat: int) -> int:
        """How many of ``seat``'s TARDIS counters are on its Locations."""
        return self._game.tardis_in_play(seat)  # type: ignore[no-any-return]

    # -- Locations ----------------------------------------------------------------------------
    def locations_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s Locations in play, in the order they were played (``D-LOC-1``)."""
        return tuple(self._game.lines[seat])

    def owner(self, lid: int) -> int:
        """The seat that owns Location ``lid`` (``D-CON-4``: never another)."""
        return self._game.locs[lid].owner  # type: ignore[no-any-return]

    def attacker(self, lid: int) -> int | None:
        """The seat whose Dalek counter marks the attack on ``lid``, or None."""
        return self._game.locs[lid].attacker  # type: ignore[no-any-return]

    def tardis(self, lid: int) -> bool:
        """Whether a TARDIS counter guards ``lid`` (``D-CON-2``, ``D-ENE-2``)."""
        return self._game.locs[lid].tardis  # type: ignore[no-any-return]

    def defenders(self, lid: int) -> tuple[int | None, ...]:
        """The Defenders on ``lid`` as this seat sees them: ``None`` for each face-down card
        of another player (a conflict waiting for a decision has them face up)."""
        game = self._game
        loc = game.locs[lid]
        if self.seat is None or loc.owner == self.seat or game._face_up_defenders(lid):
            return tuple(loc.defenders)
        return (None,) * len(loc.defenders)

    def enemies(self, lid: int) -> tuple[int | None, ...]:
        """The Enemy cards attacking ``lid`` as this seat sees them: ``None`` for each
        face-down card of another player's attack."""
        loc = self._game.locs[lid]
        if self.seat is None or loc.attacker == self.seat:
            return tuple(loc.enemies)
        up = loc.up
        return tuple(e if e in up else None for e in loc.enemies)

    # -- the rules' questions -----------------------------------------------------------------
    def legal_defences(self) -> list[tuple[int, list[tuple[int, ...]]]]:
        """The turn player's legal Defend actions grouped by Location (``D-DEF-1``):
        ``(loc, [cards, ...])`` pairs in the order ``legal_actions()`` lists them (none
        outside the turn's actions: a conflict decision, the end). Only the turn player's view
        (or the open table) may ask: they show its cards."""
        seat = self.seat
        if seat is not None and seat != self._game.turn_player:
            raise self._not_deciding("Defend")
        return self._game.legal_defences()  # type: ignore[no-any-return]

    def legal_attacks(self) -> list[tuple[int, list[tuple[int, ...]]]]:
        """The turn player's legal Attack actions grouped by Location (``D-ENE-1``), in the
        order ``legal_actions()`` lists them; only its view (or the open table) may ask."""
        seat = self.seat
        if seat is not None and seat != self._game.turn_player:
            raise self._not_deciding("Attack")
        return self._game.legal_attacks()  # type: ignore[no-any-return]

    def _not_deciding(self, what: str) -> HiddenInformation:
        """The error for the turn player's legal actions asked by another seat (they show the
        turn player's cards; ``D-TURN-1``: Defend and Attack are actions of one's turn)."""
        return self._hidden(f"The turn player's legal {what} actions",
                            "ask the turn player's view")
