"""Doctor Who: The Card Game, as a state machine: face-down stacks, passing, a scoring race.

Rule IDs (``D-SET-1`` ...) and the numbered rulings refer to the Doctor Who rules file (the
users' copy is ``docs/rules/doctorwho.md``). Every decision is an action:

=======================  ====================================================================
``PlayLocation(card)``   play a Location beside yours and take its TP (``D-LOC-1``)
``Defend(loc, cards)``   Defenders on one of your Locations (``D-DEF-1``)
``Attack(loc, cards)``   Enemies at another player's Location, or added to your attack
                         (``D-ENE-1``, ``D-ENE-2``)
``TakeOver(card, loc)``  Davros / Cyberking takes over a face-up attack (``D-CARD-6``)
``PlaySupport(...)``     a Support card (``D-SUP-1``, ``D-CARD-*``)
``Reserve(cards)``       1 or 2 hand cards into the reserve (``D-RES-1``)
``Buy(n)``               n cards for 5 TP each (``D-TP-1``)
``Discard(cards)``       1 or 2 cards for 1 TP each (``D-TP-2``)
``Pass(cards)``          end the turn: pass 3 cards to the right (``D-TURN-3``)
``UseIronsides(pay)``    in a conflict, the defender pays 1 TP for +1 or not (``D-CARD-3``)
``UseValiant(play)``     a lost defence: play The Valiant or not (``D-CARD-4``)
``MatchDiscard(cards)``  the attacker's matching discard (``D-CON-3``, ruling 4)
=======================  ====================================================================

Cards are named by id (``luckylab.load_deck("doctor-who")``); a Location by its card id. A card
in your reserve can be used wherever a hand card can: taking it up is free (``D-RES-1``), so the
engine takes it up for you. This file is the rulebook; what a seat may know (``observation``,
``game.view(seat)``) is in :mod:`~luckylab.games.doctorwho.view`, and the bots read only that.

>>> from luckylab import new_game
>>> game = new_game("doctorwho", players=3, seed=1)
>>> game.current_player, [len(h) for h in game.hands], len(game.deck)
(0, [5, 5, 2], 116)
>>> obs = game.observation(0)
>>> len(obs["hand"]), obs["hands"]
(5, [5, 5, 2])

Rulings where the rules are silent (the numbered ones are the rules file's; each is tested in
``tests/test_doctorwho_rules.py``):

- Conflicts resolve in the order of ruling 1; the attacker's matching discard is a decision of
  the attacker when several different sets of cards reach the best total (ruling 4).
- Ironsides is offered in every conflict its owner defends with a TP to pay (``D-CARD-3``:
  +1 may win, make the attacker discard more, or change nothing). The Valiant is offered
  whenever the defender who holds it loses, except where it would leave a turn player under
  the hand floor (``D-TURN-2``).
- Reveal TP (River Song, Donna, Weeping Angels, The Empty Child) is paid once, when the card
  first turns face up, by a conflict or a Sonic Screwdriver (ruling 5).
- Bouncing Enemies off a TARDIS counter needs no free Dalek counter (the attack never stays).
- Chameleon Arch (ruling 9) may send an attack only to a Location with no Enemy cards.
- Davros / Cyberking join the attack they take over face up.
- When the TP supply is short, gains take what is left, in turn order from the card's player;
  a Location's TP come from the supply, then from the players in ``take_from`` (default: the
  richest first).
- Two players (``D-VAR-1``): Davros, Cyberking and Chameleon Arch are set aside; you pass 2 and
  draw 3; the player right of the first gets 3 cards; the hand floor is 2.

A subclass that changes a rule is played by its own rules everywhere, ``simulate``'s default
path included: :meth:`DoctorWhoGame.play_out` runs the fused turns of
:mod:`~luckylab.games.doctorwho.fast` (the default bots and these rules in one loop) only for
this class as written (``tests/test_house_rules_doctorwho.py``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ...cards import load_deck
from ...cards.doctorwho import DWCard
from ...errors import IllegalAction, OptionError
from ..base import Event, GameBase, GameResult, check_turn_cap, foreign_action
from ..fused import all_fused, fused_profiles, plays_as_written
from ..handlers import HandlerTable
from .actions import (
    ACTIONS,
    COUNTERS,
    TP_TOKENS,
    Action,
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
from .ids import DoctorWhoIds
from .tables import attack_groups, combos, dedupe, defence_picks, partners
from .view import DoctorWhoViews

__all__ = ["DoctorWhoGame", "match_options", "score"]

BELOW_END = 20
"""Cards under the End of the Game card (``D-SET-4``)."""
SONICS = ("Sonic Screwdriver", "Psychic Paper", "Vincent Van Gogh")
"""Support cards that turn an attack on you face up, +1 TP (``D-CARD-2``)."""
JACKS = ("Captain Jack", "Collecting on Debts")
"""Support cards that discard an Enemy attacking you (``D-CARD-2``)."""
WIDENERS = ("Wilf", "Ood")
"""Support cards that widen the reserve by one, face up in it (``D-CARD-3``)."""
TWO_PLAYER_OUT = ("Davros", "Cyberking", "Chameleon Arch")
"""Cards that need a third player, set aside with two (``D-VAR-1``)."""

_SUPPORT_FIELDS: dict[str, tuple[str, ...]] = {
    "Jammy Dodger": ("loc",), "Bad Wolf": ("loc",), "Chameleon Arch": ("loc", "to"),
    "K-9": ("loc", "cards"), "Mr Clever": ("cards",), "Regeneration": ("cards",),
    **{name: ("loc",) for name in SONICS}, **{name: ("loc", "index") for name in JACKS},
}
"""The PlaySupport fields a Support card uses (Sonics: ``loc``; Captain Jack and Collecting on
Debts: ``loc`` and ``index``; the rest none): every other field stays None (``cards`` empty)."""

Phase = Literal["turn", "endgame", "decide", "over"]


@dataclass
class Conflict:
    """A conflict waiting for a decision (``D-CON-*``, ruling 1)."""

    loc: int
    attacker: int
    defender: int
    defence: int
    attack: int
    stage: str
    pre: list[int]
    keep: list[int]
    options: list[tuple[int, ...]] = field(default_factory=list)


# -- rules without a game --------------------------------------------------------------------


def match_options(strengths: Mapping[int, int], cards: list[int], defence: int,
                  protected: frozenset[int] = frozenset()) -> list[tuple[int, ...]]:
    """``D-CON-3``: the sets of Enemy ``cards`` whose strength total is the largest not above
    ``defence`` (ruling 4: the attacker picks one). ``protected`` cards may not be discarded.

    >>> match_options({1: 3, 2: 2, 3: 2}, [1, 2, 3], 4)     # worked example 3
    [(2, 3)]
    >>> match_options({1: 4, 2: 3}, [1, 2], 5)
    [(1,)]
    """
    free = [c for c in cards if c not in protected]
    best, out = -1, []
    for k in range(len(free) + 1):
        for combo in itertools.combinations(free, k):
            total = sum(strengths[c] for c in combo)
            if total > defence:
                continue
            if total > best:
                best, out = total, [combo]
            elif total == best:
                out.append(combo)
    return out


def score(locs: Mapping[int, Loc], cards: tuple[DWCard, ...], players: int) -> list[int]:
    """``D-SCO-1``: VP of your Locations with no Enemy cards, and of Locations under your Dalek
    counter; a Location with Papal Mainframe against it scores for nobody."""
    points = [0] * players
    for lid, loc in locs.items():
        vp = cards[lid].vp
        if not loc.enemies:
            points[loc.owner] += vp
        elif loc.attacker is not None and not any(cards[e].name == "Papal Mainframe"
                                                  for e in loc.enemies):
            points[loc.attacker] += vp
    return points


class DoctorWhoGame(DoctorWhoViews, DoctorWhoIds, HandlerTable, GameBase):
    """One game of Doctor Who: The Card Game.

    Parameters
    ----------
    players
        3 or 4 (``D-SET-2``); 2 with ``two_player=True`` (``D-VAR-1``).
    seed
        Seeds the Starting Locations, the shuffles and the End Game reshuffles.
    two_player
        The published two-player variant.
    starting
        The Starting Location numbers (1-4) dealt to seats 0, 1, ... (default: shuffled).
    turn_cap
        Stop after this many turns as unfinished (a simulation guard).
    """

    game_name = "doctorwho"

    HANDLERS = {
        "turn": {PlayLocation: ("_check_location", "_do_location"),
                 Defend: ("_check_defend", "_do_defend"),
                 Attack: ("_check_attack", "_do_attack"),
                 TakeOver: ("_check_takeover", "_do_takeover"),
                 PlaySupport: ("_check_support", "_do_support"),
                 Reserve: ("_check_reserve", "_do_reserve"),
                 Buy: ("_check_buy", "_do_buy"),
                 Discard: ("_check_discard", "_do_discard"),
                 Pass: ("_check_pass", "_do_pass")},
        # D-END-3: one action a turn, no passing
        "endgame": {PlayLocation: ("_check_location", "_do_location"),
                    Defend: ("_check_defend", "_do_defend"),
                    Attack: ("_check_attack", "_do_attack"),
                    TakeOver: ("_check_takeover", "_do_takeover"),
                    PlaySupport: ("_check_support", "_do_support"),
                    Reserve: ("_check_reserve", "_do_reserve"),
                    Buy: ("_check_buy", "_do_buy"),
                    Discard: ("_check_discard", "_do_discard")},
        # a decision inside a conflict (ruling 1)
        "decide": {UseIronsides: ("_check_ironsides", "_do_ironsides"),
                   UseValiant: ("_check_valiant", "_do_valiant"),
                   MatchDiscard: ("_check_match", "_do_match")},
    }


    def __init__(self, players: int = 4, seed: int | None = None, *, two_player: bool = False,
                 starting: tuple[int, ...] | list[int] | None = None,
                 turn_cap: int = 3000) -> None:
        ok = (2,) if two_player else (3, 4)
        if not isinstance(players, int) or isinstance(players, bool) or players not in ok:
            hint = "2 with two_player=True" if two_player else "3 or 4 (2 with two_player=True)"
            raise OptionError(f"Doctor Who takes {hint} players, not {players!r}")
        check_turn_cap(turn_cap)  # bounded: a passive game must end
        self.cards: tuple[DWCard, ...] = load_deck("doctor-who")  # type: ignore[assignment]
        starts = [c.id for c in self.cards if c.kind == "starting"]
        by_number = {self.cards[c].number: c for c in starts}
        if starting is not None:
            if not (isinstance(starting, (tuple, list))
                    and all(type(n) is int for n in starting)):
                raise OptionError(f"starting must be a list of {players} whole numbers (the "
                                  f"Starting Location numbers {sorted(by_number)}), not "
                                  f"{starting!r}")
            starting = tuple(starting)
            if (len(starting) != players or len(set(starting)) != players
                    or not set(starting) <= set(by_number)):
                raise OptionError(f"starting must give {players} different Starting Location "
                                 f"numbers from {sorted(by_number)}, not {starting!r}")
        self.players = players
        self.seed = seed
        self.options: dict[str, Any] = {"two_player": two_player, "turn_cap": turn_cap}
        if starting is not None:
            self.options["starting"] = list(starting)
        self.two_player = two_player
        self.turn_cap = turn_cap
        self.pass_n = 2 if two_player else 3
        self.draw_n = 3 if two_player else 2
        self.end_card = next(c.id for c in self.cards if c.kind == "end")
        self.history: list[Action] = []
        self.events: list[Event] = []
        self._pending: list[Event] = []
        self.rng = random.Random(seed)

        # D-SET-2: deal the Starting Locations; the highest number goes first.
        if starting is None:
            order = list(starts)
            self.rng.shuffle(order)
            dealt = order[:players]
        else:
            dealt = [by_number[n] for n in starting]
        self.set_aside: list[int] = [self.end_card] + [c for c in starts if c not in dealt]
        self.locs: dict[int, Loc] = {}
        self.lines: list[list[int]] = [[] for _ in range(players)]
        for seat, lid in enumerate(dealt):
            self.locs[lid] = Loc(owner=seat)
            self.lines[seat].append(lid)
        self.first_player = max(range(players), key=lambda s: self.cards[dealt[s]].number)
        self.tp = [0] * players
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.reserves: list[list[int]] = [[] for _ in range(players)]
        self.reserve_up: list[list[int]] = [[] for _ in range(players)]
        self.passed: list[tuple[int, ...]] = [()] * players
        self.received: list[tuple[int, ...]] = [()] * players
        self.discard: list[int] = []

        # D-SET-3, D-SET-4 (D-VAR-1: the cards that need a third player are set aside)
        game_cards = [c.id for c in self.cards if c.kind in ("defender", "enemy", "location",
                                                             "support")]
        if two_player:
            out = [c for c in game_cards if self.cards[c].name in TWO_PLAYER_OUT]
            self.set_aside.extend(out)
            game_cards = [c for c in game_cards if c not in out]
        self.rng.shuffle(game_cards)
        short = (self.first_player - 1) % players
        for seat in range(players):
            n = 5 - self.pass_n if seat == short else 5
            self.hands[seat] = [game_cards.pop() for _ in range(n)]
        below, above = game_cards[:BELOW_END], game_cards[BELOW_END:]
        self.deck: list[int] = below + [self.end_card] + above  # the top is the end of the list
        self.set_aside.remove(self.end_card)

        self.phase: Phase = "turn"
        self.turn_player = self.first_player
        self.endgame = False
        self.end_revealed = False
        self._end_in_turn = False
        self.conflict: Conflict | None = None
        self._resume: Phase = "turn"
        self.finished = False
        self.end_reason = ""
        self.turns = 1
        self.conflicts = 0
        self.scores: list[int] = [0] * players
        self.winners: list[int] = []
        self._say("setup", f"Player {self.first_player + 1} goes first (Starting Location "
                           f"{self.cards[dealt[self.first_player]].name}).",
                  seat=self.first_player)
        self.events.extend(self._pending)
        self._pending = []

    # -- the state machine's face, and the rules' questions about the table --------------
    @property
    def current_player(self) -> int | None:
        """Who decides now (the defender or attacker in a conflict decision), None when over."""
        if self.phase == "over":
            return None
        if self.phase == "decide":
            c = self.conflict
            assert c is not None
            return c.attacker if c.stage == "match" else c.defender
        return self.turn_player

    _decider = current_player  # the seat HandlerTable's apply asks (the same question)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def supply(self) -> int:
        """TP tokens left in the supply."""
        return TP_TOKENS - sum(self.tp)

    def card(self, cid: int) -> DWCard:
        """The card with id ``cid``."""
        return self.cards[cid]

    def daleks_in_play(self, seat: int) -> int:
        """How many of ``seat``'s Dalek counters mark an attack."""
        return sum(1 for loc in self.locs.values() if loc.attacker == seat)

    def has_free_dalek(self, seat: int) -> bool:
        """Ruling 2: a new attack, or a takeover, needs one of ``seat``'s Dalek counters free
        (a bounce off a TARDIS counter needs none: the attack never stays)."""
        return self.daleks_in_play(seat) < COUNTERS

    def tardis_in_play(self, seat: int) -> int:
        """How many of ``seat``'s TARDIS counters are on Locations."""
        return sum(1 for lid in self.lines[seat] if self.locs[lid].tardis)

    def capacity(self, seat: int) -> int:
        """Reserve capacity: 2, +1 per Wilf or Ood (``D-RES-1``, ``D-CARD-3``)."""
        return 2 + sum(self.cards[c].name in WIDENERS for c in self.reserve_up[seat])

    def reserve_used(self, seat: int) -> int:
        """Reserve places taken: face-down cards and Ironsides (``D-CARD-3``)."""
        return len(self.reserves[seat]) + sum(self.cards[c].name == "Ironsides"
                                              for c in self.reserve_up[seat])

    def available(self, seat: int) -> list[int]:
        """Hand and face-down reserve: what ``seat`` can play (taking up is free)."""
        return self.hands[seat] + self.reserves[seat]

    def floor(self) -> int:
        """``D-TURN-2`` / ruling 3: cards that must stay in hand + reserve (none in the End
        Game)."""
        return 0 if self.endgame else self.pass_n

    def __repr__(self) -> str:
        return (f"<DoctorWhoGame players={self.players} seed={self.seed} phase={self.phase} "
                f"turn={self.turns} player={self.current_player}>")

    # -- legal actions -----------------------------------------------------------------------
    def legal_actions(self, *only: type) -> list[Action]:
        """Every action the current player may take now (Mr Clever: the choices that remove
        only other players' TARDIS counters, up to three; :meth:`apply` accepts any).

        ``only``: action classes; then just the legal actions of those classes, in the order
        the full list has them (a cheaper list for a bot that weighs a few kinds of action).

        >>> from luckylab import new_game
        >>> game = new_game("doctorwho", players=3, seed=1)
        >>> game.legal_actions(Buy, Pass)
        []
        >>> game.legal_actions(Reserve) == [a for a in game.legal_actions()
        ...                                 if isinstance(a, Reserve)]
        True
        """
        if self.phase == "over":
            return []
        if self.phase == "decide":
            return [a for a in self._decide_actions() if not only or type(a) in only]
        want = only or ACTIONS
        seat, avail, slack = self._turn_cards()
        out: list[Action] = []
        hand = self.hands[seat]
        if Pass in want and not self.endgame and len(hand) <= self.pass_n <= len(avail):
            for extra in itertools.combinations(sorted(self.reserves[seat]),
                                                self.pass_n - len(hand)):
                out.append(Pass(tuple(sorted(hand + list(extra)))))
        if slack >= 1:
            self._play_actions(seat, dedupe(avail, self.cards), slack, want, out)
            for k in (1, 2):
                if k <= slack and Discard in want:
                    out.extend(Discard(combo) for combo in combos(avail, k, self.cards))
        room = self.capacity(seat) - self.reserve_used(seat) if Reserve in want else 0
        for k in (1, 2):
            if k <= room:
                out.extend(Reserve(combo) for combo in combos(hand, k, self.cards))
        drawable = len(self.deck) + (len(self.discard) if self.endgame else 0)
        for n in range(1, min(self.tp[seat] // 5, drawable) + 1 if Buy in want else 1):
            out.append(Buy(n))
        return out

    def _play_actions(self, seat: int, uniq: list[int], slack: int, want: tuple[type, ...],
                      out: list[Action]) -> None:
        """Append the Location, Defend, Attack, Support and TakeOver actions in ``want``."""
        cards = self.cards
        if PlayLocation in want:
            out.extend(PlayLocation(c) for c in uniq if cards[c].kind == "location")
        if Defend in want:
            out += [Defend(lid, c) for lid, cs in self._defences(seat, uniq, slack) for c in cs]
        if Attack in want:
            out += [Attack(lid, c) for lid, cs in self._attacks(seat, slack) for c in cs]
        support, takeover = PlaySupport in want, TakeOver in want
        for c in uniq if support or takeover else ():
            if cards[c].kind == "support":
                if support:
                    out.extend(self._support_actions(seat, c, slack))
            elif takeover and cards[c].name in ("Davros", "Cyberking"):
                out.extend(TakeOver(c, lid) for lid in self._takeover_targets(seat, c))

    def legal_defences(self) -> list[tuple[int, list[tuple[int, ...]]]]:
        """The legal Defend actions grouped by Location: ``(loc, [cards, ...])`` pairs, in the
        order :meth:`legal_actions` lists them (for a bot that weighs a Location once).

        >>> from luckylab import new_game
        >>> game = new_game("doctorwho", players=4, seed=2)
        >>> grouped = [Defend(loc, c) for loc, picks in game.legal_defences() for c in picks]
        >>> grouped == game.legal_actions(Defend)
        True
        """
        seat, avail, slack = self._turn_cards()
        return self._defences(seat, dedupe(avail, self.cards), slack) if slack >= 1 else []

    def legal_attacks(self) -> list[tuple[int, list[tuple[int, ...]]]]:
        """The legal Attack actions grouped by Location: ``(loc, [cards, ...])`` pairs, in the
        order :meth:`legal_actions` lists them (a Location with no legal attack is left out).

        >>> from luckylab import new_game
        >>> game = new_game("doctorwho", players=4, seed=2)
        >>> grouped = [Attack(loc, c) for loc, picks in game.legal_attacks() for c in picks]
        >>> grouped == game.legal_actions(Attack)
        True
        """
        seat, _, slack = self._turn_cards()
        return self._attacks(seat, slack) if slack >= 1 else []

    def _turn_cards(self) -> tuple[int, list[int], int]:
        """The turn player, the cards they can play and how many of them may go (the floor,
        ``D-TURN-2``); in a conflict decision or at the end: none."""
        seat = self.turn_player
        if self.phase not in ("turn", "endgame"):
            return seat, [], 0
        avail = self.available(seat)
        return seat, avail, len(avail) - self.floor()

    def _defences(self, seat: int, uniq: list[int], slack: int
                  ) -> list[tuple[int, list[tuple[int, ...]]]]:
        cards = self.cards
        picks = defence_picks([c for c in uniq if cards[c].kind == "defender"], slack, cards)
        if not picks:
            return []
        out = []
        for lid in self.lines[seat]:
            there = {cards[d].type for d in self.locs[lid].defenders}
            mine = [combo for combo, types in picks if not types & there]
            if mine:
                out.append((lid, mine))
        return out

    def _attack_targets(self, seat: int) -> list[int]:
        out = []
        free = self.has_free_dalek(seat)
        for s in self._from_left(seat):
            for lid in self.lines[s]:
                loc = self.locs[lid]
                if loc.attacker == seat or (loc.attacker is None and (free or loc.tardis)):
                    out.append(lid)
        return out

    def _attacks(self, seat: int, slack: int) -> list[tuple[int, list[tuple[int, ...]]]]:
        enemies = [c for c in self.available(seat) if self.cards[c].kind == "enemy"]
        if not enemies:
            return []
        groups = attack_groups(enemies, min(len(enemies), slack), self.cards)
        every = [combo for combo, _ in groups]  # at a Location no Enemy card is at yet
        out = []
        for lid in self._attack_targets(seat):
            there = self._attack_cards(lid) if self.locs[lid].enemies else []
            if not there:
                mine = list(every)
            elif self._compatible(there):
                mine = [combo for combo, partners in groups if partners.issuperset(there)]
            else:
                continue
            if mine:
                out.append((lid, mine))
        return out

    def _from_left(self, seat: int) -> list[int]:
        """The other seats, from ``seat``'s left round to its right: lists of targets start
        there, so that no seat is everyone's first choice."""
        return [(seat + i) % self.players for i in range(1, self.players)]

    def _attack_cards(self, lid: int) -> list[int]:
        """The Enemy cards of an attack that count for combining (not a turned River Song)."""
        return [e for e in self.locs[lid].enemies if self.cards[e].kind == "enemy"]

    def _compatible(self, cards: list[int]) -> bool:
        ok = partners(self.cards)
        return all(b in ok[a] for a, b in itertools.combinations(cards, 2))

    def _takeover_targets(self, seat: int, card: int) -> list[int]:
        if not self.has_free_dalek(seat):
            return []
        needs = ("Dalek", "Dalek Flagship") if self.cards[card].name == "Davros" else (
            "Cybermen",)
        out = []
        for lid in [lid for s in self._from_left(seat) for lid in self.lines[s]]:
            loc = self.locs[lid]
            if (loc.attacker not in (None, seat) and loc.enemies
                    and all(e in loc.up for e in loc.enemies)
                    and any(self.cards[e].name in needs for e in loc.enemies)):
                out.append(lid)
        return out

    def _attacked(self, seat: int) -> list[int]:
        return [lid for lid in self.lines[seat] if self.locs[lid].enemies]

    def _support_actions(self, seat: int, c: int, slack: int) -> Iterator[PlaySupport]:
        name = self.cards[c].name
        if name in SONICS or name == "Jammy Dodger":
            for lid in self._attacked(seat):
                yield PlaySupport(c, loc=lid)
        elif name in WIDENERS or name in ("TARDIS", "Crack in Time"):
            yield PlaySupport(c)
        elif name == "Ironsides":
            if self.reserve_used(seat) - (c in self.reserves[seat]) < self.capacity(seat):
                yield PlaySupport(c)
        elif name == "Mr Clever":
            theirs = [lid for lid, loc in self.locs.items() if loc.tardis and loc.owner != seat]
            yield PlaySupport(c)
            for combo in itertools.combinations(sorted(theirs), min(3, len(theirs))):
                if combo:
                    yield PlaySupport(c, cards=combo)
        elif name in JACKS:
            for lid in self._attacked(seat):
                for i in range(len(self.locs[lid].enemies)):
                    yield PlaySupport(c, loc=lid, index=i)
        elif name == "Chameleon Arch":
            for lid in self._attacked(seat):
                for to in self._arch_targets(seat, lid):
                    yield PlaySupport(c, loc=lid, to=to)
        elif name == "Bad Wolf":
            for lid in self._attacked(seat):
                if self._bad_wolf_ok(lid):
                    yield PlaySupport(c, loc=lid)
        elif name == "K-9":
            if slack >= 2:
                defs = [d for d in dedupe(self.available(seat), self.cards)
                        if self.cards[d].kind == "defender"]
                for lid in self._attacked(seat):
                    for d in defs:
                        yield PlaySupport(c, loc=lid, cards=(d,))
        elif name == "Regeneration":
            others = [h for h in self.hands[seat] if h != c]
            room = self._drawable() - 1 + slack  # the floor, if the deck runs out
            for k in range(min(len(others), room) + 1):
                for combo in itertools.combinations(sorted(others), k):
                    yield PlaySupport(c, cards=combo)

    def _drawable(self) -> int:
        """Cards a draw can still take now (the End card is set aside on the way; in the End
        Game the discards are reshuffled)."""
        return (len(self.deck) - (not self.end_revealed)
                + (len(self.discard) if self.endgame else 0))

    def _arch_targets(self, seat: int, lid: int) -> list[int]:
        attacker = self.locs[lid].attacker
        return [t for s in self._from_left(seat) if s != attacker for t in self.lines[s]
                if not self.locs[t].enemies]

    def _bad_wolf_ok(self, lid: int) -> bool:
        loc = self.locs[lid]
        return (bool(loc.enemies) and all(e in loc.up for e in loc.enemies)
                and any(self.cards[e].kind == "enemy" and self.cards[e].type == "Dalek"
                        for e in loc.enemies))

    def _decide_actions(self) -> list[Action]:
        c = self.conflict
        assert c is not None
        if c.stage == "ironsides":
            return [UseIronsides(True), UseIronsides(False)]
        if c.stage == "valiant":
            return [UseValiant(True), UseValiant(False)]
        return [MatchDiscard(o) for o in c.options]

    # -- applying actions (HandlerTable: check, then do, by HANDLERS) ------------------------
    def _refusal(self, action: Any, phase: Any) -> IllegalAction:
        """The error for an action this phase does not take (another game's action, or one of
        Doctor Who's for another phase), naming what the phase takes."""
        names = ", ".join(t.__name__ for t in self._handlers[phase])
        if type(action) not in ACTIONS:
            return IllegalAction(f"{foreign_action(action, 'doctorwho')}; Doctor Who actions "
                                 f"now: {names}")
        return IllegalAction(self._not_now(action, phase, names))

    def _carry_out(self, do: Callable[[Any, Any, Any], None], seat: int,
                   action: Action) -> list[Event]:
        """Run ``do``, record the action; in the End Game a turn is one action (``D-END-3``),
        so a turn action that needs no decision ends the turn."""
        self._pending = []
        deciding = self.phase == "decide"
        do(self, seat, action)
        self.history.append(action)
        if not deciding and self.phase not in ("decide", "over") and type(action) is not Pass:
            self._after_action()
        events, self._pending = self._pending, []
        self.events.extend(events)
        return events

    def _name(self, cid: int) -> str:
        """A card as the messages name it."""
        return str(self.cards[cid])

    def _p(self, seat: int) -> str:
        """``"Player 2"``: a seat as people count (from 1)."""
        return f"Player {seat + 1}"

    # shared checks ----------------------------------------------------------------------------
    def _own(self, seat: int, cards: tuple[int, ...], what: str = "card") -> None:
        if not isinstance(cards, tuple) or not cards:
            raise IllegalAction(f"name at least one {what}, as a tuple of card ids")
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in cards):
            raise IllegalAction(f"cards are named by their ids (whole numbers), not {cards!r}")
        if len(set(cards)) != len(cards):
            raise IllegalAction(f"a card is named twice: {cards}")
        avail = set(self.available(seat))
        for c in cards:
            if c not in avail:
                raise IllegalAction(f"card {c!r} is not in Player {seat + 1}'s hand or reserve")

    def _kind(self, cards: tuple[int, ...], kind: str) -> None:
        for c in cards:
            if self.cards[c].kind != kind:
                raise IllegalAction(f"{self._name(c)} is a {self.cards[c].kind} card, not a "
                                    f"{kind}")

    def _spend(self, seat: int, n: int) -> None:
        """``D-TURN-2`` (ruling 3): hand + reserve may not fall below the floor."""
        left = len(self.available(seat)) - n
        if left < self.floor():
            raise IllegalAction(f"you can never have fewer than {self.pass_n} cards in hand "
                                f"(reserve included): this would leave {left}")

    def _take(self, seat: int, cid: int) -> None:
        """Take card ``cid`` out of ``seat``'s hand or reserve."""
        if cid in self.hands[seat]:
            self.hands[seat].remove(cid)
        else:
            self.reserves[seat].remove(cid)

    def _my_loc(self, seat: int, lid: Any, attacked: bool = False) -> Loc:
        if lid not in self.lines[seat]:
            raise IllegalAction(f"{lid!r} is not a Location of Player {seat + 1}; theirs: "
                                f"{self.lines[seat]}")
        loc = self.locs[lid]
        if attacked and not loc.enemies:
            raise IllegalAction(f"{self._name(lid)} is not under attack")
        return loc

    # TP -------------------------------------------------------------------------------------
    def _gain(self, seat: int, n: int) -> int:
        """``seat`` takes ``n`` TP from the supply, or what is left of it."""
        got = min(n, self.supply)
        self.tp[seat] += got
        return got

    # D-LOC-1 ---------------------------------------------------------------------------------
    def _check_location(self, seat: int, a: PlayLocation) -> None:
        self._own(seat, (a.card,))
        self._kind((a.card,), "location")
        self._spend(seat, 1)
        if len(set(a.take_from)) != len(a.take_from) or any(
                s not in range(self.players) or s == seat for s in a.take_from):
            raise IllegalAction(f"take_from lists other players' seats, each once, not "
                                f"{a.take_from!r}")

    def _do_location(self, seat: int, a: PlayLocation) -> None:
        self._take(seat, a.card)
        self.locs[a.card] = Loc(owner=seat)
        self.lines[seat].append(a.card)
        want = self.cards[a.card].tp
        got = self._gain(seat, want)
        order = list(a.take_from) or sorted(
            (s for s in range(self.players) if s != seat), key=lambda s: (-self.tp[s], s))
        for s in order:
            take = min(want - got, self.tp[s])
            self.tp[s] -= take
            self.tp[seat] += take
            got += take
        if not self._quiet:
            self._say("location", f"{self._p(seat)} plays Location {self._name(a.card)} and takes "
                                  f"{got} TP.", seat=seat, card=a.card, tp=got)

    # D-DEF-1 ---------------------------------------------------------------------------------
    def _check_defend(self, seat: int, a: Defend) -> None:
        loc = self._my_loc(seat, a.loc)
        self._own(seat, a.cards, "Defender")
        self._kind(a.cards, "defender")
        types = [self.cards[c].type for c in a.cards] + [self.cards[d].type
                                                         for d in loc.defenders]
        if len(types) != len(set(types)):
            raise IllegalAction("never two Defenders of one type on a Location (all Doctors "
                                "are one type)")
        self._spend(seat, len(a.cards))

    def _do_defend(self, seat: int, a: Defend) -> None:
        for c in a.cards:
            self._take(seat, c)
        loc = self.locs[a.loc]
        if loc.enemies:
            if not self._quiet:
                self._say("defend", f"{self._p(seat)} defends {self._name(a.loc)} against the "
                                    f"attack with {len(a.cards)} card(s).", seat=seat, loc=a.loc)
            self._conflict(a.loc, list(a.cards), [], pre=[])
        else:
            loc.defenders.extend(a.cards)
            if not self._quiet:
                self._say("defend", f"{self._p(seat)} plays {len(a.cards)} Defender(s) face down "
                                    f"on {self._name(a.loc)}.", seat=seat, loc=a.loc,
                          n=len(a.cards))

    # D-ENE-1, D-ENE-2 ------------------------------------------------------------------------
    def _check_attack(self, seat: int, a: Attack) -> None:
        if not isinstance(a.loc, int) or a.loc not in self.locs:
            raise IllegalAction(f"{a.loc!r} is not a Location in play")
        loc = self.locs[a.loc]
        if loc.owner == seat:
            raise IllegalAction("you cannot attack your own Location")
        if loc.attacker not in (None, seat):
            raise IllegalAction(f"{self._name(a.loc)} is already attacked by "
                                f"{self._p(loc.attacker)}; you cannot join their attack")
        self._own(seat, a.cards, "Enemy")
        self._kind(a.cards, "enemy")
        if not self._compatible(self._attack_cards(a.loc) + list(a.cards)):
            raise IllegalAction("Enemy cards of one attack are of one type, or say they combine")
        if loc.attacker is None and not loc.tardis and not self.has_free_dalek(seat):
            raise IllegalAction("all your Dalek counters are in play: no new attack (ruling 2)")
        self._spend(seat, len(a.cards))

    def _do_attack(self, seat: int, a: Attack) -> None:
        for c in a.cards:
            self._take(seat, c)
        loc = self.locs[a.loc]
        where = self._name(a.loc)
        if loc.tardis:  # D-ENE-2
            self.discard.extend(a.cards)
            loc.tardis = False
            if not self._quiet:
                self._say("bounce", f"{self._p(seat)} sends {len(a.cards)} Enemy card(s) at "
                                    f"{where}: they are discarded and {self._p(loc.owner)}'s "
                                    f"TARDIS counter goes back.", seat=seat, loc=a.loc,
                          cards=list(a.cards))
        elif loc.defenders:
            loc.attacker = seat
            if not self._quiet:
                self._say("attack", f"{self._p(seat)} attacks the defended {where} with "
                                    f"{len(a.cards)} card(s).", seat=seat, loc=a.loc)
            self._conflict(a.loc, [], list(a.cards), pre=list(loc.defenders))
        else:
            loc.attacker = seat
            loc.enemies.extend(a.cards)
            if not self._quiet:
                self._say("attack", f"{self._p(seat)} plays {len(a.cards)} Enemy card(s) face down "
                                    f"at {where}.", seat=seat, loc=a.loc, n=len(a.cards))

    # Davros, Cyberking (D-CARD-6) -------------------------------------------------------------
    def _check_takeover(self, seat: int, a: TakeOver) -> None:
        self._own(seat, (a.card,))
        if self.cards[a.card].name not in ("Davros", "Cyberking"):
            raise IllegalAction("only Davros or the Cyberking take over an attack")
        if a.loc not in self._takeover_targets(seat, a.card):
            raise IllegalAction(f"{self._name(a.card)} takes over a face-up attack of another "
                                f"player, not on your Locations, with a matching Enemy, while "
                                f"you have a free Dalek counter; possible: "
                                f"{self._takeover_targets(seat, a.card)}")
        self._spend(seat, 1)

    def _do_takeover(self, seat: int, a: TakeOver) -> None:
        self._take(seat, a.card)
        loc = self.locs[a.loc]
        old = loc.attacker
        loc.attacker = seat
        loc.enemies.append(a.card)
        loc.up.add(a.card)
        if not self._quiet:
            self._say("takeover", f"{self._p(seat)} plays {self._name(a.card)} and takes over "
                                  f"{self._p(old)}'s attack on {self._name(a.loc)}.", seat=seat,
                      loc=a.loc, card=a.card, old=old)

    # D-RES-1, D-TP-1, D-TP-2 ------------------------------------------------------------------
    def _check_reserve(self, seat: int, a: Reserve) -> None:
        if not isinstance(a.cards, tuple) or not 1 <= len(a.cards) <= 2:
            raise IllegalAction("put 1 or 2 cards into the reserve")
        for c in a.cards:
            if c not in self.hands[seat]:
                raise IllegalAction(f"card {c!r} is not in Player {seat + 1}'s hand")
        if len(set(a.cards)) != len(a.cards):
            raise IllegalAction("a card is named twice")
        room = self.capacity(seat) - self.reserve_used(seat)
        if len(a.cards) > room:
            raise IllegalAction(f"the reserve has room for {room} more card(s)")

    def _do_reserve(self, seat: int, a: Reserve) -> None:
        for c in a.cards:
            self.hands[seat].remove(c)
            self.reserves[seat].append(c)
        if not self._quiet:
            self._say("reserve", f"{self._p(seat)} puts {len(a.cards)} card(s) into reserve.",
                      seat=seat, n=len(a.cards))

    def _check_buy(self, seat: int, a: Buy) -> None:
        if not isinstance(a.n, int) or isinstance(a.n, bool) or a.n < 1:
            raise IllegalAction(f"buy a whole number of cards >= 1, not {a.n!r}")
        if 5 * a.n > self.tp[seat]:
            raise IllegalAction(f"{a.n} card(s) cost {5 * a.n} TP; Player {seat + 1} has "
                                f"{self.tp[seat]}")
        drawable = len(self.deck) + (len(self.discard) if self.endgame else 0)
        if a.n > drawable:
            raise IllegalAction(f"only {drawable} card(s) left to draw")

    def _do_buy(self, seat: int, a: Buy) -> None:
        self.tp[seat] -= 5 * a.n
        if not self._quiet:
            self._say("buy", f"{self._p(seat)} buys {a.n} card(s) for {5 * a.n} TP.", seat=seat,
                      n=a.n)
        self._draw(seat, a.n)

    def _check_discard(self, seat: int, a: Discard) -> None:
        if not isinstance(a.cards, tuple) or not 1 <= len(a.cards) <= 2:
            raise IllegalAction("discard 1 or 2 cards")
        self._own(seat, a.cards)
        self._spend(seat, len(a.cards))

    def _do_discard(self, seat: int, a: Discard) -> None:
        for c in a.cards:
            self._take(seat, c)
        self.discard.extend(a.cards)
        got = self._gain(seat, len(a.cards))
        if not self._quiet:
            self._say("discard", f"{self._p(seat)} discards {', '.join(map(self._name, a.cards))} "
                                 f"for {got} TP.", seat=seat, cards=list(a.cards), tp=got)

    # Support (D-SUP-1, D-CARD-*) -------------------------------------------------------------
    def _check_support(self, seat: int, a: PlaySupport) -> None:
        self._own(seat, (a.card,))
        self._kind((a.card,), "support")
        name = self.cards[a.card].name
        if name == "The Valiant":
            raise IllegalAction("The Valiant is played only when you lose a defence")
        uses = _SUPPORT_FIELDS.get(name, ())
        for f, empty in (("loc", None), ("to", None), ("index", None), ("cards", ())):
            if f not in uses and getattr(a, f) != empty:
                raise IllegalAction(f"{name} does not use {f}: leave it {empty!r}, not "
                                    f"{getattr(a, f)!r}")
        if name == "Mr Clever":
            locs = a.cards
            if (len(locs) > 3 or len(set(locs)) != len(locs)
                    or any(lid not in self.locs or not self.locs[lid].tardis for lid in locs)):
                raise IllegalAction("Mr Clever removes up to 3 TARDIS counters from Locations "
                                    "that have one")
        elif name == "Regeneration":
            if len(set(a.cards)) != len(a.cards) or any(
                    c not in self.hands[seat] or c == a.card for c in a.cards):
                raise IllegalAction("Regeneration discards cards from your hand")
            # it draws one more than it discards: short only if the deck runs out
            self._spend(seat, max(1, len(a.cards) + 1 - self._drawable()))
        elif name == "K-9":
            if a.loc in self.lines[seat] and self.locs[a.loc].enemies and len(a.cards) == 1:
                self._own(seat, a.cards)
                self._kind(a.cards, "defender")
            else:
                raise IllegalAction("K-9 defeats an attack on your Location and needs one "
                                    "Defender card from your hand or reserve")
        elif a not in (legal := list(self._support_actions(seat, a.card, 99))):
            raise IllegalAction(f"{name} cannot be played that way now", legal)
        cost = 2 if name == "K-9" else 1
        self._spend(seat, cost)

    def _do_support(self, seat: int, a: PlaySupport) -> None:
        name = self.cards[a.card].name
        self._take(seat, a.card)
        p = self._p(seat)
        if name in WIDENERS or name == "Ironsides":
            self.reserve_up[seat].append(a.card)
            if not self._quiet:
                self._say("support", f"{p} places {name} face up in the reserve.", seat=seat,
                          card=a.card)
            return
        self.discard.append(a.card)
        if name in SONICS:
            loc = self.locs[a.loc]
            turning = [e for e in loc.enemies if e not in loc.up]
            loc.up.update(loc.enemies)
            assert loc.attacker is not None
            self._reveal_tp(loc.attacker, seat, turning)
            got = self._gain(seat, 1)
            if not self._quiet:
                self._say("support", f"{p} plays {name}: the attack on {self._name(a.loc)} turns "
                                     f"face up ({', '.join(map(self._name, loc.enemies))}); "
                                     f"+{got} TP.", seat=seat, card=a.card, loc=a.loc,
                          revealed=list(loc.enemies))
        elif name == "Mr Clever":
            for lid in a.cards:
                self.locs[lid].tardis = False
            got = self._gain(seat, 2)
            if not self._quiet:
                self._say("support", f"{p} plays Mr Clever: {len(a.cards)} TARDIS counter(s) go "
                                     f"back; +{got} TP.", seat=seat, card=a.card,
                          locs=list(a.cards))
        elif name in JACKS:
            loc = self.locs[a.loc]
            gone = loc.enemies.pop(a.index)
            loc.up.discard(gone)
            self.discard.append(gone)
            text = f"{p} plays {name}: {self._name(gone)} attacking {self._name(a.loc)} is " \
                   f"discarded"
            if not loc.enemies:
                self._attack_gone(a.loc, tardis=True)
                text += "; the attack is over"
            if not self._quiet:
                self._say("support", text + ".", seat=seat, card=a.card, loc=a.loc, gone=gone)
        elif name in ("TARDIS", "Crack in Time"):
            count = self.tardis_in_play if name == "TARDIS" else self.daleks_in_play
            gains = []
            for s in [(seat + i) % self.players for i in range(self.players)]:
                gains.append(self._gain(s, count(s) + (2 if s == seat else 0)))
            if not self._quiet:
                self._say("support", f"{p} plays {name}: TP taken {gains} (from {p} leftwards).",
                          seat=seat, card=a.card)
        elif name == "Chameleon Arch":
            self._arch(seat, a)
        elif name in ("Bad Wolf", "Jammy Dodger", "K-9"):
            if name == "K-9":
                self._take(seat, a.cards[0])
                self.discard.append(a.cards[0])
            loc = self.locs[a.loc]
            self.discard.extend(loc.enemies)
            loc.enemies.clear()
            loc.up.clear()
            self._attack_gone(a.loc, tardis=True)
            if not self._quiet:
                self._say("support", f"{p} plays {name}: the attack on {self._name(a.loc)} is "
                                     f"defeated.", seat=seat, card=a.card, loc=a.loc)
        elif name == "Regeneration":
            for c in a.cards:
                self.hands[seat].remove(c)
            self.discard.extend(a.cards)
            if not self._quiet:
                self._say("support", f"{p} plays Regeneration: discards {len(a.cards)} and draws "
                                     f"{len(a.cards) + 1}.", seat=seat, card=a.card)
            self._draw(seat, len(a.cards) + 1)

    def _attack_gone(self, lid: int, tardis: bool) -> None:
        """The attack at ``lid`` is over: its Dalek counter goes back; the owner places a
        TARDIS counter if ``tardis`` and one is left (ruling 2)."""
        loc = self.locs[lid]
        loc.attacker = None
        loc.up.clear()
        if tardis and not loc.tardis and self.tardis_in_play(loc.owner) < COUNTERS:
            loc.tardis = True

    def _arch(self, seat: int, a: PlaySupport) -> None:
        src, dst = self.locs[a.loc], self.locs[a.to]
        attacker = src.attacker
        assert attacker is not None
        cards, up = list(src.enemies), set(src.up)
        src.enemies.clear()
        src.up.clear()
        src.attacker = None
        if not self._quiet:
            self._say("support", f"{self._p(seat)} plays Chameleon Arch: the attack on "
                                 f"{self._name(a.loc)} moves to {self._name(a.to)}.", seat=seat,
                      card=a.card, loc=a.loc, to=a.to)
        if dst.tardis:  # ruling 9: as if its owner played there
            self.discard.extend(cards)
            dst.tardis = False
            if not self._quiet:
                self._say("bounce", "It meets a TARDIS counter: the Enemy cards are discarded.",
                          loc=a.to)
        elif dst.defenders:
            dst.attacker = attacker
            dst.enemies.extend(cards)
            dst.up.update(up)
            self._conflict(a.to, [], [], pre=list(dst.defenders))
        else:
            dst.attacker = attacker
            dst.enemies.extend(cards)
            dst.up.update(up)

    # Conflict (D-CON-*, ruling 1) ------------------------------------------------------------
    def _conflict(self, lid: int, new_def: list[int], new_en: list[int], pre: list[int]) -> None:
        self.conflicts += 1
        loc = self.locs[lid]
        attacker, defender = loc.attacker, loc.owner
        assert attacker is not None
        cards = self.cards
        defenders = loc.defenders + new_def
        loc.defenders = []
        turning = [e for e in loc.enemies if e not in loc.up] + new_en
        enemies = loc.enemies + new_en
        loc.enemies = enemies
        loc.up = set(enemies)
        # 1. reveal, 2. TP (D-CON-1, D-CARD-1, ruling 5)
        if not self._quiet:
            self._say("reveal", f"Conflict at {self._name(lid)}: {self._p(defender)} defends with "
                                f"{', '.join(map(self._name, defenders))}; {self._p(attacker)} "
                                f"attacks with {', '.join(map(self._name, enemies))}.", loc=lid,
                      defenders=list(defenders), enemies=list(enemies))
        for d in defenders:
            if cards[d].name in ("River Song", "Donna"):
                self._gain(defender, 1)
        self._reveal_tp(attacker, defender, turning)
        # 3. Silurians vs Amy Pond (D-CARD-6)
        if (any(cards[e].name == "Silurians" for e in enemies)
                and any(cards[d].type == "Amy Pond" for d in defenders)):
            self.discard.extend(defenders + enemies)
            loc.enemies = []
            self._attack_gone(lid, tardis=True)
            if not self._quiet:
                self._say("conflict", "Amy Pond meets the Silurians: every card is discarded and "
                                      f"{self._p(defender)} places a TARDIS counter.", loc=lid,
                          winner="defender")
            return
        # 4. The Impossible Astronaut, 5. Madame Kovarian (D-CARD-6, ruling 6)
        kovarian = any(cards[e].name == "Madame Kovarian" for e in enemies)
        zero: list[int] = []
        for astro in [e for e in enemies if cards[e].name == "The Impossible Astronaut"]:
            river = next((d for d in defenders if cards[d].type == "River Song"), None)
            doctor = next((d for d in defenders if cards[d].type == "Doctor"), None)
            if river is not None:
                enemies.remove(astro)
                loc.up.discard(astro)
                self.discard.append(astro)
                if not kovarian:
                    defenders.remove(river)
                    self.discard.append(river)
                if not self._quiet:
                    self._say("astronaut", "The Impossible Astronaut meets River Song.", loc=lid)
            elif doctor is not None:
                defenders.remove(doctor)
                self.discard.append(doctor)
                if not self._quiet:
                    self._say("astronaut", "The Impossible Astronaut discards the Doctor.", loc=lid)
            else:
                zero.append(astro)
        if kovarian:
            for river in [d for d in defenders if cards[d].type == "River Song"]:
                defenders.remove(river)
                enemies.append(river)
                loc.up.add(river)
                if not self._quiet:
                    self._say("kovarian", "River Song switches sides: she joins the attack.",
                              loc=lid)
        loc.defenders = defenders
        defence = sum(cards[d].strength for d in defenders)
        attack = sum(cards[e].strength for e in enemies if e not in zero)
        self.conflict = Conflict(loc=lid, attacker=attacker, defender=defender, defence=defence,
                                 attack=attack, stage="ironsides", pre=list(pre), keep=zero)
        if self.phase != "decide":
            self._resume = self.phase
        # 6. Ironsides (D-CARD-3): offered in every conflict its owner defends with a TP to
        # pay (+1 may turn a loss into a win, make the attacker discard more, or change nothing)
        if self.tp[defender] >= 1 and any(cards[c].name == "Ironsides"
                                          for c in self.reserve_up[defender]):
            self.phase = "decide"
            return
        self._compare()

    def _reveal_tp(self, attacker: int, defender: int, turning: list[int]) -> None:
        """Ruling 5: the TP of Enemy cards turning face up now (``D-CON-1``), paid once,
        whatever turns them (a conflict or a Sonic Screwdriver, ``D-CARD-2``)."""
        for e in turning:
            name = self.cards[e].name
            if name == "Weeping Angels":
                got = self._gain(attacker, 1)
                self._say("reveal", f"The Weeping Angels turn face up: {self._p(attacker)} "
                                    f"gains {got} TP.", seat=attacker, card=e, tp=got)
            elif name == "The Empty Child":
                got = 1 if self.tp[defender] > 0 else 0
                self.tp[defender] -= got
                self.tp[attacker] += got
                self._say("reveal", f"The Empty Child turns face up: {self._p(attacker)} takes "
                                    f"{got} TP from {self._p(defender)}.", seat=attacker,
                          card=e, tp=got)

    def _compare(self) -> None:
        c = self.conflict
        assert c is not None
        loc = self.locs[c.loc]
        if c.defence >= c.attack:  # D-CON-2
            self.discard.extend(loc.defenders + loc.enemies)
            loc.defenders, loc.enemies = [], []
            self._attack_gone(c.loc, tardis=True)
            if not self._quiet:
                self._say("conflict", f"Defence {c.defence} against attack {c.attack}: "
                                      f"{self._p(c.defender)} wins and places a TARDIS counter.",
                          loc=c.loc, winner="defender", defence=c.defence, attack=c.attack)
            self._conflict_done()
            return
        if not self._quiet:
            self._say("conflict", f"Defence {c.defence} against attack {c.attack}: "
                                  f"{self._p(c.attacker)} wins.", loc=c.loc, winner="attacker",
                      defence=c.defence, attack=c.attack)
        # 8. The Valiant (D-CARD-4), if playing it keeps the hand floor (D-TURN-2)
        if self._valiant_ok(c):
            c.stage = "valiant"
            self.phase = "decide"
            return
        self._lost(valiant=False)

    def _valiant_ok(self, c: Conflict) -> bool:
        """May the defender play The Valiant now? From hand or reserve; and in the defender's
        own turn only if the cards it brings back keep the hand floor (``D-TURN-2``, ruling
        3): played by a turn player down to the floor whose Defenders are gone (an Astronaut,
        Kovarian) it would leave fewer cards than must be passed, and no action could end the
        turn. (Off turn a hand is refilled to 5 before its owner's next turn.)"""
        avail = self.available(c.defender)
        return (any(self.cards[x].name == "The Valiant" for x in avail)
                and (c.defender != self.turn_player
                     or len(avail) - 1 + len(self.locs[c.loc].defenders) >= self.floor()))

    def _lost(self, valiant: bool) -> None:
        c = self.conflict
        assert c is not None
        loc = self.locs[c.loc]
        # 9. Rory (D-CON-3, D-CARD-1)
        for d in loc.defenders:
            back = valiant or (self.cards[d].type == "Rory" and d in c.pre)
            (self.hands[c.defender] if back else self.discard).append(d)
            if back and not self._quiet:
                self._say("to_hand", f"{self._name(d)} goes back to {self._p(c.defender)}'s "
                                     f"hand.", loc=c.loc, card=d)
        loc.defenders = []
        opts = match_options({e: self.cards[e].strength for e in loc.enemies}, loc.enemies,
                             c.defence, frozenset(c.keep))
        kinds = {tuple(sorted((self.cards[e].name, self.cards[e].strength) for e in o))
                 for o in opts}
        if len(kinds) > 1:
            c.options = [tuple(sorted(o)) for o in opts]
            c.stage = "match"
            self.phase = "decide"
            return
        self._match(tuple(sorted(opts[0])))

    def _match(self, cards: tuple[int, ...]) -> None:
        c = self.conflict
        assert c is not None
        loc = self.locs[c.loc]
        for e in cards:
            loc.enemies.remove(e)
            self.discard.append(e)
        loc.up = set(loc.enemies)
        if not self._quiet:
            self._say("match", f"{self._p(c.attacker)} discards "
                               f"{', '.join(map(self._name, cards)) or 'nothing'} to match; "
                               f"{', '.join(map(self._name, loc.enemies))} stay face up.",
                      loc=c.loc, cards=list(cards))
        self._conflict_done()

    def _conflict_done(self) -> None:
        self.conflict = None
        if self.phase == "decide":
            self.phase = self._resume
            self._after_action()

    def _check_ironsides(self, seat: int, a: UseIronsides) -> None:
        if self.conflict is None or self.conflict.stage != "ironsides":
            raise IllegalAction("Ironsides is used when a defence is decided")

    def _do_ironsides(self, seat: int, a: UseIronsides) -> None:
        c = self.conflict
        assert c is not None
        if a.pay:
            self.tp[seat] -= 1
            c.defence += 1
            self._say("ironsides", f"{self._p(seat)} pays 1 TP to Ironsides: defence "
                                   f"{c.defence}.", seat=seat)
        self._compare()

    def _check_valiant(self, seat: int, a: UseValiant) -> None:
        if self.conflict is None or self.conflict.stage != "valiant":
            raise IllegalAction("The Valiant is played when a defence is lost")
        if a.play and not self._valiant_ok(self.conflict):  # (offered only when it may)
            raise IllegalAction("The Valiant would leave fewer cards than the hand floor")

    def _do_valiant(self, seat: int, a: UseValiant) -> None:
        if a.play:
            v = next(x for x in self.available(seat) if self.cards[x].name == "The Valiant")
            self._take(seat, v)
            self.discard.append(v)
            self._say("valiant", f"{self._p(seat)} plays The Valiant.", seat=seat)
        self._lost(valiant=a.play)

    def _check_match(self, seat: int, a: MatchDiscard) -> None:
        c = self.conflict
        if c is None or c.stage != "match" or tuple(sorted(a.cards)) not in c.options:
            raise IllegalAction("discard one of the best matching sets",
                                [MatchDiscard(o) for o in (c.options if c else [])])

    def _do_match(self, seat: int, a: MatchDiscard) -> None:
        self._match(tuple(sorted(a.cards)))

    # Drawing, the End card (D-END-2, ruling 7) ------------------------------------------------
    def _draw(self, seat: int, n: int, in_turn: bool = True) -> None:
        for _ in range(n):
            if not self.deck and self.endgame and self.discard:  # D-END-3
                self.deck = self.discard
                self.discard = []
                self.rng.shuffle(self.deck)
                self._say("reshuffle", "The discard pile is shuffled into a new deck.")
            if not self.deck:
                return
            self.hands[seat].append(self.deck.pop())
            self._reveal_end(in_turn)

    def _reveal_end(self, in_turn: bool) -> None:
        if self.deck and self.deck[-1] == self.end_card:
            self.deck.pop()
            self.set_aside.append(self.end_card)
            self.end_revealed = True
            self._end_in_turn = in_turn
            self._say("end_card", "The End of the Game card is revealed: the End Game comes.")

    # Ending a turn (D-TURN-3) -----------------------------------------------------------------
    def _check_pass(self, seat: int, a: Pass) -> None:
        if not isinstance(a.cards, tuple) or len(a.cards) != self.pass_n:
            raise IllegalAction(f"pass exactly {self.pass_n} cards")
        self._own(seat, a.cards)
        missing = set(self.hands[seat]) - set(a.cards)
        if missing:
            raise IllegalAction(f"you end your turn with no cards in hand: play, reserve or "
                                f"pass {sorted(missing)} too (ruling 3)")

    def _do_pass(self, seat: int, a: Pass) -> None:
        for c in a.cards:
            self._take(seat, c)
        right = (seat - 1) % self.players
        self.hands[right].extend(a.cards)
        self.passed[seat] = tuple(a.cards)
        self.received[right] = tuple(a.cards)
        if not self._quiet:
            self._say("pass", f"{self._p(seat)} passes {self.pass_n} cards to {self._p(right)}.",
                      seat=seat, to=right)
        if self.end_revealed:  # revealed during the turn: draw 5
            self._draw(seat, 5, in_turn=False)
        else:
            for _ in range(self.draw_n):
                self._draw(seat, 1, in_turn=False)
                if self.end_revealed:  # revealed by this draw: fill up to 5
                    self._draw(seat, 5 - len(self.hands[seat]), in_turn=False)
                    break
        if not self._quiet:
            self._say("draw", f"{self._p(seat)} draws up to {len(self.hands[seat])} cards.",
                      seat=seat)
        if self.end_revealed:
            self.endgame = True
            if not self._quiet:
                self._say("endgame", "The End Game begins: one action a turn, no passing.")
        self._next_turn()

    # The turn order and the end (D-SET-1, D-END-1, D-END-3, D-SCO-1) --------------------------
    def _after_action(self) -> None:
        """``D-END-3``: in the End Game a turn is one action."""
        if self.endgame and self.phase != "over":
            self._next_turn()

    def _next_turn(self) -> None:
        """``D-SET-1``: the turn passes to the left (the next seat)."""
        self.turn_player = (self.turn_player + 1) % self.players
        self.turns += 1
        self.phase = "endgame" if self.endgame else "turn"
        self._begin_turn()

    def _begin_turn(self) -> None:
        """The game ends as a turn begins (``D-END-1``, ``D-END-3``, ruling 8), or stops at its
        turn cap unfinished."""
        seat = self.turn_player
        if self.daleks_in_play(seat) == COUNTERS or self.tardis_in_play(seat) == COUNTERS:
            self._finish(f"{self._p(seat)} has all five counters of a kind in play (D-END-1)")
        elif self.endgame and not self.available(seat) and (
                self.tp[seat] < 5 or not (self.deck or self.discard)):
            self._finish(f"{self._p(seat)} cannot act (D-END-3)")
        elif self.turns > self.turn_cap:
            self.phase = "over"
            self.end_reason = "turn cap"
            self.scores = score(self.locs, self.cards, self.players)
            self._say("turn_cap", f"The game stops unfinished at its turn cap ({self.turn_cap} "
                                  "turns).", turns=self.turn_cap)

    def _finish(self, reason: str) -> None:
        """``D-SCO-1``: score; the highest score wins, ties share the win."""
        self.phase = "over"
        self.finished = True
        self.end_reason = reason
        self.scores = score(self.locs, self.cards, self.players)
        best = max(self.scores)
        self.winners = [s for s in range(self.players) if self.scores[s] == best]
        table = ", ".join(f"Player {s + 1} {v}" for s, v in enumerate(self.scores))
        who = " and ".join(self._p(w) for w in self.winners)
        self._say("game_over", f"Game over: {reason}. Scores {table}; {who} "
                               f"{'win' if len(self.winners) > 1 else 'wins'}.",
                  scores=list(self.scores), winners=list(self.winners))

    def returns(self) -> tuple[float, ...]:
        """One number per seat at the end: the winners share 1.0 (``D-SCO-1``: ties share the
        win); all 0.0 before the end and in a game stopped by its turn cap."""
        out = [0.0] * self.players
        for w in self.winners:
            out[w] = 1.0 / len(self.winners)
        return tuple(out)

    @property
    def winner(self) -> int | None:
        """The winning seat, or None when the game is not over or the win is shared."""
        return self.winners[0] if len(self.winners) == 1 else None

    def result(self) -> GameResult:
        """The game's outcome as plain data (for :func:`luckylab.simulate`); a shared win has
        ``winner`` None and every winner in ``extra["winners"]`` (``D-SCO-1``)."""
        return GameResult(
            game="doctorwho", players=self.players, seed=self.seed, finished=self.finished,
            winner=self.winner, loser=None, turns=self.turns, attempts=self.conflicts,
            cards_left=len(self.deck),
            extra={"scores": list(self.scores), "winners": list(self.winners),
                   "end": self.end_reason, "tp": list(self.tp)},
        )

    # -- a whole game at once (for speed only: the same game) --------------------------------
    def play_out(self, choosers: Sequence[Callable[[Any], Any]]) -> None:
        """Play to the end through the trusted path, ``choosers[seat](self)`` deciding for
        each seat. In a quiet game of exactly these rules (this class, no method replaced:
        :func:`~luckylab.games.fused.plays_as_written`) where every seat is the default bot or
        a variant of it that they play, the fused turns of
        :mod:`luckylab.games.doctorwho.fast` play it (the same game, faster). A subclass that
        changes a rule plays through its own rules here, as fast as ``checked=True``."""
        if self._quiet and plays_as_written(self, DoctorWhoGame) and all_fused(
                choosers, self.game_name):
            from .fast import PLAYS, play_out

            profiles = fused_profiles(choosers, PLAYS)
            if profiles is not None:  # each seat's play, as the fused turns know it
                play_out(self, choosers, profiles)
                return
        super().play_out(choosers)
