"""The Island of Doctor Lucky's fused turns: the default bot (``cautious``) and its variants
deciding and the rules applying in one plain function per turn, on integer spaces, bitsets and
precomputed tables.

``rules.py`` is the reference that students read; this module plays the same games faster and
is tested equal to it, action for action and draw for draw (``tests/test_fused.py``).
``IslandGame.play_out`` uses it only for a game of exactly ``IslandGame``'s rules (not a
subclass: a changed rule plays through ``rules.py``), quiet, in which every seat is the default
bot or a variant of it (:mod:`luckylab.games.fused`). Whole turns are played
here: the two phases, a thrown Hazard and its penalty, a round of foiling, Doctor Lucky's step,
the building draws and the Strangers' turns. Only a foiling round or a penalty that the
reference began before ``play_out`` was called is finished through the reference.

What the bot does (``luckylab.agents.island.CautiousAgent``):

- Phase 1: move onto Doctor Lucky's space if it is in reach, empty and unseen by the others;
  with him and alone but seen, move the cat onto him; else stay if it may draw, or move to the
  nearest space where nobody (Doctor Lucky included) would see it;
- Phase 2: attack (with its best Weapon) when it may, else draw when unseen, else pass;
- asked to foil, it passes when the players still to be asked are expected to cover what is
  needed, else pays the cheapest cover;
- hit by a Hazard, it gives the thrower the card worth least to it (the least Luck, then the
  least value, then the lowest id: ``IslandAgent.penalty``).

A bot's ``fused_profile`` changes two of those choices (:data:`PLAYS`): ``hazards`` (True: in
Phase 1, first throw its highest Hazard that can hit Doctor Lucky; then, if it cannot move to
him, a Hazard (the first in hand that can hit anyone) at the player it hits holding the most
cards; then as above) and ``foil``: ``"expected"`` as above, or ``"last"``: pass unless it is
the last one asked. ``aggressive`` is ``{"hazards": True, "foil": "last"}``.

Spaces are numbered by their places in ``board.spaces``; a seat out of the game ("You're Out")
stands on -1 while the fused turns run.

>>> from luckylab.games.island import IslandGame
>>> game = IslandGame(players=4, seed=2)
>>> game.quieten()
>>> play_out(game, [], [{"hazards": False, "foil": "expected"}] * 4)
>>> game.is_over, len(game.history) > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ...boards.board import Board
from ...cards import load_deck
from ...errors import OptionError
from .actions import DOCTOR, Attack, Draw, Foil, GiveCard, Move, MoveCat, Pass, PlayHazard

__all__ = ["PLAYS", "FastTables", "cheapest_cover", "fast_tables", "play_out"]

PLAYS: dict[str, tuple[Any, ...]] = {"hazards": (False, True), "foil": ("expected", "last")}
"""The choices a bot's ``fused_profile`` may set, and the values played (the default first)."""

FUSED_ACTIONS = (Move, MoveCat, Pass, Draw, Attack, Foil, PlayHazard, GiveCard)
"""The actions the fused turns make, in the order :class:`FastTables` takes them."""


