"""Play one seat of the hidden-hand foiling round against the equilibrium (lessons 12 and 12x).

:class:`HiddenHandsTable` deals a round of :class:`luckylab.analysis.hidden_foil.HiddenFoil`
(seeded), shows you only your own hand and what the players before you did, and lets you pass
or foil; the other foilers play a given profile (usually CFR's equilibrium). After each round
it reveals every hand, and keeps two scores: yours, and what the equilibrium would have scored
in your chair on the same deals against the same choices of the others.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from fractions import Fraction
from typing import Any

import ipywidgets as W

from ..analysis.hidden_foil import FOIL, PASS, HiddenFoil
from ..errors import OptionError
from .args import whole
from .base import LessonWidget

__all__ = ["HiddenHandsTable"]


class HiddenHandsTable(LessonWidget):
    """A seat at the hidden-hand foiling round, the others playing ``profile``.

    ``you`` is your seat, counted from 1 (Player 1 is asked first); ``seed`` fixes the deals
    and the others' coin flips. ``pass_button``, ``foil_button`` and ``next_button`` are the
    controls; ``rounds`` counts the rounds you decided, ``score`` sums your payoffs and
    ``equilibrium_score`` what the profile's own choice in your seat would have scored.

    >>> from luckylab.analysis.hidden_foil import HiddenFoil
    >>> game = HiddenFoil(attack=3, foilers=2, deck=(0, 1, 2, 3, 4))
    >>> always = {(s, (v,)): {"pass": 0, "foil": 1} for s in (0, 1) for v in (3, 4)}
    >>> table = HiddenHandsTable(game, always, you=2, seed=1)
    >>> table.hands, table.asked
    (((0,), (3,)), True)
    >>> table.pass_button.click()          # Player 2 holds 3 but passes: nobody left
    >>> table.rounds, table.score
    (1, Fraction(-1, 1))
    """

    def __init__(self, game: HiddenFoil, profile: Mapping[Hashable, Mapping[str, Any]],
                 you: int = 2, seed: int = 0) -> None:
        if not isinstance(game, HiddenFoil):
            raise OptionError(f"HiddenHandsTable: game is a HiddenFoil, not {game!r}")
        if not isinstance(profile, Mapping):
            raise OptionError("HiddenHandsTable: profile maps information sets (seat, hand) "
                              f"to {{'pass': p, 'foil': q}}, not {profile!r}")
        whole("you", you, 1, game.foilers, "HiddenHandsTable")
        whole("seed", seed, 0, None, "HiddenHandsTable")
        self.game = game
        self.profile = profile
        self.seat = you - 1
        self.rng = random.Random(seed)
        self._deals = game.deals()
        self.rounds = 0
        self.score: Any = Fraction(0)
        self.equilibrium_score: Any = Fraction(0)
        self.hands: tuple[tuple[int, ...], ...] = ()
        self.asked = False
        self.would_foil: list[bool] = []
        self.header = W.HTML()
        self.hand_view = W.HTML()
        self.result = W.HTML()
        self.score_view = W.HTML()
        self.pass_button = W.Button(description="pass", tooltip="discard nothing")
        self.foil_button = W.Button(description="foil",
                                    tooltip="discard the least Luck that reaches the attack")
        self.next_button = W.Button(description="next deal", tooltip="deal a new round")
        self.pass_button.on_click(lambda _: self.choose(PASS))
        self.foil_button.on_click(lambda _: self.choose(FOIL))
        self.next_button.on_click(lambda _: self.deal())
        super().__init__([self.header, self.hand_view,
                          W.HBox([self.pass_button, self.foil_button, self.next_button]),
                          self.result, self.score_view])
        toy = game  # a HiddenFoil round of analysis.hidden_foil, not an engine
        self.header.value = (f"<b>Attack {toy.attack}</b>; deck {list(toy.deck)}; "
                             f"{toy.foilers} foilers with {toy.hand_size} card(s) each; "
                             f"each Luck point you discard costs {float(toy.luck_cost):.3f}, "
                             "an attack that gets through costs everyone 1. "
                             f"You are Player {you}.")
        self.deal()

    def _foil_chance(self, seat: int, hand: tuple[int, ...]) -> Any:
        if self.game.payment(hand) is None:
            return 0
        return self.profile.get((seat, hand), {}).get(FOIL, 0)

    def deal(self) -> None:
        """Deal a new round and play the seats before yours."""
        pick = self.rng.random()
        total: Any = 0
        hands = self._deals[-1][0]
        for candidate, chance in self._deals:
            total += chance
            if pick < total:
                hands = candidate
                break
        self.hands = hands
        self.would_foil = [self.rng.random() < self._foil_chance(s, h)
                           for s, h in enumerate(hands)]
        before = next((s for s in range(self.seat) if self.would_foil[s]), None)
        self.asked = before is None
        self.result.value = ""
        if not self.asked:
            self.hand_view.value = (f"Your hand: {list(hands[self.seat])}. Player {before + 1} "
                                    f"foiled before you were asked (hands: "
                                    f"{self._all_hands()}). Deal again.")
        else:
            earlier = "Everyone before you passed. " if self.seat else ""
            self.hand_view.value = (f"Your hand: <b>{list(hands[self.seat])}</b>. {earlier}"
                                    "Pass or foil?")
        self.pass_button.disabled = not self.asked
        self.foil_button.disabled = not self.asked or self.game.payment(
            hands[self.seat]) is None
        self._show_score()

    def _outcome(self, action: str) -> tuple[int | None, int]:
        """Who foils and what she pays if you play ``action`` (the others' coins fixed)."""
        if action == FOIL:
            return self.seat, self.game.payment(self.hands[self.seat]) or 0
        for s in range(self.seat + 1, self.game.foilers):
            if self.would_foil[s]:
                return s, self.game.payment(self.hands[s]) or 0
        return None, 0

    def choose(self, action: str) -> None:
        """Play ``action`` ("pass" or "foil") in your seat and show how the round ends."""
        if not self.asked:
            raise OptionError("HiddenHandsTable: you were not asked this round; deal again")
        if action not in (PASS, FOIL) or (
                action == FOIL and self.game.payment(self.hands[self.seat]) is None):
            raise OptionError(f"HiddenHandsTable: you can {PASS!r}"
                              + (f" or {FOIL!r}" if not self.foil_button.disabled else "")
                              + f", not {action!r}")
        mine = self.hands[self.seat]
        foiled_by, paid = self._outcome(action)
        payoff = self.game.outcome_payoffs(foiled_by, paid)[self.seat]
        foil = self._foil_chance(self.seat, mine)
        equilibrium = sum((p * self.game.outcome_payoffs(*self._outcome(a))[self.seat]
                           for a, p in ((FOIL, foil), (PASS, 1 - foil)) if p),
                          start=Fraction(0))
        self.rounds += 1
        self.score += payoff
        self.equilibrium_score += equilibrium
        if foiled_by is None:
            end = "everyone passed: the attack gets through"
        else:
            end = f"Player {foiled_by + 1} foiled, paying {paid} Luck"
        self.result.value = (f"You {'foiled' if action == FOIL else 'passed'}; {end}. "
                             f"Hands: {self._all_hands()}. Your payoff: {float(payoff):+.3f}. "
                             f"The equilibrium passes with {list(mine)} in your seat "
                             f"{float(1 - foil):.0%} of the time.")
        self.pass_button.disabled = self.foil_button.disabled = True
        self.asked = False
        self._show_score()

    def _all_hands(self) -> str:
        return ", ".join(f"Player {s + 1} {list(h)}" for s, h in enumerate(self.hands))

    def _show_score(self) -> None:
        self.score_view.value = (f"{self.rounds} round(s) decided. Your total: "
                                 f"{float(self.score):+.3f}; the equilibrium in your seat: "
                                 f"{float(self.equilibrium_score):+.3f}")
