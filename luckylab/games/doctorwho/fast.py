"""Doctor Who's fused turns: the default bot (``greedy``) and its kin (``careful``,
``bluffer``) deciding and the rules applying without listing legal actions, reading an
observation or re-checking.

:mod:`luckylab.games.doctorwho.rules` is the reference that students read; this module plays
the same games faster and is tested equal to it, action for action and draw for draw
(``tests/test_fused.py``). ``DoctorWhoGame.play_out`` uses it for a quiet game of exactly
those rules (the class itself, no method replaced: a subclass that changes a rule plays its
own rules) in which every seat is one of those bots (:mod:`luckylab.games.fused`). Each
decision is made here from the game's own state (what the seat may know of it: the bot reads
only its observation) and precomputed card tables; the frequent actions (Locations, Defenders
and Enemies played face down, discards, passing) are applied here, the rest (conflicts,
Support cards, purchases, the draws) by the reference's own steps (``_do_support``, ``_draw``
...), and the bot's last resort (a choice among every legal action, in a state the rules
never reach) by the bot itself.

What the bot does (``luckylab.agents.doctorwho.Greedy``), one action at a time:

- play its best Location (10 + 2 VP + TP: more than anything else can score);
- else the action that scores most above 0 now, the first in ``legal_actions()`` order:
  a defence it can see will hold (8 + VP - cards against an attack; 2 + VP - cards with
  strength 3 on a bare Location), an attack (a TARDIS: 1 + VP - strength with one card; face
  down Defenders: 4 + VP - cards beating 2 per card + 1; bare: 3 + 2 VP - cards with strength
  3), a takeover (6 + VP) or a Support card (Jammy Dodger, K-9, Bad Wolf, Chameleon Arch:
  6 + VP, K-9 one less; Captain Jack 7 + VP on a lone Enemy, else 2; TARDIS, Crack in Time:
  1 + counters; Mr Clever 1 + counters back; a Sonic 1.5 on hidden Enemies, else 0.5; Wilf,
  Ood, Ironsides 0.5);
- else pass (any legal pass, at random), discard one card (at random), or buy one;
- in a conflict: Ironsides only when +1 helps, The Valiant always, and the matching discard
  of the fewest cards (the highest ids among those).

A bot's ``fused_profile`` changes two of those choices (:data:`PLAYS`): ``dispose``, how it
ends a turn with nothing worth doing (``"careful"``, ``Careful.dispose``: in the End Game
discard the card least useful to anyone, the lowest id of those; else reserve, or failing that
discard, its hand card most useful to its right-hand neighbour unless that card is among its
three weakest, else pass the weakest cards it may; then as the default bot), and ``bluff``
(True: one Defender of strength 2 or less on a bare Location of its own scores 3 + VP, one
Enemy of strength 2 or less against a bare Location 5 + VP).

>>> from luckylab.agents.doctorwho import Bluffer, Greedy
>>> from luckylab.games.doctorwho import DoctorWhoGame
>>> game = DoctorWhoGame(players=3, seed=2)
>>> game.quieten()
>>> plain = {"dispose": "careless", "bluff": False}
>>> play_out(game, [Greedy(seed=s).choose for s in range(3)], [plain] * 3)
>>> game.is_over, len(game.history) > 0
(True, True)
>>> game = DoctorWhoGame(players=4, seed=2)
>>> game.quieten()
>>> bluffer = {"dispose": "careful", "bluff": True}
>>> play_out(game, [Bluffer(seed=1).choose] * 4, [bluffer] * 4)
>>> game.is_over
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ...cards.doctorwho import compatible
from .actions import (
    COUNTERS,
    Attack,
    Buy,
    Defend,
    Discard,
    Loc,
    MatchDiscard,
    Pass,
    PlayLocation,
    PlaySupport,
    Reserve,
    TakeOver,
    UseIronsides,
    UseValiant,
)
from .tables import attack_groups, defence_picks

__all__ = ["PLAYS", "FastTables", "fast_tables", "play_out"]

PLAYS: dict[str, tuple[Any, ...]] = {"dispose": ("careless", "careful"), "bluff": (False, True)}
"""The choices a bot's ``fused_profile`` may set, and the values played (the default first)."""