class FastTables:
    """A board's spaces as integers and the lookups the fused turns read, built once per board
    and cat rule: sight as bitsets (``sight[cat][space]``: the spaces seen from ``space``),
    distances, Doctor Lucky's path, a Stranger's walk upstream, the Buildings and the space
    kinds; the cards' Luck, Hazards and Weapons; and the action classes, in the order
    ``Move, MoveCat, Pass, Draw, Attack, Foil, PlayHazard, GiveCard``, with shared instances."""

    def __init__(self, board: Board, cat_blocks: str, actions: tuple[type, ...]) -> None:
        Move, MoveCat, Pass, Draw, Attack, Foil, PlayHazard, GiveCard = actions  # noqa: N806
        self.move, self.foil, self.hazard, self.give = Move, Foil, PlayHazard, GiveCard
        names = tuple(board.spaces)
        at = {s: i for i, s in enumerate(names)}
        self.names, self.index = names, at
        self.sight = [[_bits(at, board.visible_from(s, cat, cat_blocks)) for s in names]
                      for cat in names]  # type: ignore[arg-type]
        self.dist = [[board.distance(s, o) for o in names] for s in names]
        self.by_distance = [tuple((at[o], d) for o, d in board.by_distance(s)) for s in names]
        path = list(board.path)
        on_path = {sp: path[(i + 1) % len(path)] for i, sp in enumerate(path)}
        upstream = {sp: path[(i - 1) % len(path)] for i, sp in enumerate(path)}  # I-STR-5
        self.doctor_next = [at[on_path[s]] if s in on_path else -1 for s in names]
        self.walk = [at[upstream[s]] if board.number(s) else -1 for s in names]
        self.buildings = _bits(at, board.spaces_of_kind("building"))
        self.kind = [board.kind(s) for s in names]
        deck = load_deck("island")
        self.deck_size, self.luck, self.code = len(deck), [c.luck for c in deck], _codes(deck)
        self.weapon = [[c.weapon_value(s) for s in names] if c.kind == "weapon" else None
                       for c in deck]
        self.hazard_kind = [c.space_kind if c.kind == "hazard" else None for c in deck]
        self.hazard_value = [c.value if c.kind == "hazard" else 0 for c in deck]
        worth = sorted(deck, key=lambda c: (c.luck, c.value or 0, c.id))  # a penalty's order
        self.rank = [0] * len(deck)
        for place, c in enumerate(worth):
            self.rank[c.id] = place
        self.cat = [MoveCat(s) for s in names]
        self.pass_, self.draw, self.no_foil = Pass(), Draw(), Foil(())
        self.attack = {c: Attack(c) for c in [None, *(c.id for c in deck if c.kind == "weapon")]}
        self.gives = [GiveCard(c.id) for c in deck]
        self.moves: list[list[Any]] = [[None] * len(names) for _ in range(16)]  # [seat][to]
        self.throws: dict[tuple[int, Any], Any] = {}
        self.foils: dict[tuple[int, ...], Any] = {}
        # (codes of the cards with Luck, in hand order; needed) -> their places in a cover
        self.covers: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        self.pays: dict[tuple[tuple[int, ...], int], Any] = {}  # (hand, needed) -> _pay's
        # the live seats in order -> by seat: the others, those asked to foil, seats_from_left
        self.seating: dict[tuple[int, ...], tuple[list[Any], list[Any], list[Any]]] = {}


def _bits(at: dict[str, int], spaces: Any) -> int:
    out = 0
    for s in spaces:
        out |= 1 << at[s]
    return out


@lru_cache(maxsize=16)
def fast_tables(board: Board, cat_blocks: str, actions: tuple[type, ...]) -> FastTables:
    """The fused turns' tables for ``board`` and the cat rule ``cat_blocks``."""
    return FastTables(board, cat_blocks, actions)


