"""A cheater gains nothing (issue 39, item 2).

A tournament bot is shown its seat's world, not the real game (``luckylab.games.shown``). To
check that reading hidden cards no longer pays, a cheater plays a rule on the game it is shown
(the other hands, the deck's order and the game's own generator, every card to come, included)
and its blind twin plays the same rule on one world dealt anew from what its seat may know:

- Island, Kill, Save, Doctor Who: where there are 2 to 6 choices, each is played out 3 times
  to the end by the default bots, on that one game (a perfect-information look-ahead);
- Panic Island! (cooperative, nothing hidden from one seat that another sees): the default
  bot, its memory filled with every face-down card of that game.

Shown the real game (before issue 39: ``git checkout 056f714``), the cheater won clearly more,
95 % intervals by deal of (cheater - twin), 3 players, about 400 games: Island +0.328 (+0.258
to +0.399), Kill +0.301 (+0.232 to +0.370), Save +0.114 (+0.073 to +0.155), Doctor Who +0.111
(+0.040 to +0.181); Panic's team score +0.327 (+0.297 to +0.358). Shown its seat's world, it
is as blind as its twin.

Cheater and twin sit at every game of a 3-player tournament with one bundled bot (three
entrants: each block is all three, each in every seat of one deal); in Panic, whose table
shares one score, each sits in a tournament of its own with two bundled bots, on the same
deals. The comparison is by deal: a deal's rotations are not independent games, so each deal
gives one difference (the cheater's mean return minus the twin's) and the interval is over
the deals.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import pytest

from luckylab.tournament import load_bots, run
from luckylab.tournament.bots import reference_entrants

HEAD = """
LUCKYLAB_BOT = {{"name": "{name}", "game": "{game}", "class": "Bot"}}
from luckylab.agents import agent_class

Base = agent_class("{game}")
"""

LOOK_AHEAD = """

class Bot(Base):
    peek = {peek}

    def choose(self, game):
        default = super().choose(game)
        actions = game.legal_actions()
        if not 2 <= len(actions) <= 6:
            return default
        me = game.current_player
        base = game if self.peek else game.determinize(me, self.rng)
        best, best_value = default, self.value(base, me, default)
        for action in actions:
            if action != default:
                value = self.value(base, me, action)
                if value > best_value:
                    best, best_value = action, value
        return best

    def value(self, base, me, action):
        total = 0.0
        for _ in range(3):
            world = base.clone()
            world.quieten()
            world.apply_trusted(action)
            bots = [Base(seed=self.rng.getrandbits(32)) for _ in range(world.num_seats)]
            world.play_out([bot.choose for bot in bots])
            total += world.returns()[me]
        return total / 3
"""

MEMORY = """

class Bot(Base):
    peek = {peek}

    def observe(self, game, view=None):
        super().observe(game, view)
        source = game if self.peek else game.determinize(game.current_player or 0, self.rng)
        self.known.update({{p: c for p, c in source.island.items() if c is not None}})
"""


def write_pair(folder: Path, game: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    rule = MEMORY if game == "panic" else LOOK_AHEAD
    for name, peek in (("zz-cheat", True), ("zz-blind", False)):
        (folder / f"{name}.py").write_text(HEAD.format(name=name, game=game)
                                           + rule.format(peek=peek))


def interval(d: list[float]) -> tuple[float, float, float]:
    """The mean of ``d`` (one difference a deal) and its normal 95 % interval."""
    mean = sum(d) / len(d)
    se = math.sqrt(sum((v - mean) ** 2 for v in d) / (len(d) - 1) / len(d))
    return mean, mean - 1.96 * se, mean + 1.96 * se


def by_deal(records: list[dict], name: str) -> dict[int, float]:
    """``name``'s mean return in each deal (block) of a tournament."""
    sums: dict[int, list[float]] = defaultdict(list)
    for record in records:
        for k, seat in enumerate(record["seats"]):
            if seat == name:
                sums[record["block"]].append(record["returns"][k])
    return {block: sum(v) / len(v) for block, v in sums.items()}


def cheater_edge(folder: Path, game: str, games: int = 400, workers: int = 2):
    """The cheater's mean return minus its twin's, by deal: (mean, low, high), 95 %."""
    write_pair(folder, game)
    mine, problems = load_bots(folder, game=game, sandbox=False)
    assert not problems and len(mine) == 2

    def play(entrants):
        result = run(entrants, game=game, players=3, games=games, seed=11, progress=False,
                     sandbox=False, workers=workers, reference=False)
        assert not result.failures
        return result.records

    if game == "panic":  # one score for the table: a tournament each, on the same deals
        alone = {bot.name: by_deal(play([bot] + reference_entrants(game)[:2]), bot.name)
                 for bot in mine}
        cheat, blind = alone["zz-cheat"], alone["zz-blind"]
    else:
        records = play(list(mine) + reference_entrants(game)[:1])
        cheat, blind = by_deal(records, "zz-cheat"), by_deal(records, "zz-blind")
    assert cheat.keys() == blind.keys() and len(cheat) >= 100
    return interval([cheat[b] - blind[b] for b in cheat])


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game", ["island", "kill", "save", "panic", "doctorwho"])
def test_a_bot_that_reads_hidden_cards_wins_no_more_than_its_blind_twin(tmp_path, game):
    mean, low, high = cheater_edge(tmp_path / game, game)
    assert low <= 0, f"the cheater is clearly ahead: {mean:+.3f} ({low:+.3f} to {high:+.3f})"


def test_in_the_sandbox_a_bot_sees_no_seed_and_no_real_generator(tmp_path):
    """The worker never holds the real game: what its bot is shown has no seed to replay the
    deal from, and its generator is not the game's."""
    (tmp_path / "spy.py").write_text(
        "LUCKYLAB_BOT = {'name': 'spy', 'game': 'kill', 'class': 'Spy'}\n"
        "from luckylab.agents.kill import Patient\n\n"
        "class Spy(Patient):\n"
        "    def choose(self, game):\n"
        "        print(f'seed={game.seed!r} past={len(game.history)};')\n"
        "        return super().choose(game)\n")
    result = run(tmp_path, game="kill", players=3, games=3, seed=5, progress=False)
    assert not result.failures and not result.problems
    said = "".join(r["output"].get("spy", "") for r in result.records)
    assert said.count("seed=None") == said.count("seed=") > 0