UNKNOWN_CARD = 2.0  # luckylab.agents.doctorwho.UNKNOWN_CARD: a face-down card's guessed worth
# luckylab.agents.doctorwho.help_value's worth of a Support card (1 for the rest)
_GOOD_SUPPORT = {"Jammy Dodger": 4, "K-9": 3, "Bad Wolf": 3, "Captain Jack": 3,
                 "Collecting on Debts": 3, "Chameleon Arch": 3, "TARDIS": 2, "Crack in Time": 2,
                 "Mr Clever": 2}

# What a card can do for the bot besides a Location, Defend or Attack (by name)
(_NONE, _SONIC, _JAMMY, _WIDENER, _TARDIS, _CRACK, _IRONSIDES, _CLEVER, _JACK, _ARCH, _WOLF,
 _K9, _TAKEOVER) = range(13)
_CODES = {"Sonic Screwdriver": _SONIC, "Psychic Paper": _SONIC, "Vincent Van Gogh": _SONIC,
          "Jammy Dodger": _JAMMY, "Wilf": _WIDENER, "Ood": _WIDENER, "TARDIS": _TARDIS,
          "Crack in Time": _CRACK, "Ironsides": _IRONSIDES, "Mr Clever": _CLEVER,
          "Captain Jack": _JACK, "Collecting on Debts": _JACK, "Chameleon Arch": _ARCH,
          "Bad Wolf": _WOLF, "K-9": _K9}


class FastTables:
    """A card list's lookups for the fused turns, by card id (built once per card list), with
    the game's action classes, ``Loc``, its remembered Enemy sets and Defender picks
    (:mod:`~luckylab.games.doctorwho.tables`) and the counters each player has, at hand."""

    def __init__(self, cards: tuple[Any, ...]) -> None:
        self.new_loc, self.counters = Loc, COUNTERS
        self.attack_groups, self.defence_picks = attack_groups, defence_picks
        (self.play_location, self.defend, self.attack, self.takeover, self.support,
         self.reserve, self.buy, self.discard, self.pass_, self.ironsides, self.valiant,
         self.match) = (PlayLocation, Defend, Attack, TakeOver, PlaySupport, Reserve, Buy,
                        Discard, Pass, UseIronsides, UseValiant, MatchDiscard)
        self.cards = cards
        self.strength = [c.strength for c in cards]
        self.vp = [c.vp for c in cards]
        self.enemy = [c.kind == "enemy" for c in cards]
        self.defender = [c.kind == "defender" for c in cards]
        self.design = [(c.name, c.strength, c.picture) for c in cards]
        # a Location's score (10 + 2 VP + TP), 0 for any other card
        self.location = [10 + 2 * c.vp + c.tp if c.kind == "location" else 0 for c in cards]
        self.code = [_CODES.get(c.name, _NONE) if c.kind == "support" else
                     _TAKEOVER if c.name in ("Davros", "Cyberking") else _NONE for c in cards]
        self.takes = [("Dalek", "Dalek Flagship") if c.name == "Davros" else ("Cybermen",)
                      for c in cards]
        self.name = [c.name for c in cards]
        self.type = [c.type for c in cards]
        self.dalek = [c.kind == "enemy" and c.type == "Dalek" for c in cards]
        # luckylab.agents.doctorwho.help_value: how much a card would help whoever gets it
        self.help = [float(c.strength) if c.kind in ("defender", "enemy") else
                     float(c.vp + c.tp) if c.kind == "location" else
                     float(_GOOD_SUPPORT.get(c.name, 1)) for c in cards]
        places = [c for c in cards if c.kind in ("location", "starting")]
        most = max(c.vp for c in places)
        least = min(self.location[c.id] for c in places if c.kind == "location")
        # luckylab.agents.doctorwho._locations_first: a Location outscores anything else
        self.locations_first = least > max(7 + most, 2 + 2 * most, 1 + 5)
        self.partners = [frozenset(b.id for b in cards if compatible(a, b)) if a.kind == "enemy"
                         else frozenset() for a in cards]
        # equal designs attack alike (type and combines too): then the first Enemy set of a
        # strength in _attack_groups' order is the first of all the sets, duplicates and all
        alike: dict[Any, Any] = {}
        self.designs_alike = all(
            alike.setdefault(self.design[c.id], (c.type, c.combines)) == (c.type, c.combines)
            for c in cards if c.kind == "enemy")
        self.defences: dict[tuple[Any, ...], tuple[int, ...] | None] = {}
        self.attacks: dict[tuple[Any, ...], tuple[int, ...] | None] = {}
        self.bluffs: dict[tuple[Any, ...], tuple[int, ...] | None] = {}