class _State:
    """The game's changing parts while the fused turns run (spaces as integers; the hands,
    deck, discards, cards under the characters, Move and Attack are the game's own), and each
    seat's play: ``hazards[seat]`` (throws Hazards) and ``last[seat]`` (foils only as the last
    one asked)."""

    __slots__ = ("game", "pos", "doctor", "cat", "order", "stranger", "hands", "deck",
                 "discards", "under", "history", "moves", "attack", "held", "turn", "active",
                 "had", "jumps", "cap", "left", "others", "asked", "from_left", "hazards",
                 "last", "over", "thrown", "mean", "by_turn", "log", "youre_out")

    def __init__(self, game: Any, t: FastTables, hazards: list[bool], last: list[bool]) -> None:
        at, out, position = t.index, game.eliminated, game.position
        self.game = game
        # by seat (the dict's order need not be the seats')
        self.pos = [-1 if s in out else at[position[s]] for s in range(len(position))]
        self.doctor, self.cat = at[game.doctor], at[game.cat]
        self.order, self.stranger, self.hands = game.order, game._is_stranger, game.hands
        self.deck, self.discards, self.under = game.deck, game.discards, game.under
        self.history, self.moves, self.attack = game.history, game.move, game.attack
        self.held, self.turn, self.active = game._held, game.turn, game.active
        self.had, self.jumps, self.cap = game._had_turn, game._jumps_on, game.turn_cap
        self.hazards, self.last, self.over, self.thrown = hazards, last, False, game.hazards_played
        self.mean, self.youre_out = game.mean_luck, game.youre_out
        self.by_turn, self.log = game.table_luck_by_turn, game.attempt_log
        _seat(self, t)

    def store(self, t: FastTables) -> None:
        """Write the state back into the game, as the reference leaves it at the end."""
        game, names, position = self.game, t.names, self.game.position
        for seat, p in enumerate(self.pos):
            if p >= 0:
                position[seat] = names[p]
        game.doctor, game.cat = names[self.doctor], names[self.cat]
        game._held, game.turn, game.active = self.held, self.turn, self.active
        game._jumps_on, game.hazards_played = self.jumps, self.thrown
        game.phase, game._decider = "over", None


def _seat(s: _State, t: FastTables) -> None:
    """The seating lists of the live seats (shared by every game with the same ones)."""
    order = s.order
    key = tuple(order)
    found = t.seating.get(key)
    if found is None:
        n = len(s.stranger)
        others: list[Any] = [None] * n
        asked: list[Any] = [None] * n
        from_left: list[Any] = [None] * n
        for i, seat in enumerate(order):
            others[seat] = [o for o in order if o != seat]
            asked[seat] = [*order[i + 1:], *order[:i]]  # I-FOIL-1
            from_left[seat] = [*order[i + 1:], *order[:i + 1]]
        found = t.seating[key] = (others, asked, from_left)
    s.others, s.asked, s.from_left = found
    s.left = s.game._left


def play_out(game: Any, choosers: Sequence[Callable[[Any], Any]],
             profiles: list[dict[str, Any]]) -> None:
    """Play a quiet ``IslandGame`` to its end, each seat the default bot played as its profile
    says (:data:`PLAYS`, every choice given, as ``luckylab.games.fused.fused_profiles`` fills
    them in); ``choosers`` decide a penalty that the reference began."""
    t = fast_tables(game.board, game.cat_blocks, FUSED_ACTIONS)
    last = [p["foil"] == "last" for p in profiles]
    while game.phase in ("foil", "penalty"):  # begun by the reference
        if game.phase == "foil":
            _foil(game, t, last[game._decider])
        else:
            game.apply_trusted(choosers[game._decider](game))
    if game.phase == "over":
        return
    s = _State(game, t, [p["hazards"] for p in profiles], last)
    if game.phase == "phase2":
        _phase2(s, t, s.active, *_view(s, t, s.active))
    while not s.over:
        _turn(s, t)
    s.store(t)


def _view(s: _State, t: FastTables, me: int) -> tuple[list[int], int, int]:
    """What ``me`` needs to know of the others: the sight rows (by the cat), the spaces the
    other live pawns see, and the spaces they stand on."""
    pos, rows = s.pos, t.sight[s.cat]
    seen = crowd = 0
    for o in s.others[me]:
        p = pos[o]
        seen |= rows[p]
        crowd |= 1 << p
    return rows, seen, crowd


