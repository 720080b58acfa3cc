"""A tournament's results: the resumable results file, and the tables read from it.

The results file is JSON lines: a header line (game, players, seed, options, the entrants with
their files' digests, the limits), then one line per finished game, appended as games finish
(in any order when games run in parallel; every line carries its game ``index``). A rerun with
the same header skips the games already there; a header that differs (another seed, a changed
bot file) is refused rather than mixed in. A last line cut off by an interruption is dropped.

A game's line: ``index``, ``block``, ``rotation``, ``seed`` (the deal), ``seats`` (entrant per
player position), ``returns`` and ``places`` (1 = first, equal for a tie; a bot that failed is
placed last) per position, ``winner`` (a position, or null), ``failures`` (position, bot,
kind, reason), ``turns``, ``finished``, and what the bots printed (``output``, truncated).

:class:`TournamentResult` reads the tables: :meth:`~TournamentResult.leaderboard` (wins with a
95 % interval by deal and an OpenSkill rating with its uncertainty),
:meth:`~TournamentResult.head_to_head`, :meth:`~TournamentResult.by_seat`,
:attr:`~TournamentResult.failures` and :meth:`~TournamentResult.to_text`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..analysis.stats import design_effect, wilson_by_deal, wilson_ci
from ..errors import TournamentError
from .bots import Entrant, Problem
from .ratings import Rating, rate

__all__ = ["Failure", "ResultsFile", "TournamentResult", "header_for"]

FORMAT = 1


def header_for(game: str, players: int, seed: int, options: Mapping[str, Any],
               entrants: Sequence[Entrant], limits: Mapping[str, Any]) -> dict[str, Any]:
    """The header line that pins what a results file holds (all but the number of games)."""
    return {"luckylab_tournament": FORMAT, "game": game, "players": players, "seed": seed,
            "options": dict(options), "entrants": [e.identity() for e in entrants],
            "limits": dict(limits)}


class ResultsFile:
    """A results file opened for a run: the games already in it, and ``append`` for more.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.jsonl"
    >>> f = ResultsFile(path, {"luckylab_tournament": 1, "seed": 1})
    >>> f.append({"index": 0, "seats": ["a"]}); f.close()
    >>> sorted(ResultsFile(path, {"luckylab_tournament": 1, "seed": 1}).done)
    [0]
    >>> try:
    ...     ResultsFile(path, {"luckylab_tournament": 1, "seed": 2})
    ... except TournamentError as exc:
    ...     print(str(exc).split(":")[0])
    results.jsonl holds another tournament (its seed differs)
    """

    def __init__(self, path: str | Path, header: Mapping[str, Any]) -> None:
        self.path = Path(path)
        self.done: dict[int, dict[str, Any]] = {}
        good_bytes = 0
        if self.path.exists() and self.path.stat().st_size:
            with open(self.path, "rb") as f:
                lines = f.read().split(b"\n")
            try:
                first = json.loads(lines[0])
            except ValueError:
                first = None
            if not isinstance(first, dict) or first.get("luckylab_tournament") is None:
                raise TournamentError(f"{self.path.name} is not a luckylab tournament results "
                                      "file; give a new file name")
            diff = [k for k in sorted(set(first) | set(header)) if first.get(k) != header.get(k)]
            if diff:
                what = {"entrants": "its bots or their files differ"}.get(
                    diff[0], f"its {diff[0]} differs")
                raise TournamentError(f"{self.path.name} holds another tournament ({what}): "
                                      "give a new results file, or the same arguments to "
                                      "continue it")
            good_bytes = len(lines[0]) + 1
            # every whole line ends in a newline: the piece after the last one (empty, or a
            # line cut off by an interruption) is dropped, and that game is played again
            for line in lines[1:-1]:
                if not line.strip():
                    good_bytes += len(line) + 1
                    continue
                try:
                    record = json.loads(line)
                    index = int(record["index"])
                except (ValueError, KeyError, TypeError):
                    break  # a damaged line: this and anything after it is redone
                self.done[index] = record
                good_bytes += len(line) + 1
            with open(self.path, "r+b") as f:
                if len(lines) == 1:  # the header, cut before its newline
                    f.seek(0, 2)
                    f.write(b"\n")
                else:
                    f.truncate(good_bytes)
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - kept open
            self._file.write(json.dumps(dict(header), separators=(",", ":")) + "\n")
            self._file.flush()

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one finished game (flushed at once, so an interruption loses no game)."""
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