_TABLES: dict[int, FastTables] = {}


def fast_tables(cards: tuple[Any, ...]) -> FastTables:
    """The fused turns' tables for the card list ``cards`` (remembered per list)."""
    t = _TABLES.get(id(cards))
    if t is None or t.cards is not cards:
        t = _TABLES[id(cards)] = FastTables(cards)
    return t


def play_out(game: Any, choosers: Sequence[Callable[[Any], Any]],
             profiles: list[dict[str, Any]]) -> None:
    """Play a quiet ``DoctorWhoGame`` to its end, each seat the default bot played as its
    profile says (:data:`PLAYS`, every choice given, as ``luckylab.games.fused.fused_profiles``
    fills them in; ``choosers``: the bots' ``choose``, their generators make their random
    choices). Only for the class ``DoctorWhoGame`` itself (its ``play_out`` makes sure)."""
    t = fast_tables(game.cards)
    if not t.locations_first:  # (not so on the bundled cards) the bot's own weighing
        apply = game.apply_trusted
        while game.phase != "over":
            apply(choosers[game.current_player](game))
        return
    rngs = [c.__self__.rng for c in choosers]  # type: ignore[attr-defined]
    plays = [(p["dispose"] == "careful", p["bluff"]) for p in profiles]
    while game.phase != "over":
        if game.phase == "decide":
            _decide(game, t)
            continue
        seat = game.turn_player
        action = _choose(game, t, seat, rngs[seat], *plays[seat])
        if action is None:  # nothing the bot weighs is legal: its last resort
            game.apply_trusted(choosers[seat](game))
            continue
        _apply(game, t, seat, action)


def _apply(game: Any, t: FastTables, seat: int, action: Any) -> None:
    """``DoctorWhoGame.apply_trusted`` in a quiet game: the frequent actions here, a conflict,
    a Support card or a purchase by the reference's own step."""
    kind = type(action)
    if kind is t.pass_:
        _pass(game, t, seat, action.cards)
        game.history.append(action)
        return
    hand, reserve = game.hands[seat], game.reserves[seat]
    if kind is t.play_location:  # D-LOC-1
        c = action.card
        _take(hand, reserve, c)
        game.locs[c] = t.new_loc(owner=seat)
        game.lines[seat].append(c)
        want = game.cards[c].tp
        if want <= game.supply:
            game.tp[seat] += want
        else:
            _take_tp(game, seat, action)
    elif kind is t.reserve:  # D-RES-1
        for c in action.cards:
            hand.remove(c)
            reserve.append(c)
    elif kind is t.discard:  # D-TP-2
        for c in action.cards:
            _take(hand, reserve, c)
        game.discard.extend(action.cards)
        game.tp[seat] += min(len(action.cards), game.supply)
    elif kind is t.defend and not game.locs[action.loc].enemies:  # D-DEF-1: face down
        for c in action.cards:
            _take(hand, reserve, c)
        game.locs[action.loc].defenders.extend(action.cards)
    elif kind is t.attack and not game.locs[action.loc].defenders:  # D-ENE-1, D-ENE-2
        for c in action.cards:
            _take(hand, reserve, c)
        loc = game.locs[action.loc]
        if loc.tardis:
            game.discard.extend(action.cards)
            loc.tardis = False
        else:
            loc.attacker = seat
            loc.enemies.extend(action.cards)
    else:
        game._handlers[game.phase][kind][1](game, seat, action)
    game.history.append(action)
    if game.endgame and game.phase not in ("decide", "over"):
        _next_turn(game, t)  # D-END-3: one action a turn