def _turn(s: _State, t: FastTables) -> None:
    """One player's Phase 1 and Phase 2 (I-MOVE-1, I-MOVE-2; I-HAZ-1), and the step to the
    next player's turn."""
    me, pos, doctor = s.active, s.pos, s.doctor
    here, rows, seen, crowd = pos[me], t.sight[s.cat], 0, 0
    for o in s.others[me]:  # what the others see, and where they stand (_view)
        p = pos[o]
        seen |= rows[p]
        crowd |= 1 << p
    to_him = (here != doctor and t.dist[here][doctor] <= s.moves[me]
              and not (seen | crowd) >> doctor & 1)
    if s.hazards[me]:
        throw = _hazard(s, t, me, to_him)
        if throw is not None:
            if _throw(s, t, me, *throw):  # nothing moved; a player may be out
                if s.youre_out:
                    rows, seen, crowd = _view(s, t, me)
                _phase2(s, t, me, rows, seen, crowd)
            return
    first, dest = t.pass_, -1
    if to_him:
        dest = doctor  # to him, alone and unseen by the others
    elif here == doctor and not crowd >> here & 1 and seen >> here & 1 and s.cat != doctor:
        s.cat = doctor  # with him, alone but seen: the cat blinds those looking in
        first = t.cat[doctor]
        rows, seen, crowd = _view(s, t, me)
    elif not (s.deck and not (rows[doctor] | seen) >> here & 1):
        budget, blind = s.moves[me], rows[doctor] | seen
        for space, steps in t.by_distance[here]:  # the nearest space nobody sees
            if steps > budget:
                break
            if steps and not blind >> space & 1:
                dest = space
                break
    if dest >= 0:
        pos[me] = dest
        first = t.moves[me][dest]
        if first is None:
            first = t.moves[me][dest] = t.move(((me, t.names[dest]),))
    s.history.append(first)
    _phase2(s, t, me, rows, seen, crowd)


def _phase2(s: _State, t: FastTables, me: int, rows: list[int], seen: int, crowd: int) -> None:
    """Phase 2 (I-KILL-1, I-DRAW-1): attack, draw or pass, and the step to the next turn."""
    here, doctor = s.pos[me], s.doctor
    if here == doctor and not (seen | crowd) >> here & 1:
        if _attack(s, t, me, here):
            _next_turn(s, t)
        return
    if s.deck and not (rows[doctor] | seen) >> here & 1:
        s.history.append(t.draw)
        card = s.deck.pop()
        s.hands[me].append(card)
        s.held += t.luck[card]
    else:
        s.history.append(t.pass_)
    _next_turn(s, t)


def _attack(s: _State, t: FastTables, me: int, here: int) -> bool:
    """A murder attempt with the best Weapon in hand (the most on ``here``, the lowest id of
    equals) and its round of foiling (I-KILL-2, I-KILL-3). False: the attacker won."""
    hand, weapons = s.hands[me], t.weapon
    weapon, best = None, 0
    for c in hand:
        values = weapons[c]
        if values is not None:
            v = values[here]
            if weapon is None or v > best or (v == best and c < weapon):
                weapon, best = c, v
    s.history.append(t.attack[weapon])
    value = s.attack[me]
    if weapon is not None:  # I-KILL-3: the Weapon goes under the character now
        value += best
        hand.remove(weapon)
        s.held -= t.luck[weapon]
        s.under[me].append(weapon)
    return _round(s, t, me, value, weapon, None)


def _hazard(s: _State, t: FastTables, me: int, to_him: bool) -> tuple[int, Any] | None:
    """``AggressiveAgent.phase1``'s Hazards: the highest Hazard in hand (the first of equals)
    that can hit Doctor Lucky; else, unless it can move to him, the first that can hit another
    player, at the one of them holding the most cards (the first in turn order). None: no
    throw; else the card and its target."""
    kinds = t.hazard_kind
    held = [c for c in s.hands[me] if kinds[c] is not None]
    if not held:
        return None
    pos, doctor, kind_of = s.pos, s.doctor, t.kind
    if doctor not in pos:  # I-HAZ-1: a target stands alone on its space
        here_kind, best, value, values = kind_of[doctor], None, 0, t.hazard_value
        for c in held:
            if kinds[c] == here_kind and (best is None or values[c] > value):
                best, value = c, values[c]
        if best is not None:
            return best, DOCTOR
    if to_him:
        return None
    hands, targets, most = s.hands, {}, {}  # by space kind: who it may hit, and its cards
    for o in s.others[me]:
        spot = pos[o]
        if spot != doctor and pos.count(spot) == 1:
            kind, size = kind_of[spot], len(hands.get(o, ()))
            if size > most.get(kind, -1):
                targets[kind], most[kind] = o, size
    for c in held:
        target = targets.get(kinds[c])
        if target is not None:
            return c, target
    return None


