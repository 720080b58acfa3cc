"""The Island of Doctor Lucky's fused turns: the default bot (``cautious``) and its variants
deciding and the rules applying in one plain function per turn, on precomputed tables.

:mod:`luckylab.games.island` is the reference that students read; this module plays the same
games faster and is tested equal to it, action for action and draw for draw
(``tests/test_fused.py``). ``IslandGame.play_out`` uses it for a quiet game in which every seat
is the default bot or a variant of it (:mod:`luckylab.games.fused`). A turn's two phases are
decided and applied here; what follows a turn (Doctor Lucky's step, the Strangers' turns, the
building draws), a murder attempt and a thrown Hazard are the reference's own steps, called
directly; a Hazard's penalty is chosen by the victim's bot and applied by the reference.

What the bot does (``luckylab.agents.island.CautiousAgent``):

- Phase 1: move onto Doctor Lucky's space if it is in reach, empty and unseen by the others;
  with him and alone but seen, move the cat onto him; else stay if it may draw, or move to the
  nearest space where nobody (Doctor Lucky included) would see it;
- Phase 2: attack (with its best Weapon) when it may, else draw when unseen, else pass;
- asked to foil, it passes when the players still to be asked are expected to cover what is
  needed, else pays the cheapest cover.

A bot's ``fused_profile`` changes two of those choices (:data:`PLAYS`): ``hazards`` (True: in
Phase 1, first throw its highest Hazard that can hit Doctor Lucky; then, if it cannot move to
him, a Hazard (the first in hand that can hit anyone) at the player it hits holding the most
cards; then as above) and ``foil``: ``"expected"`` as above, or ``"last"``: pass unless it is
the last one asked. ``aggressive`` is ``{"hazards": True, "foil": "last"}``.

>>> from luckylab.games.island import _FUSED_ACTIONS, IslandGame
>>> game = IslandGame(players=4, seed=2)
>>> game.quieten()
>>> play_out(game, _FUSED_ACTIONS, [], [{"hazards": False, "foil": "expected"}] * 4)
>>> game.is_over, len(game.history) > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ..boards.board import Board
from .base import jump_target, seats_from_left
from .fused import shared_action

__all__ = ["PLAYS", "FastTables", "cheapest_cover", "fast_tables", "play_out"]

PLAYS: dict[str, tuple[Any, ...]] = {"hazards": (False, True), "foil": ("expected", "last")}
"""The choices a bot's ``fused_profile`` may set, and the values played (the default first)."""

DOCTOR = "doctor"  # luckylab.games.island.DOCTOR: a Hazard's target when it is Doctor Lucky


class FastTables:
    """A board's lookups for the fused turns, built once per board and cat rule: each space's
    bit, sight as bitsets (``sight[cat][space]``: the spaces seen from ``space``), distances,
    and the action classes (``Move, MoveCat, Pass, Draw, Attack, Foil, PlayHazard``) with shared
    instances."""

    def __init__(self, board: Board, cat_blocks: str, actions: tuple[type, ...]) -> None:
        Move, MoveCat, Pass, Draw, Attack, Foil, PlayHazard = actions  # noqa: N806 - classes
        self.move, self.foil, self.hazard = Move, Foil, PlayHazard
        spaces = board.spaces
        self.bit = {s: 1 << i for i, s in enumerate(spaces)}
        self.sight = {cat: {s: _bits(self.bit, board.visible_from(s, cat, cat_blocks))
                            for s in spaces} for cat in spaces}  # type: ignore[arg-type]
        self.dist = {s: {o: board.distance(s, o) for o in spaces} for s in spaces}
        self.by_distance = {s: tuple((o, d, self.bit[o]) for o, d in board.by_distance(s))
                            for s in spaces}
        self.cat = {s: MoveCat(s) for s in spaces}
        self.pass_, self.draw, self.no_foil = Pass(), Draw(), Foil(())
        self.attack = Attack
        self.moves: dict[tuple[int, str], Any] = {}
        self.made: dict[tuple[Any, ...], Any] = {}  # (class, *fields) -> a shared action
        # (codes of the cards with Luck, in hand order; needed) -> their places in a cover
        self.covers: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        self._deck: Any = None
        self._codes: list[int] = []
        self._hazards: list[tuple[str, int] | None] = []
        self.walk: dict[str, str | None] = {}  # by space: a Stranger's walk upstream (_walk)

    def codes(self, cards: Sequence[Any]) -> list[int]:
        """:func:`_codes` of the game's cards (remembered for the last deck seen)."""
        if cards is not self._deck:
            self._remember(cards)
        return self._codes

    def hazards(self, cards: Sequence[Any]) -> list[tuple[str, int] | None]:
        """By card id: a Hazard's space kind and value, None for other cards."""
        if cards is not self._deck:
            self._remember(cards)
        return self._hazards

    def _remember(self, cards: Sequence[Any]) -> None:
        self._deck, self._codes = cards, _codes(cards)
        self._hazards = [(c.space_kind, c.value) if c.kind == "hazard" else None for c in cards]


