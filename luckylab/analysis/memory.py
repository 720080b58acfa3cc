"""Panic Island! by the numbers: exact probabilities first, then simulation with error bars.

Exact (fractions, no sampling):

* :func:`p_pair_saves`: the chance that two cards turned at random from the unknown ones save
  something (``P-SAVE-1``), given what is still unknown (:func:`unknown_counts`).
* :func:`p_partner`: the chance that one random unknown card saves with (or is saved by) a card
  you already see.
* :func:`expected_turns_to_find`: the expected number of turns to find the raft and the paddle
  (``P-SAVE-2``), for a team with no memory and for a team with perfect recall, in the ordinary
  game and in the "paddle and raft" variant. The model: every turn reveals two cards, nothing
  else moves (no obstacles, no saves); :func:`turns_to_find_monte_carlo` is its sampling twin.

Simulated (seeded games played by :mod:`luckylab.agents.panic` bots):

* :func:`score_by_memory`: score distribution and win rate per memory model.
* :func:`gouga_sweep` and :func:`best_gouga_time`: the stopping curve, "when to wake Gouga?".

Every function returns plain data (numbers, fractions, lists of dicts). Nothing here draws.

>>> from fractions import Fraction
>>> p_pair_saves(unknown_counts())   # two random cards at the start of the game
Fraction(5, 46)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import Any

from ..agents.panic import AGENTS, DEFAULT_GOUGA_AT, ForgetfulAgent
from ..errors import OptionError
from ..games.panic import PanicGame, load_rules
from ..games.panic.rules import SAVER
from .stats import mean_ci, wilson_ci

__all__ = [
    "CardType",
    "best_gouga_time",
    "expected_turns_to_find",
    "gouga_sweep",
    "make_agent",
    "mean_ci",
    "p_pair_saves",
    "p_partner",
    "play",
    "score_by_memory",
    "turns_to_find_monte_carlo",
    "unknown_counts",
    "wilson_ci",
]

CardType = tuple[str, str | None]
"""What matters about a card for saving: ``(kind, colour)``, e.g. ``("dodo", "red")``.
Obstacles are ``("obstacle", name)``."""


def _type(card: Any) -> CardType:
    return ("obstacle", card.obstacle.name) if card.obstacle is not None else (card.kind,
                                                                             card.colour)


def unknown_counts(game: PanicGame | None = None,
                   known: Mapping[str, int] | None = None) -> Counter[CardType]:
    """The cards whose place the team does not know, by type.

    Public knowledge only: every card minus the volcano (its place is known), the saved and
    found cards, the cards face up or buried under a Landslide, and the cards in ``known``
    (place -> card id, a bot's memory). With no ``game``: the 24 hidden cards of a fresh island
    with the first trio.

    >>> counts = unknown_counts()
    >>> sum(counts.values()), counts[("dodo", "red")], counts[("obstacle", "Mirage")]
    (24, 3, 2)
    """
    if game is None:
        rules = load_rules()
        counts: Counter[CardType] = Counter(c for c in rules.cards if c[0] != "volcano")
        for name in rules.first_trio:
            counts[("obstacle", name)] += 2
        return counts
    known = dict(known or {})
    view = game.view(0)  # every seat sees the same table: Seat 1's view is the team's
    out_of_play = set(view.saved) | set(view.found) | {view.card_at(view.volcano).id}
    seen = [view.card_at(p) for p in (*view.face_up, *view.covered)]  # face up, or buried
    out_of_play |= {c.id for c in seen if c is not None} | set(view.covered.values())
    out_of_play |= set(known.values())
    return Counter(_type(c) for c in view.cards if c.id not in out_of_play)


def _saves(a: CardType, b: CardType, rainbow: bool) -> bool:
    """Whether ``a`` saves ``b`` (``P-SAVE-1``; crossed colours under a Rainbow, ``P-OBS-3``)."""
    if SAVER.get(a[0]) != b[0]:
        return False
    return (a[1] != b[1]) if rainbow else (a[1] == b[1])


def p_pair_saves(counts: Mapping[CardType, int], rainbow: bool = False) -> Fraction:
    """The probability that two cards drawn at random from ``counts`` save something.

    Two cards without replacement: each unordered pair of card types that save one another
    contributes ``n_a * n_b / C(N, 2)``.

    >>> p_pair_saves({("native", "red"): 1, ("dodo", "red"): 1})
    Fraction(1, 1)
    >>> p_pair_saves({("native", "red"): 1, ("egg", "red"): 1})   # natives never save eggs
    Fraction(0, 1)
    >>> p_pair_saves({("native", "red"): 1, ("dodo", "yellow"): 1}, rainbow=True)
    Fraction(1, 1)
    """
    total = sum(counts.values())
    if total < 2:
        return Fraction(0)
    types = [t for t, n in counts.items() if n > 0]
    good = 0
    for i, a in enumerate(types):
        for b in types[i + 1:]:
            if _saves(a, b, rainbow) or _saves(b, a, rainbow):
                good += counts[a] * counts[b]
    return Fraction(good, comb(total, 2))


def p_partner(card: CardType, counts: Mapping[CardType, int], rainbow: bool = False) -> Fraction:
    """The probability that one random card from ``counts`` saves with ``card`` (either way).

    >>> start = unknown_counts()
    >>> start[("native", "red")] -= 1          # a red native is face up
    >>> p_partner(("native", "red"), start)     # 3 red dodos among the other 23
    Fraction(3, 23)
    """
    total = sum(counts.values())
    if total == 0:
        return Fraction(0)
    good = sum(n for t, n in counts.items() if _saves(card, t, rainbow) or _saves(t, card, rainbow))
    return Fraction(good, total)


def expected_turns_to_find(places: int = 24, memory: str = "perfect",
                           paddle_and_raft: bool = False) -> Fraction:
    """Expected turns until both raft and paddle are found (``P-SAVE-2``), exactly.

    The model: ``places`` hidden cards, two revealed per turn, nothing else happens.

    * ``memory="none"``: each turn turns two random cards still on the island (a found card
      leaves it). A Markov chain on how many of the two are still missing.
    * ``memory="perfect"``: each turn turns two cards never seen before, so the order of
      reveals is a random permutation; the two are found by turn ``ceil(max position / 2)``.
    * ``paddle_and_raft=True``: both must come up in the same turn. With no memory that is a
      ``1 / C(places, 2)`` chance per turn; with perfect recall, one extra turn after both have
      been seen, unless they were seen together.

    >>> expected_turns_to_find(24, "perfect")
    Fraction(1183, 138)
    >>> expected_turns_to_find(24, "none", paddle_and_raft=True)
    Fraction(276, 1)
    """
    if places < 2:
        raise OptionError("the raft and the paddle need at least 2 places")
    if memory not in ("none", "perfect"):
        raise OptionError(f"memory is 'none' or 'perfect', not {memory!r}")
    pairs = comb(places, 2)
    if memory == "none":
        if paddle_and_raft:
            return Fraction(pairs)
        # E[r] with r of the two still missing among n = places - (2 - r) cards on the island.
        expected = {0: Fraction(0)}
        for missing in (1, 2):
            n = places - (2 - missing)
            draws = comb(n, 2)
            p = {k: Fraction(comb(missing, k) * comb(n - missing, 2 - k), draws)
                 for k in range(missing + 1)}
            rest = sum(p[k] * expected[missing - k] for k in range(1, missing + 1))
            expected[missing] = (1 + rest) / (1 - p[0])
        return expected[2]
    total = Fraction(0)
    together = 0
    for a in range(1, places + 1):
        for b in range(a + 1, places + 1):
            total += math.ceil(b / 2)
            together += (a + 1) // 2 == (b + 1) // 2
    expected = total / pairs
    if paddle_and_raft:
        expected += 1 - Fraction(together, pairs)
    return expected


def turns_to_find_monte_carlo(places: int = 24, memory: str = "perfect",
                              paddle_and_raft: bool = False, trials: int = 10_000,
                              seed: int = 0) -> float:
    """The sampling twin of :func:`expected_turns_to_find` (same model, seeded).

    >>> round(turns_to_find_monte_carlo(24, "perfect", trials=4000, seed=1), 1)
    8.5
    """
    rng = random.Random(seed)
    total = 0
    for _ in range(trials):
        if memory == "perfect":
            order = rng.sample(range(places), places)
            turn_of = {card: i // 2 + 1 for i, card in enumerate(order)}
            a, b = turn_of[0], turn_of[1]  # cards 0 and 1 are the raft and the paddle
            total += max(a, b) + (1 if paddle_and_raft and a != b else 0)
            continue
        island, turns = list(range(places)), 0
        missing = {0, 1}
        randrange = rng.randrange
        while missing:
            turns += 1
            n = len(island)
            i, j = randrange(n), randrange(n - 1)
            j += j >= i  # two different places, uniformly
            up = {island[i], island[j]}
            if paddle_and_raft:
                if up == {0, 1}:
                    missing.clear()
            else:
                for card in up & missing:
                    missing.discard(card)
                    island.remove(card)
        total += turns
    return total / trials


# -- simulation --------------------------------------------------------------------------------


def make_agent(memory: str, seed: int | None = None,
               gouga_at: float | None = DEFAULT_GOUGA_AT, forget: float = 0.2,
               wait_for_escape: bool = False) -> Any:
    """A bot by memory model: "none", "perfect", "forgetful" (with ``forget``) or "random"."""
    cls = AGENTS.get(memory)
    if cls is None:
        raise OptionError(f"memory is one of {', '.join(AGENTS)}, not {memory!r}")
    if memory == "random":
        return cls(seed=seed)
    extra = {"forget": forget} if cls is ForgetfulAgent else {}
    return cls(seed=seed, gouga_at=gouga_at, wait_for_escape=wait_for_escape, **extra)


def play(memory: str = "perfect", seed: int = 0, players: int = 4,
         gouga_at: float | None = DEFAULT_GOUGA_AT, forget: float = 0.2,
         wait_for_escape: bool = False, **options: Any) -> PanicGame:
    """Play one seeded game with one bot as the whole team (a shared memory); return the game.

    >>> game = play("perfect", seed=3, players=2, gouga_at=15)
    >>> game.is_over, game.score
    (True, 11)
    """
    game = PanicGame(players=players, seed=seed, **options)
    bot = make_agent(memory, seed=seed, gouga_at=gouga_at, forget=forget,
                     wait_for_escape=wait_for_escape)
    while not game.is_over:
        game.apply(bot.choose(game))
    return game


def _summary(games: list[PanicGame]) -> dict[str, Any]:
    views = [g.view() for g in games]
    scores = [v.score for v in views]
    wins = sum(v.won for v in views)
    m, lo, hi = mean_ci(scores)
    w, wlo, whi = wilson_ci(wins, len(games))
    won_scores = [v.score if v.won else 0 for v in views]
    c, clo, chi = mean_ci(won_scores)
    return {
        "games": len(games),
        "mean_score": m, "score_low": lo, "score_high": hi,
        "win_rate": w, "win_low": wlo, "win_high": whi,
        # A lost game scores nothing that counts: the "points if won" view (P-END-1).
        "mean_won_score": c, "won_score_low": clo, "won_score_high": chi,
        "volcano": sum(v.end == "volcano" for v in views),
        "distribution": [scores.count(s) for s in range(17)],
        # Game by game, in seed order, for paired comparisons on the same islands (paired_ci).
        "scores": scores, "wins": [int(v.won) for v in views], "won_scores": won_scores,
    }


def score_by_memory(memories: Iterable[str] = ("none", "forgetful", "perfect"),
                    games: int = 200, seed: int = 0, players: int = 4,
                    gouga_at: float | None = DEFAULT_GOUGA_AT, forget: float = 0.2,
                    wait_for_escape: bool = False, **options: Any) -> list[dict[str, Any]]:
    """Score and win rate per memory model, on the same seeded islands (common random numbers).

    Each row: ``memory``, ``games``, ``mean_score`` with ``score_low``/``score_high`` (95%),
    ``win_rate`` with ``win_low``/``win_high`` (Wilson 95%), ``mean_won_score`` (a lost game
    counted as 0) with ``won_score_low``/``won_score_high``, ``volcano`` (games lost to it),
    ``distribution`` (how many games scored 0, 1, ..., 16) and, island by island in seed order,
    ``scores``, ``wins`` (1 or 0) and ``won_scores``: two rows compare island by island with
    :func:`~luckylab.analysis.stats.paired_ci`.
    """
    rows = []
    for memory in memories:
        played = [play(memory, seed=seed + i, players=players, gouga_at=gouga_at, forget=forget,
                       wait_for_escape=wait_for_escape, **options) for i in range(games)]
        rows.append({"memory": memory, **_summary(played)})
    return rows


def gouga_sweep(gouga_ats: Iterable[float | None] = (0, 10, 20, 30, 40, 60, 80, 100, 120),
                memory: str = "perfect", games: int = 200, seed: int = 0, players: int = 4,
                forget: float = 0.2, wait_for_escape: bool = False,
                **options: Any) -> list[dict[str, Any]]:
    """The stopping curve: for each policy "wake Gouga with ``gouga_at`` seconds left", the
    score and win rate over the same seeded islands (rows as in :func:`score_by_memory`, with
    the per-island lists for paired comparisons). ``None`` means "never wake him"."""
    rows = []
    for k in gouga_ats:
        played = [play(memory, seed=seed + i, players=players, gouga_at=k, forget=forget,
                       wait_for_escape=wait_for_escape, **options) for i in range(games)]
        rows.append({"gouga_at": k, "memory": memory, **_summary(played)})
    return rows


def best_gouga_time(rows: Sequence[Mapping[str, Any]], key: str = "mean_score"
                    ) -> Mapping[str, Any]:
    """The row of :func:`gouga_sweep` with the highest ``key`` (ties: the later wake-up)."""
    if not rows:
        raise OptionError("no rows: run gouga_sweep first")
    return max(rows, key=lambda r: (r[key], -(r["gouga_at"] if r["gouga_at"] is not None
                                              else -1)))