def _throw(s: _State, t: FastTables, me: int, card: int, target: Any) -> bool:
    """``me`` throws ``card`` at ``target`` (I-HAZ-*): the Hazard goes under the thrower, its
    Move grows, and the target answers: a round of foiling for Doctor Lucky, the top card for
    a Stranger (I-STR-7), a player its least card (or out, "You're Out"). Whether Phase 2
    follows (False: the thrower won)."""
    throw = t.throws.get((card, target))
    if throw is None:
        throw = t.throws[card, target] = t.hazard(card, target)
    s.history.append(throw)
    hand = s.hands[me]
    hand.remove(card)
    s.held -= t.luck[card]
    s.under[me].append(card)
    s.moves[me] += 1
    s.thrown += 1
    value = t.hazard_value[card]
    if target == DOCTOR:  # I-HAZ-4
        return _round(s, t, me, value, None, card)
    if s.stranger[target]:
        if s.deck:
            top = s.deck.pop()
            if t.luck[top] >= value:
                s.discards.append(top)
            else:
                hand.append(top)
                s.held += t.luck[top]
        return True
    victim = s.hands[target]
    if victim:  # I-HAZ-2: it gives the card worth least to it
        worst = min(victim, key=t.rank.__getitem__)
        s.history.append(t.gives[worst])
        victim.remove(worst)
        hand.append(worst)
    elif s.youre_out:  # I-HAZ-3
        _eliminate(s, t, target)
    return True


def _eliminate(s: _State, t: FastTables, seat: int) -> None:
    """``IslandGame._eliminate``: ``seat`` leaves the game (its pawn stays where it stands)."""
    game, order = s.game, s.order
    game.eliminated.add(seat)
    order.remove(seat)
    game._left = {x: order[(i + 1) % len(order)] for i, x in enumerate(order)}
    game.position[seat] = t.names[s.pos[seat]]
    s.pos[seat] = -1
    _seat(s, t)


def _next_turn(s: _State, t: FastTables) -> None:
    """``IslandGame._end_turn`` in a quiet game: Doctor Lucky's step (``I-DOC-*``), the
    building draws, the turn cap, the next turn, and the Strangers' turns on the way (I-STR-4,
    I-STR-5: walk upstream unless it may attack; attack if it may), until a player's turn or
    the end."""
    stranger, pos, order, doctor_next = s.stranger, s.pos, s.order, t.doctor_next
    left, from_left, buildings, walk = s.left, s.from_left, t.buildings, t.walk  # no one leaves
    while True:
        active = s.active
        if not s.jumps:  # once on, every live seat has had a turn
            s.had.add(active)
            s.jumps = s.had.issuperset(order)  # I-DOC-4
        s.doctor = here = doctor_next[s.doctor]
        nxt = -1
        if here in pos:
            if s.jumps:  # I-DOC-3: the first of them from the left of the last player
                for seat in from_left[active]:
                    if pos[seat] == here:
                        nxt = seat
                        break
        elif buildings >> here & 1:
            _building_draws(s, t, active)  # I-DOC-2
        if s.turn >= s.cap:  # I-END-2
            s.over = True
            return
        seat = left[active] if nxt < 0 else nxt
        s.turn += 1
        s.active = seat
        s.by_turn.append(s.held)
        if not stranger[seat]:
            return
        spot = pos[seat]
        if spot != here or not _unseen(s, t, seat, here):
            up = walk[spot]
            if up >= 0:
                pos[seat] = spot = up
            if spot != here or not _unseen(s, t, seat, here):
                continue
        if not _round(s, t, seat, s.attack[seat], None, None):
            return