def _bits(bit: dict[str, int], spaces: Any) -> int:
    out = 0
    for s in spaces:
        out |= bit[s]
    return out


@lru_cache(maxsize=16)
def fast_tables(board: Board, cat_blocks: str, actions: tuple[type, ...]) -> FastTables:
    """The fused turns' tables for ``board`` and the cat rule ``cat_blocks``."""
    return FastTables(board, cat_blocks, actions)


def play_out(game: Any, actions: tuple[type, ...], choosers: Sequence[Callable[[Any], Any]],
             profiles: list[dict[str, Any]]) -> None:
    """Play a quiet ``IslandGame`` to its end, each seat the default bot played as its profile
    says (:data:`PLAYS`, every choice given, as ``luckylab.games.fused.fused_profiles`` fills
    them in); ``choosers`` decide a Hazard's penalty."""
    t = fast_tables(game.board, game.cat_blocks, actions)
    hazards = [p["hazards"] for p in profiles]
    last = [p["foil"] == "last" for p in profiles]
    while game.phase != "over":
        phase = game.phase
        if phase == "phase1":
            _turn(game, t, hazards[game._decider], last)
        elif phase == "phase2":
            _phase2(game, t, game._decider, last, *_view(game, t, game._decider))
        elif phase == "foil":  # a round the reference began (before play_out was called)
            _foil(game, t, last[game._decider])
        else:
            game.apply_trusted(choosers[game._decider](game))


def _view(game: Any, t: FastTables, me: int) -> tuple[dict[str, int], list[str], int]:
    """What ``me`` needs to know of the others: the sight rows (by the cat), the other live
    pawns' spaces, and the spaces they see."""
    position, rows = game.position, t.sight[game.cat]
    spots = [position[s] for s in game.order if s != me]
    seen = 0
    for spot in spots:
        seen |= rows[spot]
    return rows, spots, seen


