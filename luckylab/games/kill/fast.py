"""Kill Doctor Lucky's fused turns: the default bot (``opportunist``) and its variants deciding
and the rules applying in one plain function per turn, on integer spaces, bitsets and
precomputed tables.

:mod:`luckylab.games.kill.rules` is the reference that students read; this module plays the
same games faster and is tested equal to it, action for action and draw for draw
(``tests/test_fused.py``). ``KillGame.play_out`` uses it for a quiet game of exactly those rules
(``KillGame`` itself, no method replaced: :func:`luckylab.games.fused.plays_as_written`) in
which every seat is the default bot or a variant of it (:mod:`luckylab.games.fused`); anything
else, a subclass that changes a rule included, goes through the reference.

What the bot does (``luckylab.agents.kill.Opportunist``), in the order it checks:

- attack if it stands alone with Doctor Lucky where no other player sees (its best Weapon);
- one move: step in on him, or a Move or Room card that brings the two together;
- two moves: a free step to a space a card can then bring him to, or a card next to him;
- otherwise, at the start of a turn, snoop into the named room nearest his next room; later in
  a turn, end it. Asked to foil, it pays the cheapest cover, or passes.

A bot's ``fused_profile`` changes two of those choices (:data:`PLAYS`): ``min_value``, the
least an attack must be worth (its best Weapon on the murder space; bare hands are worth 1), for
the attack and for every plan above; and ``foil``: ``"cheapest"`` as above, or ``"last"``: pass
unless it is the last one asked, then pay the cheapest cover. ``patient`` is
``{"min_value": 3, "foil": "last"}``.

Spaces are numbered in sorted order of their names, so the lowest set bit of a bitset is the
first space in sorted order (the reference's ``min`` and its sorted loops).

>>> from luckylab import new_game
>>> game = new_game("kill", players=3, seed=2)
>>> game.quieten()
>>> play_out(game, [{"min_value": 1, "foil": "cheapest"}] * 3)
>>> game.is_over, len(game.history) > 0
(True, True)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...boards.board import Board
from ...cards import load_deck
from ..foiling import FoilRound
from .actions import Attack, EndTurn, Foil, PlayCard, Snoop, Step
from .tables import Tables

__all__ = ["PLAYS", "FastTables", "fast_tables", "play_out"]

PLAYS: dict[str, tuple[Any, ...]] = {"min_value": tuple(range(1, 21)),
                                     "foil": ("cheapest", "last")}
"""The choices a bot's ``fused_profile`` may set, and the values played (the default first)."""


class FastTables:
    """A board's spaces as integers and the lookups the fused turns read (built once), from
    the engine's own tables (:class:`~.tables.Tables`)."""

    def __init__(self, board: Board, ref: Tables) -> None:
        self.play_card, self.foil = PlayCard, Foil
        names = tuple(sorted(board.spaces))
        at = {s: i for i, s in enumerate(names)}
        self.names, self.index = names, at
        self.doors = [_bits(at, ref.doors[s]) for s in names]
        self.vis = [_bits(at, ref.vis[s]) for s in names]
        self.all = (1 << len(names)) - 1
        self.room = [s in ref.rooms for s in names]
        self.doctor_next = [at[ref.doctor_next[s]] for s in names]
        # [here][doctor]: where a snoop goes (the nearest room to his next room)
        self.snoop_to = [[at[_nearest_room(board, s, ref.doctor_next[d])] for d in names]
                         for s in names]
        self.luck = ref.luck
        self.failure = [k == "failure" for k in ref.kinds]
        # by card id: the design number of a Move or Room card (-1 for others), its reach
        designs = [d for d in dict.fromkeys(ref.designs) if d is not None]
        self.design = [-1 if d is None else designs.index(d) for d in ref.designs]
        self.reach: list[list[int] | None] = [
            None if r is None else [_bits(at, r[s][0]) for s in names] for r in ref.reach]
        deck = load_deck("kill")
        self.weapon_value: list[list[int] | None] = [
            [c.weapon_value(s) for s in names] if c.kind == "weapon" else None for c in deck]
        # [least value][card id]: the spaces where the card is a Weapon worth that much
        self.worth: dict[int, list[int]] = {}
        self.foiling = ref.foiling
        self.snoop = [Snoop(s) for s in names]
        self.step = [Step(s) for s in names]
        self.end_turn, self.no_foil = EndTurn(), Foil(())
        self.attack: dict[int | None, Any] = {None: Attack(None)}
        self.attack.update({c.id: Attack(c.id) for c in deck if c.kind == "weapon"})
        self.plays: dict[tuple[int, str, int], Any] = {}
        # (Failure values in id order, points needed) -> the places of the cards to play
        self.foils: dict[tuple[tuple[int, ...], int], tuple[int, ...] | None] = {}