def _unseen(s: _State, t: FastTables, seat: int, here: int) -> bool:
    """No other live pawn on ``here`` or seeing into it (a Stranger's test, I-KILL-1)."""
    pos, rows = s.pos, t.sight[s.cat]
    for o in s.others[seat]:
        p = pos[o]
        if p == here or rows[p] >> here & 1:
            return False
    return True


def _building_draws(s: _State, t: FastTables, active: int) -> None:
    """``IslandGame._building_draws`` in a quiet game: from the left of the last player, each
    player holding fewer than 3 cards draws one, while the deck lasts."""
    deck, hands, stranger = s.deck, s.hands, s.stranger
    for x in s.from_left[active]:
        if not stranger[x]:
            hand = hands[x]
            if len(hand) < 3:
                if not deck:
                    return
                card = deck.pop()
                hand.append(card)
                s.held += t.luck[card]


def _round(s: _State, t: FastTables, attacker: int, value: int, weapon: int | None,
           hazard: int | None) -> bool:
    """A whole round of foiling, ``IslandGame._start_foil`` to ``_finish_foil`` (I-FOIL-*),
    against a murder (with ``weapon``, or bare-handed) or the Hazard ``hazard`` thrown at
    Doctor Lucky: the others asked once from the attacker's left, a Stranger turning up the
    top card (I-STR-3), a player answering as its bot does (:func:`_foil`). False: the
    attacker won. True: foiled; a murderer's Attack has grown (the caller ends the turn), a
    Hazard's thrower goes on to Phase 2."""
    hands, luck, stranger, last = s.hands, t.luck, s.stranger, s.last
    asked = s.asked[attacker]
    held = hands.get(attacker)
    table_luck = s.held - (sum([luck[c] for c in held]) if held else 0)
    deck, discards, history, mean = s.deck, s.discards, s.history, s.mean
    paid, could, n = 0, [], len(asked)  # could: (seat, what was needed when it passed)
    for k, seat in enumerate(asked):
        needed = value - paid
        if needed <= 0:  # I-FOIL-2: foiled, nobody more is asked
            break
        if stranger[seat]:
            if deck:
                top = deck.pop()
                discards.append(top)
                paid += luck[top]
            continue
        hand = hands[seat]
        if k + 1 < n and (last[seat] or sum((mean if deck else 0.0) if stranger[x] else
                                            len(hands[x]) * mean for x in asked[k + 1:])
                          >= needed):
            history.append(t.no_foil)  # someone after it may pay
            could.append((seat, needed))
            continue
        cards, points, action = _pay(t, hand, needed)
        history.append(action)
        if points < needed <= sum([luck[c] for c in hand]):
            could.append((seat, 0))
        paid += points
        for c in cards:
            hand.remove(c)
            discards.append(c)
        s.held -= points
    return _end_round(s, t, attacker, value, weapon, hazard, paid, could, table_luck)


def _pay(t: FastTables, hand: list[int], needed: int) -> tuple[tuple[int, ...], int, Any]:
    """The cheapest cover of ``needed`` from ``hand`` (:func:`_cover`), its Luck and its
    ``Foil``, remembered by the hand itself (at most 20,000 kept)."""
    key = (tuple(hand), needed)
    paid = t.pays.get(key)
    if paid is None:
        cards = _cover(t.code, t.deck_size, hand, needed, t.covers)
        if len(t.pays) >= 20_000:
            t.pays.clear()
        paid = t.pays[key] = (cards, sum([t.luck[c] for c in cards]), _foil_action(t, cards))
    return paid


def _foil_action(t: FastTables, cards: tuple[int, ...]) -> Any:
    """``Foil(cards)``, one shared instance (actions are frozen; at most 20,000 kept)."""
    if not cards:
        return t.no_foil
    action = t.foils.get(cards)
    if action is None:
        if len(t.foils) >= 20_000:
            t.foils.clear()
        action = t.foils[cards] = t.foil(cards)
    return action