def _turn(game: Any, t: FastTables, hazards: bool, last: list[bool]) -> None:
    """One player's Phase 1 and Phase 2, and the step to the next turn (Phase 1 only, if a
    Hazard it throws leaves a penalty to choose: the rest follows in :func:`play_out`)."""
    me, position, history = game._decider, game.position, game.history
    here, doctor, cat = position[me], game.doctor, game.cat
    rows, spots, seen = _view(game, t, me)
    bit = t.bit
    out = me in game.eliminated
    may_draw = bool(game.deck) and not out
    # Phase 1 (I-MOVE-1, I-MOVE-2; I-HAZ-1)
    dest, first = None, t.pass_
    to_him = (here != doctor and t.dist[here][doctor] <= game.move[me]
              and not seen & bit[doctor] and doctor not in spots)
    if hazards:
        throw = _hazard(game, t, me, to_him)
        if throw is not None:
            if _throw(game, t, me, throw, last):
                _phase2(game, t, me, last, *_view(game, t, me))
            return
    if to_him:
        dest = doctor  # to him, alone and unseen by the others
    elif here == doctor and here not in spots and (seen & bit[here] or out) and cat != doctor:
        game.cat = cat = doctor  # with him, alone but seen: the cat blinds those looking in
        first = t.cat[doctor]
        rows = t.sight[cat]
        seen = 0
        for spot in spots:
            seen |= rows[spot]
    elif not (may_draw and not (rows[doctor] | seen) & bit[here]):
        budget, blind = game.move[me], rows[doctor] | seen
        for space, steps, b in t.by_distance[here]:  # the nearest space nobody sees
            if steps > budget:
                break
            if steps and not blind & b:
                dest = space
                break
    if dest is not None:
        position[me] = here = dest
        key = (me, dest)
        first = t.moves.get(key)
        if first is None:
            first = t.moves[key] = t.move((key,))
    history.append(first)
    game.phase = "phase2"
    _phase2(game, t, me, last, rows, spots, seen)


def _hazard(game: Any, t: FastTables, me: int, to_him: bool) -> Any:
    """``AggressiveAgent.phase1``'s Hazards: the highest Hazard in hand (the first of equals)
    that can hit Doctor Lucky; else, unless it can move to him, the first that can hit another
    player, at the one of them holding the most cards (the first in turn order). None: no
    throw."""
    kinds = t.hazards(game.cards)
    held = [c for c in game.hands[me] if kinds[c] is not None]
    if not held:
        return None
    position, order, doctor, kind_of = game.position, game.order, game.doctor, game._kinds
    spots = [position[s] for s in order]  # I-HAZ-1: a target stands alone on its space
    spots.append(doctor)
    if spots.count(doctor) == 1:
        here_kind, best, value = kind_of[doctor], None, 0
        for c in held:
            kind, v = kinds[c]  # type: ignore[misc]
            if kind == here_kind and (best is None or v > value):
                best, value = c, v
        if best is not None:
            return _made(t, t.hazard, best, DOCTOR)
    if to_him:
        return None
    hands, targets, most = game.hands, {}, {}  # by space kind: who it may hit, and its cards
    for s in order:
        spot = position[s]
        if s != me and spots.count(spot) == 1:
            kind, size = kind_of[spot], len(hands.get(s, ()))
            if size > most.get(kind, -1):
                targets[kind], most[kind] = s, size
    for c in held:
        target = targets.get(kinds[c][0])  # type: ignore[index]
        if target is not None:
            return _made(t, t.hazard, c, target)
    return None


def _made(t: FastTables, cls: type, *fields: Any) -> Any:
    """``cls(*fields)``, one shared instance (actions are frozen)."""
    return shared_action(t.made, cls, *fields)


def _throw(game: Any, t: FastTables, me: int, throw: Any, last: list[bool]) -> bool:
    """``me`` throws (``IslandGame._do_hazard`` in a quiet game, I-HAZ-*): the Hazard goes
    under the thrower, its Move grows, and the target answers (a round of foiling for Doctor
    Lucky, by :func:`_round`). Whether Phase 2 follows now (False: the game is over, or the
    victim chooses a penalty)."""
    card, target = throw.card, throw.target
    game.history.append(throw)
    game.hands[me].remove(card)
    game._held -= game._luck[card]
    game.under[me].append(card)
    game.move[me] += 1
    game.hazards_played += 1
    game.phase = "phase2"
    value = game.cards[card].value
    if target == DOCTOR:  # I-HAZ-4
        return _round(game, t, me, value, None, card, last)
    if game._is_stranger[target]:
        game._hazard_on_stranger(me, target, value)
        return True
    game._hazard_on_player(me, target, value)
    return game.phase == "phase2"