def _bits(at: dict[str, int], spaces: Any) -> int:
    out = 0
    for s in spaces:
        out |= 1 << at[s]
    return out


def _nearest_room(board: Board, here: str, target: str) -> str:
    """``luckylab.agents.kill.nearest_room``: of ``here`` and its neighbours (sorted), the
    first named room as close as possible to ``target``; ``here`` if none is a room."""
    options = [s for s in (here, *sorted(board.graph[here])) if board.kind(s) == "room"]
    if not options:
        return here
    return min(options, key=lambda s: board.distance(s, target))


@lru_cache(maxsize=16)
def fast_tables(board: Board, ref: Tables) -> FastTables:
    """The fused turns' tables for ``board``, built once per board."""
    return FastTables(board, ref)


def _worth(t: FastTables, least: int) -> list[int]:
    """By card id: the spaces where it is a Weapon worth ``least`` or more (remembered)."""
    bits = t.worth.get(least)
    if bits is None:
        bits = t.worth[least] = [
            0 if v is None else sum(1 << i for i, x in enumerate(v) if x >= least)
            for v in t.weapon_value]
    return bits


class _State:
    """The game's changing parts while the fused turns run (spaces as integers), and each
    seat's play: ``worth[seat]`` (None: any attack will do; else by card id the spaces where
    it makes an attack worth the seat's ``min_value``) and ``last[seat]`` (foils only as the
    last one asked)."""

    __slots__ = ("game", "pos", "doctor", "hands", "deck", "discards", "removed", "history",
                 "attempts", "rng", "turn", "active", "stepped", "over", "winner",
                 "reshuffles", "left", "others", "cap", "worth", "last", "menus",
                 "armed")

    def __init__(self, game: Any, t: FastTables, profiles: list[dict[str, Any]]) -> None:
        at = t.index
        self.game = game
        self.pos = [at[game.position[s]] for s in range(game.players)]
        self.doctor = at[game.doctor]
        self.hands, self.deck, self.discards = game.hands, game.deck, game.discards
        self.removed, self.history, self.attempts = game.removed, game.history, game.attempt_log
        self.rng, self.turn, self.active = game.rng, game.turn, game.active
        self.stepped, self.over, self.winner = game.stepped, False, None
        self.reshuffles, self.left, self.cap = game.reshuffles, game._left, game.turn_cap
        self.others = [left[:-1] for left in game._left]
        self.worth = [None if p["min_value"] <= 1 else _worth(t, p["min_value"])
                      for p in profiles]
        self.last = [p["foil"] == "last" for p in profiles]
        # by seat: its Move and Room cards (_moving), None until asked for or after a change
        self.menus: list[list[int] | None] = [None] * len(profiles)
        # by seat: the spaces where a Weapon in its hand is worth enough (None: not known yet)
        self.armed: list[int | None] = [None] * len(profiles)

    def store(self, t: FastTables) -> None:
        """Write the state back into the game, as the reference leaves it."""
        game, names = self.game, t.names
        for s, p in enumerate(self.pos):
            game.position[s] = names[p]
        game.doctor = names[self.doctor]
        game.deck, game.discards, game.reshuffles = self.deck, self.discards, self.reshuffles
        game.turn, game.active, game.stepped = self.turn, self.active, self.stepped
        if self.over:
            game.phase, game._decider, game.foil = "over", None, None
            if self.winner is not None:
                game.winner, game.finished = self.winner, True