def _end_round(s: _State, t: FastTables, attacker: int, value: int, weapon: int | None,
               hazard: int | None, paid: int, could: list[tuple[int, int]],
               table_luck: int) -> bool:
    """``IslandGame._finish_foil`` in a quiet game (see :func:`_round`). ``could``: the seats
    that passed or paid too little, each with what was needed then; the loser is the last
    that held enough (I-FOIL-3; its hand is as it was, asked once), found only if it counts."""
    foiled = paid >= value
    s.log.append({
        "turn": s.turn, "attacker": attacker, "kind": "murder" if hazard is None else "hazard",
        "value": value, "foiled": foiled, "luck_spent": paid, "table_luck": table_luck})
    if not foiled:  # I-END-1
        loser, luck, game = None, t.luck, s.game
        for seat, needed in could:
            if needed <= sum([luck[c] for c in s.hands[seat]]):
                loser = seat
        game.winner, game.loser, game.finished = attacker, loser, True
        s.over = True
        return False
    if hazard is not None:
        return True
    if weapon is None:  # I-KILL-3: the Weapon is the marker; without one, a discard
        s.under[attacker].append(s.discards.pop())
    s.attack[attacker] += 1
    return True


def _foil(game: Any, t: FastTables, last: bool) -> None:
    """The asked player's answer to a murder attempt, applied by the reference (``last``:
    it pays only as the last one asked)."""
    me, round_ = game._decider, game.foil
    later = round_.order[len(round_.asked) + 1:]
    needed = round_.needed
    strangers, hands, mean, deck = game._is_stranger, game.hands, game.mean_luck, game.deck
    luck, hand = game._luck, hands[me]
    if later and (last or sum((mean if deck else 0.0) if strangers[s] else len(hands[s]) * mean
                              for s in later) >= needed):
        game.history.append(t.no_foil)  # someone after it may pay (will probably, if not last)
        if needed <= sum([luck[c] for c in hand]):
            round_.loser = me  # I-FOIL-3: the loser is the last who could cover it
        round_.asked.append((me, ()))
        game._continue_foil()
        return
    cards = _cover(t.code, t.deck_size, hand, needed, t.covers)
    game.history.append(t.foil(cards) if cards else t.no_foil)
    points = sum([luck[c] for c in cards])
    if points < needed <= sum([luck[c] for c in hand]):
        round_.loser = me
    round_.paid += points
    round_.asked.append((me, cards))
    for c in cards:
        hand.remove(c)
        game.discards.append(c)
    game._held -= points
    game._continue_foil()


def cheapest_cover(cards: Sequence[Any], held: Sequence[int], needed: int,
                   memo: dict[Any, tuple[int, ...]] | None = None) -> tuple[int, ...]:
    """``luckylab.agents.island.cheapest_cover`` on a hand: the cards reaching ``needed`` Luck
    with the least Luck spent, then the fewest cards, then the fewest Weapons; () if the hand
    cannot. ``memo`` remembers answers by the Luck and kind of the cards, in hand order.

    >>> from luckylab.cards import load_deck
    >>> deck = load_deck("island")
    >>> lucky = [c.id for c in deck if c.luck == 2][:3]
    >>> cheapest_cover(deck, lucky, 3) == tuple(lucky[:2])
    True
    >>> cheapest_cover(deck, [999], 3)
    Traceback (most recent call last):
    ...
    luckylab.errors.OptionError: held: card ids are whole numbers from 0 to 71; got 999
    """
    if isinstance(needed, bool) or not isinstance(needed, int):
        raise OptionError(f"needed: Luck to reach is a whole number; got {needed!r}")
    bad = [c for c in held if isinstance(c, bool) or not isinstance(c, int)
           or not 0 <= c < len(cards)]
    if bad:
        raise OptionError(f"held: card ids are whole numbers from 0 to {len(cards) - 1}; "
                          f"got {', '.join(map(repr, bad[:3]))}")
    return _cover(_codes(cards), len(cards), held, needed, {} if memo is None else memo)