def _phase2(game: Any, t: FastTables, me: int, last: list[bool], rows: dict[str, int],
            spots: list[str], seen: int) -> None:
    """Phase 2 (I-KILL-1, I-DRAW-1): attack, draw or pass, and the step to the next turn."""
    here, doctor, bit, history = game.position[me], game.doctor, t.bit, game.history
    out = me in game.eliminated
    may_draw = bool(game.deck) and not out
    if here == doctor and not out and not seen & bit[here] and here not in spots:
        weapon = _best_weapon(game, me, here)
        history.append(_made(t, t.attack, weapon))
        value = game.attack[me]  # I-KILL-2
        if weapon is not None:  # I-KILL-3: the Weapon goes under the character now
            value += game.cards[weapon].weapon_value(here)
            game.hands[me].remove(weapon)
            game._held -= game._luck[weapon]
            game.under[me].append(weapon)
        if _round(game, t, me, value, weapon, None, last):
            _next_turn(game, t, last)
        return
    if may_draw and not (rows[doctor] | seen) & bit[here]:
        history.append(t.draw)
        hand = game.hands[me]
        hand.append(game.deck.pop())
        game._held += game._luck[hand[-1]]
    else:
        history.append(t.pass_)
    _next_turn(game, t, last)


def _next_turn(game: Any, t: FastTables, last: list[bool]) -> None:
    """``IslandGame._end_turn`` in a quiet game: Doctor Lucky's step (``I-DOC-*``), the
    building draws, the turn cap, the next turn, and the Strangers' turns on the way (I-STR-4,
    I-STR-5: walk upstream unless it may attack; attack if it may), until a player's turn or
    the end."""
    strangers, position, order, had = game._is_stranger, game.position, game.order, game._had_turn
    path, walk = game._next_on_path, t.walk or _walk(t, game)
    while True:
        active = game.active
        had.add(active)
        if not game._jumps_on and had.issuperset(order):
            game._jumps_on = True  # I-DOC-4
        here = path.get(game.doctor) or game.board.next_on_path(game.doctor)
        game.doctor = here
        occupants = [s for s in order if position[s] == here]
        nxt = None
        if not occupants and here in game._buildings:
            _building_draws(game, active)  # I-DOC-2
        elif occupants and game._jumps_on:
            nxt = jump_target(order, active, occupants)  # I-DOC-3
        if game.turn >= game.turn_cap:  # I-END-2
            game.phase, game._decider = "over", None
            return
        seat = game._left[active] if nxt is None else nxt
        game.turn += 1
        game.active = seat
        game.table_luck_by_turn.append(game._held)
        if not strangers[seat]:
            game._decider = seat
            game.phase = "phase1"
            return
        if position[seat] != here or not game.can_attack(seat):
            upstream = walk[position[seat]]
            if upstream is not None:
                position[seat] = upstream
        if position[seat] == here and game.can_attack(seat) and not _round(
                game, t, seat, game.attack[seat], None, None, last):
            return


def _walk(t: FastTables, game: Any) -> dict[str, str | None]:
    """By space: where a Stranger there walks upstream (None: it stays off the path)."""
    board, upstream = game.board, game._upstream
    t.walk = {s: upstream[s] if board.number(s) else None for s in board.spaces}
    return t.walk


def _building_draws(game: Any, active: int) -> None:
    """``IslandGame._building_draws`` in a quiet game: from the left of the last player, each
    player holding fewer than 3 cards draws one, while the deck lasts."""
    deck, hands, strangers = game.deck, game.hands, game._is_stranger
    for s in seats_from_left(game.order, active):
        if not strangers[s]:
            hand = hands[s]
            if len(hand) < 3:
                if not deck:
                    return
                hand.append(deck.pop())
                game._held += game._luck[hand[-1]]


