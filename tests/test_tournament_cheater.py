"""A cheater gains nothing (issue 39, item 2).

The cheater looks ahead on the game it is shown: each of a few choices played out by the
default bots on a copy of that game, the hidden hands, the deck's order and the game's own
generator (every card to come) included. Its blind twin plays the same rule on a world dealt
anew from what its seat may know. Shown the real game (before issue 39) the cheater won more
where its look-ahead could use what it saw: on the Island, +0.052 a game (95 % interval by
deal +0.020 to +0.085, 400 games), in Doctor Who +0.07. Shown its seat's world it reads a
plausible game, not the real one, and so plays as blind as its twin.

Both bots sit at every game of a tournament with two bundled bots (four entrants, four
players: every block's line-up is all four, each in every seat of the deal). The comparison is
by deal: a deal's four rotations are not independent games, so each deal gives one difference
(the cheater's mean return minus the twin's), and the interval is over the 100 deals.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import pytest

from luckylab.tournament import load_bots, run
from luckylab.tournament.bots import reference_entrants

BOT = '''
LUCKYLAB_BOT = {{"name": "{name}", "game": "{game}", "class": "Bot"}}
from luckylab.agents import agent_class

Base = agent_class("{game}")


class Bot(Base):
    """Where there are 2 to 6 choices, each is played out 3 times by the default bots, on the
    game as shown (peek) or on a world dealt anew from what this seat may know (blind)."""

    peek = {peek}

    def choose(self, game):
        default = super().choose(game)
        actions = game.legal_actions()
        if not 2 <= len(actions) <= 6:
            return default
        me = game.current_player
        best, best_value = default, self.value(game, me, default)
        for action in actions:
            if action != default:
                value = self.value(game, me, action)
                if value > best_value:
                    best, best_value = action, value
        return best

    def value(self, game, me, action):
        total = 0.0
        for _ in range(3):
            world = game.clone() if self.peek else game.determinize(me, self.rng)
            world.quieten()
            world.apply_trusted(action)
            bots = [Base(seed=self.rng.getrandbits(32)) for _ in range(world.num_seats)]
            world.play_out([bot.choose for bot in bots])
            total += world.returns()[me]
        return total / 3
'''


def write_pair(folder: Path, game: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, peek in (("zz-cheat", True), ("zz-blind", False)):
        (folder / f"{name}.py").write_text(BOT.format(name=name, game=game, peek=peek))


def by_deal(records: list[dict], a: str, b: str) -> tuple[float, float, float]:
    """The mean over deals of (``a``'s mean return - ``b``'s) in the deal's games, and its 95 %
    interval (normal, over deals: the deal is the unit that was drawn at random)."""
    sums: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for record in records:
        row = sums[record["block"]]
        for k, name in enumerate(record["seats"]):
            row[0] += record["returns"][k] if name == a else 0.0
            row[1] += record["returns"][k] if name == b else 0.0
        row[2] += 1
    d = [(x - y) / n for x, y, n in sums.values()]
    mean = sum(d) / len(d)
    se = math.sqrt(sum((v - mean) ** 2 for v in d) / (len(d) - 1) / len(d))
    return mean, mean - 1.96 * se, mean + 1.96 * se


def cheater_edge(tmp_path: Path, game: str, games: int = 400, sandbox: bool = False):
    folder = tmp_path / game
    write_pair(folder, game)
    mine, problems = load_bots(folder, game=game, sandbox=sandbox)
    assert not problems
    entrants = list(mine) + reference_entrants(game)[:2]
    result = run(entrants, game=game, players=4, games=games, seed=11, progress=False,
                 sandbox=sandbox, workers=1, reference=False)
    assert not result.failures
    return by_deal(result.records, "zz-cheat", "zz-blind")


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game", ["island", "kill", "save", "panic", "doctorwho"])
def test_a_bot_that_reads_hidden_cards_wins_no_more_than_its_blind_twin(tmp_path, game):
    mean, low, high = cheater_edge(tmp_path, game)
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