def _codes(cards: Sequence[Any]) -> list[int]:
    """By card id: its Luck times 2, plus 1 for a Weapon (what a cover weighs)."""
    return [c.luck * 2 + (c.kind == "weapon") for c in cards]


def _cover(code: list[int], deck_size: int, held: Sequence[int], needed: int,
           memo: dict[Any, tuple[int, ...]]) -> tuple[int, ...]:
    hand = [c for c in held if code[c] > 1]  # the cards with Luck
    key = (tuple([code[c] for c in hand]), needed)
    places = memo.get(key)
    if places is None:
        places = _cover_fast(key[0], needed)
        if places is None:
            places = _cover_places(key[0], needed, deck_size)
        if len(memo) >= 20_000:
            memo.clear()
        memo[key] = places
    return tuple([hand[i] for i in places])


def _cover_fast(codes: tuple[int, ...], needed: int) -> tuple[int, ...] | None:
    """:func:`_cover_places`'s answer when no cards, one or two make it (most covers), found
    without the knapsack; None: three cards or more. The knapsack spends the least Luck it can
    (``total``: the least sum of some cards reaching ``needed``), then the fewest cards, then
    the fewest Weapons, and of those covers it keeps the one whose last card comes first (then
    the one before it ...)."""
    if needed < 1:
        return None
    sums = 1  # bit t: some of the cards make exactly t Luck
    for code in codes:
        sums |= sums << (code >> 1)
    sums >>= needed
    if not sums:
        return ()
    total = needed + (sums & -sums).bit_length() - 1
    if total <= 4:  # one card: the first without a Weapon, else the first Weapon
        if total * 2 in codes:
            return (codes.index(total * 2),)
        if total * 2 + 1 in codes:
            return (codes.index(total * 2 + 1),)
    first: dict[int, int] = {}  # two cards: code -> the place of its first card so far
    best: list[tuple[int, int] | None] = [None, None, None]  # by Weapons: (place, place)
    for j, code in enumerate(codes):
        rest = total - (code >> 1)
        if 0 < rest <= 4:
            for armed in (0, 1):
                i = first.get(rest * 2 + armed)
                if i is not None and best[(code & 1) + armed] is None:
                    best[(code & 1) + armed] = (i, j)
            if best[0] is not None:
                return best[0]
        if code not in first:
            first[code] = j
    return best[1] or best[2]


def _cover_places(codes: tuple[int, ...], needed: int, deck_size: int) -> tuple[int, ...]:
    """The knapsack of ``cheapest_cover`` over cards given by their codes (:func:`_codes`):
    ``cost[total]`` is the cheapest way found so far to make exactly ``total`` Luck (cards
    times ``per_card``, plus Weapons), ``combo[total]`` its places as a bitset."""
    if sum(code >> 1 for code in codes) < needed:
        return ()
    cap = needed + 4  # no card has more than 4 Luck
    per_card = deck_size + 1
    unknown = per_card * per_card
    cost = [0] + [unknown] * (cap - 1)
    combo = [0] * cap
    reached = 0
    for i, code in enumerate(codes):
        luck, price, bit = code >> 1, per_card + (code & 1), 1 << i
        for total in range(min(reached, cap - 1 - luck), -1, -1):  # downwards: each card once
            if cost[total] + price < cost[total + luck]:
                cost[total + luck] = cost[total] + price
                combo[total + luck] = combo[total] | bit
        reached = min(reached + luck, cap - 1)
    for total in range(max(needed, 1), cap):
        if cost[total] < unknown:
            chosen = combo[total]
            return tuple([i for i in range(len(codes)) if chosen >> i & 1])
    return ()