def _best_weapon(game: Any, me: int, here: str) -> int | None:
    """The Weapon in hand worth most on ``here`` (the lowest id of equals), or None."""
    cards = game.cards
    best, best_key = None, None
    for c in game.hands[me]:
        card = cards[c]
        if card.kind == "weapon":
            key = (card.weapon_value(here), -c)
            if best_key is None or key > best_key:
                best, best_key = c, key
    return best


def _round(game: Any, t: FastTables, attacker: int, value: int, weapon: int | None,
           hazard: int | None, last: list[bool]) -> bool:
    """A whole round of foiling in a quiet game, ``IslandGame._start_foil`` to ``_finish_foil``
    (I-FOIL-*), against a murder (with ``weapon``, or bare-handed) or the Hazard ``hazard``
    thrown at Doctor Lucky: the others asked once from the attacker's left, a Stranger turning
    up the top card (I-STR-3), a player answering as its bot does (:func:`_foil`). False: the
    attacker won. True: foiled; a murderer's Attack has grown (the caller ends the turn), a
    Hazard's thrower goes on to Phase 2."""
    order, hands, luck, strangers = game.order, game.hands, game._luck, game._is_stranger
    i = order.index(attacker)
    asked = [*order[i + 1:], *order[:i]]
    held = hands.get(attacker)
    table_luck = game._held - (sum([luck[c] for c in held]) if held else 0)
    deck, discards, history, mean = game.deck, game.discards, game.history, game.mean_luck
    paid, could = 0, []  # (seat, what was needed when it passed): the loser is among them
    for k, seat in enumerate(asked):
        needed = value - paid
        if needed <= 0:  # I-FOIL-2: foiled, nobody more is asked
            break
        if strangers[seat]:
            if deck:
                top = deck.pop()
                discards.append(top)
                paid += luck[top]
            continue
        hand, later = hands[seat], asked[k + 1:]
        if later and (last[seat] or sum((mean if deck else 0.0) if strangers[s] else
                                        len(hands[s]) * mean for s in later) >= needed):
            history.append(t.no_foil)  # someone after it may pay
            could.append((seat, needed))
            continue
        cards = _cover(t.codes(game.cards), len(game.cards), hand, needed, t.covers)
        history.append(_made(t, t.foil, cards) if cards else t.no_foil)
        points = sum([luck[c] for c in cards])
        if points < needed <= sum([luck[c] for c in hand]):
            could.append((seat, 0))
        paid += points
        for c in cards:
            hand.remove(c)
            discards.append(c)
        game._held -= points
    return _end_round(game, attacker, value, weapon, hazard, paid, could, table_luck)


def _end_round(game: Any, attacker: int, value: int, weapon: int | None, hazard: int | None,
               paid: int, could: list[tuple[int, int]], table_luck: int) -> bool:
    """``IslandGame._finish_foil`` in a quiet game (see :func:`_round`). ``could``: the seats
    that passed or paid too little, each with what was needed then; the loser is the last
    that held enough (I-FOIL-3; its hand is as it was, asked once), found only if it counts."""
    foiled = paid >= value
    game.attempt_log.append({
        "turn": game.turn, "attacker": attacker, "kind": "murder" if hazard is None else "hazard",
        "value": value, "foiled": foiled, "luck_spent": paid, "table_luck": table_luck})
    if not foiled:  # I-END-1
        loser, luck = None, game._luck
        for seat, needed in could:
            if needed <= sum([luck[c] for c in game.hands[seat]]):
                loser = seat
        game.winner, game.loser, game.finished = attacker, loser, True
        game.phase, game._decider = "over", None
        return False
    if hazard is not None:
        game.phase, game._decider = "phase2", attacker
        return True
    if weapon is None:  # I-KILL-3: the Weapon is the marker; without one, a discard
        game.under[attacker].append(game.discards.pop())
    game.attack[attacker] += 1
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
    cards = _cover(t.codes(game.cards), len(game.cards), hand, needed, t.covers)
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
    """
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