def _take(hand: list[int], reserve: list[int], c: int) -> None:
    """``DoctorWhoGame._take``: card ``c`` out of the hand, else the reserve."""
    if c in hand:
        hand.remove(c)
    else:
        reserve.remove(c)


def _take_tp(game: Any, seat: int, action: Any) -> None:
    """``DoctorWhoGame._do_location``'s TP when the supply runs short: the rest from the
    other players (richest first, unless ``take_from`` says)."""
    want = game.cards[action.card].tp
    got = game._gain(seat, want)
    tp = game.tp
    order = list(action.take_from) or sorted(
        (s for s in range(game.players) if s != seat), key=lambda s: (-tp[s], s))
    for s in order:
        take = min(want - got, tp[s])
        tp[s] -= take
        tp[seat] += take
        got += take


def _pass(game: Any, t: FastTables, seat: int, cards: tuple[int, ...]) -> None:
    """``DoctorWhoGame._do_pass`` in a quiet game: the whole hand and reserve cards to the
    right, the draw (``D-END-2``: to 5 once the End card is out), the next turn."""
    game.hands[seat].clear()  # (every hand card is passed)
    reserve = game.reserves[seat]
    for c in cards:
        if c in reserve:
            reserve.remove(c)
    right = (seat - 1) % game.players
    game.hands[right].extend(cards)
    game.passed[seat] = game.received[right] = tuple(cards)
    draw, deck, n = game._draw, game.deck, game.draw_n
    if not game.end_revealed and game.end_card not in deck[-n - 1:]:  # (no End card on the way)
        game.hands[seat].extend(deck[:-n - 1:-1])
        del deck[-n:]
    elif game.end_revealed:
        draw(seat, 5, in_turn=False)
    else:
        for _ in range(game.draw_n):
            draw(seat, 1, in_turn=False)
            if game.end_revealed:
                draw(seat, 5 - len(game.hands[seat]), in_turn=False)
                break
    if game.end_revealed:
        game.endgame = True
    _next_turn(game, t)


def _next_turn(game: Any, t: FastTables) -> None:
    """``DoctorWhoGame._next_turn``; the reference's ``_begin_turn`` only when the game may
    end there (``D-END-1``, ``D-END-3``, the turn cap)."""
    seat = game.turn_player = (game.turn_player + 1) % game.players
    game.turns += 1
    game.phase = "endgame" if game.endgame else "turn"
    daleks = tardises = 0
    for loc in game.locs.values():
        if loc.attacker == seat:
            daleks += 1
        if loc.tardis and loc.owner == seat:
            tardises += 1
    if (daleks == t.counters or tardises == t.counters or game.turns > game.turn_cap
            or (game.endgame and not (game.hands[seat] or game.reserves[seat]))):
        game._begin_turn()


def _decide(game: Any, t: FastTables) -> None:
    """``Greedy.decide``: a decision inside a conflict, applied."""
    c = game.conflict
    if c.stage == "ironsides":  # pay only when +1 helps (win, or fewer kept)
        action: Any = t.ironsides(c.defence < c.attack)
    elif c.stage == "valiant":
        action = t.valiant(True)
    else:  # keep the strongest: the fewest cards, the highest ids
        action = t.match(max(c.options, key=lambda o: (-len(o), o)))
    seat = game.current_player
    game._handlers["decide"][type(action)][1](game, seat, action)
    game.history.append(action)