@dataclass(frozen=True)
class Failure:
    """A bot that lost a game by failing: which bot, which game (index from 0), its seat
    (numbered from 1), the ``kind`` (raised, illegal, time, memory, output, state, crashed,
    forbidden, import) and the reason in words."""

    bot: str
    game: int
    seat: int
    kind: str
    reason: str


@dataclass
class TournamentResult:
    """What a tournament gave: the entrants, one record per game (see the module docstring),
    and the bot files left out (``problems``). ``network``: for student bots played in worker
    processes, whether those were cut off the network (``"cut"``) or not (``"open: why"``;
    see :mod:`luckylab.tournament.guard`); None otherwise, or when read from a file.

    >>> result = TournamentResult("kill", 2, 0, [Entrant("a", "kill"), Entrant("b", "kill")], [
    ...     {"index": 0, "seats": ["a", "b"], "places": [1, 2], "winner": 0, "failures": []},
    ...     {"index": 1, "seats": ["b", "a"], "places": [2, 1], "winner": 1, "failures": []}])
    >>> [(row["bot"], row["wins"], row["games"]) for row in result.leaderboard()]
    [('a', 2, 2), ('b', 0, 2)]
    """

    game: str
    players: int
    seed: int
    entrants: list[Entrant]
    records: list[dict[str, Any]]
    problems: list[Problem] = field(default_factory=list)
    path: Path | None = None
    network: str | None = None
    _ratings: dict[str, Rating] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.records = sorted(self.records, key=lambda r: r["index"])

    @classmethod
    def from_file(cls, path: str | Path) -> TournamentResult:
        """The result stored in a results file (a tournament played before, e.g. for a
        lesson), without the bot files: nothing is played again.

        >>> import tempfile, pathlib
        >>> from luckylab.tournament import run
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "kill.jsonl"
        >>> played = run([], game="kill", players=3, games=3, seed=2, results=path,
        ...              progress=False)
        >>> TournamentResult.from_file(path).leaderboard() == played.leaderboard()
        True
        """
        header, records = read_records(path)
        if not isinstance(header, dict) or header.get("luckylab_tournament") is None:
            raise TournamentError(f"{Path(path).name} is not a luckylab tournament results file")
        game = header["game"]
        entrants = [Entrant(name=e["name"], game=game, agent=e.get("agent"),
                            author=e.get("author"),
                            class_name=e.get("agent") or "", sha256=e.get("sha256", ""),
                            path=None if e.get("agent") else Path(f"{e['name']}.py"))
                    for e in header["entrants"]]
        return cls(game, header["players"], header["seed"], entrants, _unique(records),
                   path=Path(path))

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entrants]

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.records)

    def ratings(self) -> dict[str, Rating]:
        """Each bot's :class:`~luckylab.tournament.ratings.Rating` (computed once)."""
        if self._ratings is None:
            self._ratings = rate(self.records, self.names)
        return self._ratings

    @property
    def failures(self) -> list[Failure]:
        """Every game a bot lost by failing, in game order."""
        return [Failure(f["bot"], r["index"], f["position"] + 1, f["kind"], f["reason"])
                for r in self.records for f in r.get("failures", ())]

    def _tally(self) -> dict[str, dict[str, Any]]:
        tally: dict[str, dict[str, Any]] = {
            n: {"games": 0, "wins": 0, "failures": 0, "deals": {}} for n in self.names}
        for r in self.records:
            failed = {f["position"] for f in r.get("failures", ())}
            for k, name in enumerate(r["seats"]):
                t = tally[name]
                won = int(r.get("winner") == k and k not in failed)
                t["games"] += 1
                t["wins"] += won
                t["failures"] += int(k in failed)
                deal = t["deals"].setdefault(r.get("block", r["index"]), [0, 0])
                deal[0] += won
                deal[1] += 1
        return tally

    def leaderboard(self) -> list[dict[str, Any]]:
        """One row per bot, best rating first: ``rank``, ``bot``, ``author``, ``reference``,
        ``games``, ``deals``, ``wins``, ``win_rate`` with its 95 % interval by deal
        (``win_low``, ``win_high``; see below) and the ``design_effect`` it used, ``rating``
        (mu) with ``rating_sigma`` and the range ``rating_low`` .. ``rating_high``
        (mu ± 2 sigma), and ``failures`` (games lost by failing).

        The games of one deal are not independent: the same cards, the same line-up, played
        once in every seat. So the interval counts deals, not games: it is Wilson's on the games
        a bot played divided by the design effect, how much more its win rate varies from deal
        to deal than independent games would (never less than 1), with Student's t for the
        number of deals (:func:`~luckylab.analysis.stats.wilson_by_deal`)."""
        ratings = self.ratings()
        tally = self._tally()
        rows = []
        for e in self.entrants:
            t, r = tally[e.name], ratings[e.name]
            wins = [w for w, _ in t["deals"].values()]
            games = [n for _, n in t["deals"].values()]
            rate_, low, high = wilson_by_deal(wins, games)
            rows.append({"bot": e.name, "author": e.author, "reference": e.reference,
                         "games": t["games"], "deals": len(t["deals"]), "wins": t["wins"],
                         "win_rate": rate_, "win_low": low, "win_high": high,
                         "design_effect": round(design_effect(wins, games), 2),
                         "rating": round(r.mu, 2),
                         "rating_sigma": round(r.sigma, 2), "rating_low": round(r.low, 2),
                         "rating_high": round(r.high, 2), "failures": t["failures"]})
        rows.sort(key=lambda row: (-row["rating"], row["bot"]))
        for i, row in enumerate(rows, 1):
            row["rank"] = i
        return [{"rank": row.pop("rank"), **row} for row in rows]

    def head_to_head(self) -> list[dict[str, Any]]:
        """One row per ordered pair of bots that met: in the games both played, how often
        ``bot`` finished ahead of ``opponent`` (``ahead``, ``behind``, ``ties``), ``score``
        (ahead + half the ties, over games) and its 95 % interval by deal (``score_low``,
        ``score_high``: as the leaderboard's, a tie counting half): a score whose interval
        holds 0.5 cannot tell the two apart."""
        pairs: dict[tuple[str, str], list[int]] = {}
        by_deal: dict[tuple[str, str], dict[Any, list[float]]] = {}
        for r in self.records:
            seats, places, deal = r["seats"], r["places"], r.get("block", r["index"])
            for i, a in enumerate(seats):
                for j, b in enumerate(seats):
                    if i == j:
                        continue
                    cell = pairs.setdefault((a, b), [0, 0, 0])
                    outcome = 0 if places[i] < places[j] else 1 if places[i] > places[j] else 2
                    cell[outcome] += 1
                    part = by_deal.setdefault((a, b), {}).setdefault(deal, [0.0, 0])
                    part[0] += (1.0, 0.0, 0.5)[outcome]
                    part[1] += 1
        order = {n: i for i, n in enumerate(self.names)}
        rows = []
        for (a, b), (ahead, behind, ties) in sorted(pairs.items(),
                                                    key=lambda p: (order[p[0][0]], order[p[0][1]])):
            n = ahead + behind + ties
            scores = [s for s, _ in by_deal[(a, b)].values()]
            games = [g for _, g in by_deal[(a, b)].values()]
            _, low, high = wilson_by_deal(scores, games)
            rows.append({"bot": a, "opponent": b, "games": n, "deals": len(games),
                         "ahead": ahead, "behind": behind, "ties": ties,
                         "score": round((ahead + ties / 2) / n, 3), "score_low": low,
                         "score_high": high})
        return rows

    def by_seat(self) -> list[dict[str, Any]]:
        """One row per bot and seat (seats numbered from 1): ``games``, ``wins``, ``win_rate``
        with its Wilson interval. Rows with ``bot`` None total all bots in that seat."""
        counts: dict[tuple[str | None, int], list[int]] = {}
        for r in self.records:
            failed = {f["position"] for f in r.get("failures", ())}
            for k, name in enumerate(r["seats"]):
                won = int(r.get("winner") == k and k not in failed)
                for who in (name, None):
                    cell = counts.setdefault((who, k), [0, 0])
                    cell[0] += 1
                    cell[1] += won
        rows = []
        for who in [*self.names, None]:
            for k in range(self.players):
                games, wins = counts.get((who, k), [0, 0])
                rate_, low, high = wilson_ci(wins, games)
                rows.append({"bot": who, "seat": k + 1, "games": games, "wins": wins,
                             "win_rate": rate_, "win_low": low, "win_high": high})
        return rows

    def to_text(self) -> str:
        """The leaderboard as a printable table, then the failures and the files left out."""
        rows = self.leaderboard()
        width = max([len("bot"), *(len(r["bot"]) for r in rows)])
        lines = [f"{self.games} games of {self.game}, {self.players} players, seed {self.seed}: "
                 "every line-up played the same deals in every seat rotation, so the intervals "
                 "count deals, not games.",
                 f"A bot no better than the others would win about 1 game in {self.players}.",
                 "",
                 f"{'#':>3}  {'bot':<{width}}  {'games':>6}  {'wins':>6}  "
                 f"{'win rate (95% by deal)':<24}  {'rating (mu ± 2 sigma)':<22}  failed"]
        for r in rows:
            win = f"{r['win_rate']:.1%} ({r['win_low']:.1%}-{r['win_high']:.1%})"
            rating = f"{r['rating']:.1f} ± {2 * r['rating_sigma']:.1f}"
            lines.append(f"{r['rank']:>3}  {r['bot']:<{width}}  {r['games']:>6}  {r['wins']:>6}  "
                         f"{win:<24}  {rating:<22}  {r['failures']:>6}")
        failures = self.failures
        if failures:
            lines += ["", f"Games lost by failing ({len(failures)}):"]
            seen: dict[tuple[str, str], list[Failure]] = {}
            for f in failures:
                seen.setdefault((f.bot, f.reason), []).append(f)
            for (bot, reason), group in seen.items():
                games = ", ".join(str(f.game) for f in group[:5]) + (
                    ", ..." if len(group) > 5 else "")
                lines.append(f"  {bot}: {reason} ({len(group)} game{'s' * (len(group) > 1)}: "
                             f"{games})")
        if self.problems:
            lines += ["", "Bot files left out:"] + [f"  {p}" for p in self.problems]
        if self.network is not None and self.network != "cut":
            why = self.network.removeprefix("open: ")
            lines += ["", f"The bot workers were not cut off the network ({why})."]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()


def read_records(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the game records of a results file (for looking at a finished run)."""
    with open(path, encoding="utf-8") as f:
        lines = [line for line in f.read().split("\n") if line.strip()]
    if not lines:
        raise TournamentError(f"{Path(path).name} is empty")
    records = []
    for line in lines[1:]:
        try:
            records.append(json.loads(line))
        except ValueError:
            break
    return json.loads(lines[0]), records


def _unique(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    by_index = {int(r["index"]): dict(r) for r in records}
    return [by_index[i] for i in sorted(by_index)]