def play_out(game: Any, profiles: list[dict[str, Any]]) -> None:
    """Play ``game`` (a quiet ``KillGame`` at the start of a turn) to its end, each seat the
    default bot played as its profile says (:data:`PLAYS`, every choice given, as
    ``luckylab.games.fused.fused_profiles`` fills them in)."""
    t = fast_tables(game.board, game._t)
    state = _State(game, t, profiles)
    while not state.over:
        _turn(state, t)
    state.store(t)


def _turn(s: _State, t: FastTables) -> None:
    """One whole turn of the active player: its decisions, their effects, any foiling round,
    and Doctor Lucky's move to the next turn."""
    seat, pos, history = s.active, s.pos, s.history
    hand = s.hands[seat]
    vis, others, worth = t.vis, s.others[seat], s.worth[seat]
    first = True
    while True:
        here, doc = pos[seat], s.doctor
        seen = 0
        for o in others:
            seen |= vis[pos[o]]
        good = t.all & ~seen  # K-KILL-1: the spaces no other player sees
        if worth is not None and good:  # ... where its best attack is worth enough
            good &= _armed(s, seat, worth)
        plan = _plan(t, s, seat, here, doc, good) if good else None
        if plan is None:
            if first:  # K-SNOOP-1: stay or step, nearest his next room; draw in a room
                to = t.snoop_to[here][doc]
                pos[seat] = to
                history.append(t.snoop[to])
                if t.room[to]:
                    _draw(s, t, seat, hand)
            else:
                history.append(t.end_turn)
            _end_turn(s, t)
            return
        kind, card, to = plan
        first = False
        if kind == 0:
            _attack(s, t, seat, hand, here)
            return
        if kind == 1:  # the free step
            s.stepped = True
            pos[seat] = to
            history.append(t.step[to])
            continue
        hand.remove(card)  # a Move or Room card, moving the player or Doctor Lucky
        s.menus[seat] = None
        s.discards.append(card)
        if kind == 2:
            pos[seat] = to
        else:
            s.doctor = to
        history.append(_play(t, card, "self" if kind == 2 else "doctor", to))


def _armed(s: _State, seat: int, worth: list[int]) -> int:
    """The spaces where a Weapon in ``seat``'s hand is worth its least value (remembered
    until a Weapon enters or leaves the hand)."""
    weapons = s.armed[seat]
    if weapons is None:
        weapons = 0
        for c in s.hands[seat]:
            weapons |= worth[c]
        s.armed[seat] = weapons
    return weapons


def _plan(t: FastTables, s: _State, seat: int, here: int, doc: int,
          safe: int) -> tuple[int, int, int] | None:
    """``luckylab.agents.kill.kill_plan`` for ``seat``, ``safe`` the spaces that pass its murder
    test (unseen, and the attack worth enough): ``(0, _, _)`` attack, ``(1, _, to)`` step,
    ``(2, card, to)`` a card moving the player, ``(3, card, to)`` moving Doctor Lucky; None:
    no murder this turn."""
    doc_ok, here_ok = safe >> doc & 1, safe >> here & 1
    if here == doc and here_ok:
        return 0, 0, 0
    doors, stepped = t.doors, s.stepped
    if not stepped and doc_ok and doors[here] >> doc & 1:
        return 1, 0, doc
    cards = s.menus[seat]
    if cards is None:
        cards = s.menus[seat] = _moving(t, s.hands[seat])
    reach = t.reach
    for c in cards:
        r = reach[c]
        if doc_ok and r[here] >> doc & 1:  # type: ignore[index]
            return 2, c, doc
        if here_ok and r[doc] >> here & 1:  # type: ignore[index]
            return 3, c, here
    if stepped or not cards:
        return None
    his = 0
    for c in cards:
        his |= reach[c][doc]  # type: ignore[index]
    step = doors[here] & his & safe
    if step:
        return 1, 0, (step & -step).bit_length() - 1
    if doc_ok:
        next_to_him = doors[doc]
        for c in cards:
            landing = reach[c][here] & next_to_him  # type: ignore[index]
            if landing:
                return 2, c, (landing & -landing).bit_length() - 1
    return None