def _choose(game: Any, t: FastTables, seat: int, rng: Any, careful: bool, bluff: bool) -> Any:
    """``Greedy.choose`` on the turn player's turn (``careful``: ``Careful.dispose``,
    ``bluff``: ``Bluffer``'s scores): the action, or None when the bot would choose among
    every legal action (nothing else is left to do)."""
    hand, reserve = game.hands[seat], game.reserves[seat]
    avail = hand + reserve
    slack = len(avail) - (0 if game.endgame else game.pass_n)
    if slack >= 1:
        best, value, location = None, 0, t.location
        for c in avail:  # the best Location, the lowest id of those
            v = location[c]
            if v > value or (v == value and v and c < best):  # type: ignore[operator]
                best, value = c, v
        if best is not None:
            return t.play_location(best)
        action = _best(game, t, seat, avail, slack, bluff)
        if action is not None:
            return action
    if careful:
        return _careful(game, t, seat, rng, avail, slack)
    return _dispose(game, t, seat, rng, avail, slack)


def _dispose(game: Any, t: FastTables, seat: int, rng: Any, avail: list[int], slack: int
             ) -> Any:
    """``Greedy.dispose``: nothing is worth doing; None for the bot's last resort."""
    hand, reserve = game.hands[seat], game.reserves[seat]
    if not game.endgame and len(hand) <= game.pass_n <= len(avail):
        extras = list(itertools.combinations(sorted(reserve), game.pass_n - len(hand)))
        return t.pass_(tuple(sorted(hand + list(rng.choice(extras)))))
    if slack >= 1:
        return t.discard((rng.choice(_uniq(t, avail)),))
    drawable = len(game.deck) + (len(game.discard) if game.endgame else 0)
    if game.tp[seat] >= 5 and drawable:
        return t.buy(1)
    return None


def _careful(game: Any, t: FastTables, seat: int, rng: Any, avail: list[int], slack: int
             ) -> Any:
    """``Careful.dispose``: keep back (reserve), or burn, the hand card that would help the
    right-hand neighbour most unless it is among the three weakest, else pass the weakest;
    in the End Game burn the least useful card (``_uniq``: the discards that are legal)."""
    value = t.help
    if game.endgame:
        if slack >= 1:
            return t.discard((min(_uniq(t, avail), key=lambda c: (value[c], c)),))
        return _dispose(game, t, seat, rng, avail, slack)
    hand, reserve = game.hands[seat], game.reserves[seat]
    weakest = sorted(avail, key=lambda c: (value[c], c))[:3]
    extra = [c for c in hand if c not in weakest]
    if extra:
        strong = max(extra, key=lambda c: (value[c], c))
        if (game.capacity(seat) > game.reserve_used(seat)
                and strong in _uniq(t, hand)):  # D-RES-1
            return t.reserve((strong,))
        if slack >= 1 and strong in _uniq(t, avail):
            return t.discard((strong,))
    if len(hand) <= game.pass_n <= len(avail):  # every hand card goes, and reserve cards
        picks = [tuple(sorted(hand + list(extra)))
                 for extra in itertools.combinations(sorted(reserve), game.pass_n - len(hand))]
        return t.pass_(min(picks, key=lambda p: (sum([value[c] for c in p]), p)))
    return _dispose(game, t, seat, rng, avail, slack)


def _uniq(t: FastTables, cards: list[int]) -> list[int]:
    """One card of each design, the lowest id, in id order (``_dedupe``)."""
    if len(cards) < 2:
        return list(cards)
    design = t.design
    seen, out = set(), []
    for c in sorted(cards):
        if design[c] not in seen:
            seen.add(design[c])
            out.append(c)
    return out


def _best(game: Any, t: FastTables, seat: int, avail: list[int], slack: int, bluff: bool
          ) -> Any:
    """``Greedy.best``: the first action of the highest score above 0 in the order of
    ``legal_actions()`` (defences, attacks, then takeovers and Support cards), or None
    (``bluff``: as ``Bluffer`` scores)."""
    best, top = _defend(game, t, seat, avail, slack, bluff)
    enemies = [c for c in avail if t.enemy[c]]
    daleks = -1  # counted when needed
    if enemies:
        daleks = [loc.attacker for loc in game.locs.values()].count(seat)
        best, top = _attack_best(game, t, seat, enemies, slack, daleks, bluff, best, top)
    found = _others(game, t, seat, avail, slack, daleks, top)
    if found is not None:
        return found
    if best is None:
        return None
    return best[0](best[1], best[2])


def _defend(game: Any, t: FastTables, seat: int, avail: list[int], slack: int, bluff: bool
            ) -> tuple[Any, float]:
    """The best defence (D-DEF-1) as ``(Defend, loc, cards)`` and its score, or (None, 0): a
    Location where even one card would not score more is skipped."""
    best: Any = None
    top = 0.0
    defenders = [c for c in avail if t.defender[c]]
    if not defenders:
        return best, top
    locs, vps, strength = game.locs, t.vp, t.strength
    defs = _uniq(t, defenders)
    known = (tuple(defs), min(slack, len(defs)))
    for lid in game.lines[seat]:
        loc = locs[lid]
        if loc.enemies:
            base = 8 + vps[lid]
            if base - 1 <= top:
                continue
            up, threat = loc.up, 0.0
            for e in loc.enemies:
                threat += strength[e] if e in up else UNKNOWN_CARD
        elif loc.defenders or loc.tardis:
            continue
        else:
            threat, base = 3, 2 + vps[lid]
            if bluff and base + 1 > top:  # one weak card face down: 3 + VP, more than any other
                weak = _weak_defender(t, known)
                if weak is not None:
                    best, top = (t.defend, lid, weak), base + 1
                    continue
            if base - 1 <= top:
                continue
        pick = _defence(t, known, loc.defenders, threat)
        if pick is not None and base - len(pick) > top:
            best, top = (t.defend, lid, pick), base - len(pick)
    return best, top


def _attack_best(game: Any, t: FastTables, seat: int, enemies: list[int], slack: int,
                 daleks: int, bluff: bool, best: Any, top: float) -> tuple[Any, float]:
    """The best attack (D-ENE-1) if it scores above ``top`` (else ``best`` and ``top``), as
    ``(Attack, loc, cards)`` and its score: a Location where even one card would not score
    more is skipped."""
    locs, vps, strength = game.locs, t.vp, t.strength
    free = daleks < t.counters
    key = (tuple(sorted(enemies)), min(len(enemies), slack))
    weakest = -1
    # Bluffer: the weak Enemy (strength 2 or less) that comes first alone, the lowest id
    weak = min([c for c in enemies if strength[c] <= 2], default=None) if bluff else None
    found: dict[int, Any] = {}  # strength needed -> the Enemy set
    players = game.players
    for i in range(1, players):
        for lid in game.lines[(seat + i) % players]:
            loc = locs[lid]
            if loc.attacker is not None or not (free or loc.tardis):
                continue  # (reinforcing an own attack scores -1)
            vp = vps[lid]
            if loc.tardis:  # the weakest card, alone
                if weakest < 0:
                    weakest = min(enemies, key=lambda c: (strength[c], c))
                if 1 + vp - strength[weakest] > top:
                    best, top = (t.attack, lid, (weakest,)), 1 + vp - strength[weakest]
                continue
            if loc.defenders:  # beat 2 per face-down card, + 1
                need, base = 2 * len(loc.defenders) + 2, 4 + vp
            else:
                need, base = 3, 3 + 2 * vp
            bare = weak is not None and not loc.defenders  # a bluff: 5 + VP
            if base - 1 <= top and not (bare and 5 + vp > top):
                continue
            pick = found.get(need, _UNKNOWN)
            if pick is _UNKNOWN:
                pick = found[need] = _attack(t, key, need)
            moves = [] if pick is None else [(base - len(pick), pick)]
            if bare:  # in the order of legal_actions(): one card before more, low ids first
                first = pick is not None and len(pick) == 1 and pick[0] < weak
                moves.insert(len(moves) if first else 0, (5 + vp, (weak,)))
            for score, cards in moves:
                if score > top:
                    best, top = (t.attack, lid, cards), score
    return best, top


def _remember(memo: dict[Any, Any], key: Any, found: Any) -> Any:
    """Keep ``found`` under ``key`` in ``memo`` (emptied first once it holds 50,000 answers,
    so its memory stays bounded) and return it. Keys and answers hold numbers and strings
    only: Python's collector stops walking such tuples, where a set in every key made each
    full collection walk every answer (a pause of a tenth of a second and more in a search)."""
    if len(memo) >= 50_000:
        memo.clear()
    memo[key] = found
    return found