def _moving(t: FastTables, hand: list[int]) -> list[int]:
    """The Move and Room cards of ``hand``, one per design (the lowest id), sorted by id."""
    design = t.design
    cards = [c for c in hand if design[c] >= 0]
    if len(cards) < 2:
        return cards
    cards.sort()
    menu, seen = [], 0
    for c in cards:
        bit = 1 << design[c]
        if not seen & bit:
            seen |= bit
            menu.append(c)
    return menu


def _play(t: FastTables, card: int, pawn: str, to: int) -> Any:
    key = (card, pawn, to)
    action = t.plays.get(key)
    if action is None:
        action = t.plays[key] = t.play_card(card, pawn, t.names[to])
    return action


def _draw(s: _State, t: FastTables, seat: int, hand: list[int]) -> None:
    """Draw a card (the discards reshuffled into a new deck when it is empty)."""
    if not s.deck and s.discards:
        s.deck, s.discards = s.discards, []
        s.rng.shuffle(s.deck)
        s.reshuffles += 1
    if s.deck:
        card = s.deck.pop()
        hand.append(card)
        if t.design[card] >= 0:  # a Move or Room card: the seat's menu changes
            s.menus[seat] = None
        elif t.weapon_value[card] is not None:  # a Weapon: where it may attack changes
            s.armed[seat] = None


def _attack(s: _State, t: FastTables, seat: int, hand: list[int], here: int) -> None:
    """The murder attempt with the best Weapon, the foiling round, and its end."""
    weapon, value, values = None, 1, t.weapon_value
    for c in hand:  # the first Weapon worth most here
        v = values[c]
        if v is not None and v[here] > value:
            weapon, value = c, v[here]
    if weapon is not None:
        hand.remove(weapon)
        s.discards.append(weapon)
        s.armed[seat] = None
    s.history.append(t.attack[weapon])
    paid = 0
    luck, hands, asked, last = t.luck, s.hands, s.others[seat], s.last
    for other in asked:  # K-FAIL-1: from the attacker's left, until foiled
        if paid >= value:
            break
        held = hands[other]
        if last[other] and other != asked[-1]:
            s.history.append(t.no_foil)  # it hopes someone after it pays
            continue
        cards = _cheapest(t, held, value - paid)
        s.history.append(t.foil(cards))
        for c in cards:
            held.remove(c)
            s.removed.append(c)
            paid += luck[c]
    foiled = paid >= value
    s.attempts.append({"turn": s.turn, "attacker": seat, "value": value, "weapon": weapon,
                       "space": t.names[s.doctor], "foiled": foiled, "points": paid})
    if not foiled:
        s.over, s.winner = True, seat
        return
    _end_turn(s, t)


def _cheapest(t: FastTables, hand: list[int], needed: int) -> tuple[int, ...]:
    """``luckylab.agents.kill.cheapest_foil``: the cheapest cover of ``needed`` (the fewest
    points, then cards, the first listed), or () to pass."""
    failure, luck = t.failure, t.luck
    failures = sorted([c for c in hand if failure[c]])
    key = (tuple([luck[c] for c in failures]), needed)
    places = t.foils.get(key, _UNKNOWN)
    if places is _UNKNOWN:
        if sum(key[0]) < needed:
            places = None
        else:
            foil = t.foiling.cheapest(failures, FoilRound(attacker=0, value=needed, order=[]))
            places = None if foil is None else tuple(failures.index(c) for c in foil.cards)
        if len(t.foils) >= 20_000:
            t.foils.clear()
        t.foils[key] = places
    return () if places is None else tuple([failures[i] for i in places])


_UNKNOWN: Any = object()


def _end_turn(s: _State, t: FastTables) -> None:
    """K-DOC-1, K-DOC-2: Doctor Lucky moves; the turn jumps to whom he walks in on, else goes
    left; the turn cap stops the game."""
    active = s.active
    s.doctor = here = t.doctor_next[s.doctor]
    pos = s.pos
    nxt = s.left[active][0]
    if here in pos:
        for seat in s.left[active]:
            if pos[seat] == here:
                nxt = seat
                break
    if s.turn >= s.cap:
        s.over = True
        return
    s.turn += 1
    s.active = nxt
    s.stepped = False