def _defence(t: FastTables, known: tuple[tuple[int, ...], int], there: list[int],
             threat: float) -> tuple[int, ...] | None:
    """The first of the fewest picks (``_defence_picks``) of the Defenders ``known[0]``, at
    most ``known[1]``, of types not on the Location yet (``there``) whose strength reaches
    ``threat``; None if none does. Remembered."""
    types = tuple(sorted({t.type[d] for d in there})) if there else ()  # (no set: see _remember)
    key = (known, types, threat)
    memo = t.defences
    if key in memo:
        return memo[key]
    strength, found = t.strength, None
    for combo, kinds in t.defence_picks(list(known[0]), known[1], t.cards):
        if not kinds.isdisjoint(types) or (found is not None and len(combo) >= len(found)):
            continue
        if sum([strength[c] for c in combo]) >= threat:
            found = combo
    return _remember(memo, key, found)


def _attack(t: FastTables, key: tuple[tuple[int, ...], int], need: int
            ) -> tuple[int, ...] | None:
    """The first Enemy set (``_attack_groups``: the fewest cards first) of strength ``need``
    or more; None if none has. Remembered."""
    memo = t.attacks
    mkey = (*key, need)
    if mkey in memo:
        return memo[mkey]
    strength, found = t.strength, None
    if t.designs_alike:
        found = _first_set(t, key[0], key[1], need)
    else:
        for combo, _ in t.attack_groups(list(key[0]), key[1], t.cards):
            if sum([strength[c] for c in combo]) >= need:
                found = combo
                break
    return _remember(memo, mkey, found)


def _first_set(t: FastTables, enemies: tuple[int, ...], most: int, need: int
               ) -> tuple[int, ...] | None:
    """The first of up to ``most`` of ``enemies`` (sorted), fewest first, then in
    combinations order, that may attack together with strength ``need`` or more; None if none
    may. (Without building every set: with equal designs alike, as ``_attack_groups`` lists
    one set per multiset of designs, the first there.)"""
    strength, ok = t.strength, t.partners
    top = sorted([strength[c] for c in enemies], reverse=True)[:most]
    if sum([s for s in top if s > 0]) < need:  # out of reach
        return None
    for k in range(1, most + 1):
        for combo in itertools.combinations(enemies, k):
            if (sum([strength[c] for c in combo]) >= need
                    and all(b in ok[a] for a, b in itertools.combinations(combo, 2))):
                return combo
    return None


def _weak_defender(t: FastTables, known: tuple[tuple[int, ...], int]
                   ) -> tuple[int, ...] | None:
    """The first pick (``_defence_picks``) of one Defender of strength 2 or less of
    ``known[0]`` (a bluff on a bare Location), as a 1-tuple; None if none. Remembered."""
    memo = t.bluffs
    if known in memo:
        return memo[known]
    strength, found = t.strength, None
    for combo, _ in t.defence_picks(list(known[0]), known[1], t.cards):
        if len(combo) == 1 and strength[combo[0]] <= 2:
            found = combo
            break
    return _remember(memo, known, found)


def _others(game: Any, t: FastTables, seat: int, avail: list[int], slack: int, daleks: int,
            top: float) -> Any:
    """The takeover or Support action scoring above ``top`` (``Greedy.support_score``, 6 + VP
    for a takeover), the first of the highest in ``legal_actions()`` order; None if none does.
    ``daleks``: the seat's Dalek counters in play (-1: not counted yet)."""
    code = t.code
    mine = [c for c in avail if code[c]]
    if not mine:
        return None
    attacked = [lid for lid in game.lines[seat] if game.locs[lid].enemies]
    if daleks < 0 and _CRACK in [code[c] for c in mine]:
        daleks = [loc.attacker for loc in game.locs.values()].count(seat)
    best: Any = None
    for c in _uniq(t, mine):
        for score, move in _moves(game, t, seat, c, avail, slack, daleks, attacked):
            if score > top:
                best, top = move, score
    if best is None:
        return None
    if len(best) == 2:
        return t.takeover(*best)
    c, lid, to, index, cards = best
    return t.support(c, loc=lid, to=to, index=index, cards=cards)


def _moves(game: Any, t: FastTables, seat: int, c: int, avail: list[int], slack: int,
           daleks: int, attacked: list[int]) -> Iterator[tuple[float, tuple[Any, ...]]]:
    """Card ``c``'s scores and moves, a move as ``(card, loc, to, index, cards)`` of a
    ``PlaySupport`` or ``(card, loc)`` of a ``TakeOver``, in the order of ``legal_actions()``
    (of several moves that score alike only the first)."""
    k, locs, vps = t.code[c], game.locs, t.vp
    if k == _SONIC:  # 1.5 where some Enemy is face down, else 0.5
        for lid in attacked:
            up = locs[lid].up
            yield (1.5 if any(e not in up for e in locs[lid].enemies) else 0.5,
                   (c, lid, None, None, ()))
    elif k == _JAMMY:
        for lid in attacked:
            yield 6 + vps[lid], (c, lid, None, None, ())
    elif k == _WIDENER:
        yield 0.5, (c, None, None, None, ())
    elif k == _TARDIS:
        yield 1 + sum(1 for lid in game.lines[seat] if locs[lid].tardis), (c, None, None, None, ())
    elif k == _CRACK:
        yield 1 + daleks, (c, None, None, None, ())
    elif k == _IRONSIDES:
        if game.reserve_used(seat) - (c in game.reserves[seat]) < game.capacity(seat):
            yield 0.5, (c, None, None, None, ())
    elif k == _CLEVER:  # every TARDIS counter of the others' it can send back (3 at most)
        theirs = sorted([lid for lid, loc in locs.items() if loc.tardis and loc.owner != seat])
        yield 1 + len(theirs[:3]), (c, None, None, None, tuple(theirs[:3]))
    elif k == _JACK:  # the first Enemy
        for lid in attacked:
            yield (7 + vps[lid] if len(locs[lid].enemies) == 1 else 2), (c, lid, None, 0, ())
    elif k == _ARCH:
        for lid in attacked:
            to = _arch_target(game, seat, lid)
            if to is not None:
                yield 6 + vps[lid], (c, lid, to, None, ())
    elif k == _WOLF:  # a face-up attack with a Dalek
        for lid in attacked:
            loc = locs[lid]
            if all(e in loc.up for e in loc.enemies) and any(t.dalek[e] for e in loc.enemies):
                yield 6 + vps[lid], (c, lid, None, None, ())
    elif k == _K9:  # the first Defender goes with it
        defs = _uniq(t, [d for d in avail if t.defender[d]]) if slack >= 2 else []
        for lid in attacked if defs else ():
            yield 5 + vps[lid], (c, lid, None, None, (defs[0],))
    elif k == _TAKEOVER and daleks < t.counters:  # (an Enemy: the counters were counted)
        for lid in _takeovers(game, t, seat, c):
            yield 6 + vps[lid], (c, lid)


def _arch_target(game: Any, seat: int, lid: int) -> int | None:
    """The first Location Chameleon Arch may send the attack on ``lid`` to."""
    locs, players = game.locs, game.players
    attacker = locs[lid].attacker
    for i in range(1, players):
        s = (seat + i) % players
        if s != attacker:
            for target in game.lines[s]:
                if not locs[target].enemies:
                    return target  # type: ignore[no-any-return]
    return None


def _takeovers(game: Any, t: FastTables, seat: int, card: int) -> list[int]:
    """``DoctorWhoGame._takeover_targets`` with a Dalek counter free."""
    locs, players, needs, name = game.locs, game.players, t.takes[card], t.name
    out = []
    for i in range(1, players):
        for lid in game.lines[(seat + i) % players]:
            loc = locs[lid]
            if (loc.attacker not in (None, seat) and loc.enemies
                    and all(e in loc.up for e in loc.enemies)
                    and any(name[e] in needs for e in loc.enemies)):
                out.append(lid)
    return out


_UNKNOWN: Any = object()
