"""luckylab's games as PettingZoo AEC environments, checked by PettingZoo's own tests.

``pettingzoo.test.api_test`` and ``seed_test`` run on every game (the Island with and without
Strangers). Two deliberately broken environments (a hidden card leaked into an observation,
an illegal id allowed by the action mask) are caught by
:func:`~luckylab.interop.pettingzoo.check_environment`.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from luckylab.errors import IllegalAction, MissingExtra  # noqa: E402
from luckylab.interop import pettingzoo as lz  # noqa: E402

GAMES = [("island", 4, {}), ("island", 2, {}), ("kill", 3, {}), ("save", 4, {}),
         ("panic", 4, {}), ("doctorwho", 4, {})]


def _id(case):
    return f"{case[0]}-{case[1]}p"


@pytest.mark.parametrize("case", GAMES, ids=_id)
def test_api_test_and_seed_test_pass(case):
    name, players, options = case
    with warnings.catch_warnings():
        # PettingZoo warns that a dictionary observation is not a NumPy array, as it does for
        # its own classic games, whose observations are such dictionaries too
        warnings.simplefilter("ignore", UserWarning)
        api_test(lz.env(name, players=players, **options), num_cycles=200)
        seed_test(lambda: lz.env(name, players=players, **options), num_cycles=200)


def test_the_spaces_and_a_whole_game_with_rewards():
    env = lz.env("kill", players=2)
    env.reset(seed=5)
    assert env.possible_agents == ["seat_1", "seat_2"]
    space = env.action_space("seat_1")
    assert space.n == 176 and env.observation_space("seat_1")["action_mask"].shape == (176,)
    rng = np.random.default_rng(5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert env.observation_space(agent).contains(obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(total.values()) in ([0.0, 1.0], [0.0, 0.0])


def test_the_same_seed_deals_the_same_game():
    one, two = lz.raw_env("save", players=4), lz.raw_env("save", players=4)
    one.reset(seed=9)
    two.reset(seed=9)
    assert one.engine.state_digest() == two.engine.state_digest()
    two.reset(seed=10)
    assert one.engine.state_digest() != two.engine.state_digest()


def test_render_ansi_is_the_deciding_seats_view():
    env = lz.env("island", players=4, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text.startswith("island: seat ") and "\n" in text
    with pytest.raises(IllegalAction, match="render_mode"):
        lz.env("island", render_mode="human")


def test_an_id_the_mask_forbids_is_refused():
    env = lz.raw_env("kill", players=2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction, match="not legal now"):
        env.step(int(np.flatnonzero(mask == 0)[0]))


def test_observation_text_reads_the_observation_back():
    env = lz.raw_env("doctorwho", players=3)
    env.reset(seed=4)
    seat = env.possible_agents.index(env.agent_selection)
    text = lz.observation_text(env.observe(env.agent_selection))
    assert text == env.engine.observation(seat).key()


# -- the environment's own check, and two broken environments it catches -----------------


@pytest.mark.parametrize("name", ["island", "kill", "save", "panic", "doctorwho"])
def test_every_game_keeps_hidden_cards_out_of_its_observations(name):
    # a Panic Island! game is short: more of them
    options, seeds = ({}, range(3, 9)) if name == "panic" else ({"turn_cap": 6}, [3, 4])
    assert lz.check_environment(lz.raw_env(name, players=3, **options), seeds=seeds,
                                every=4) > 2


class _Leaky(lz.LuckyLabAEC):
    """Puts the next seat's observation (its hand) into each observation."""

    def observe(self, agent):
        out = super().observe(agent)
        seat = self.possible_agents.index(agent)
        other = self.engine.observation((seat + 1) % len(self.possible_agents)).key()
        data = other.encode()[:200]
        out["observation"][-len(data):] = np.frombuffer(data, np.uint8)
        return out


class _Loose(lz.LuckyLabAEC):
    """Allows one id that is not legal, besides the legal ones."""

    def legal_ids(self, agent):
        legal = super().legal_ids(agent)
        if not legal:
            return legal
        return sorted([*legal, next(i for i in range(self.ids.num_ids) if i not in legal)])


def test_a_hidden_card_in_an_observation_is_caught():
    with pytest.raises(AssertionError, match="observation changes"):
        lz.check_environment(_Leaky("kill", players=2, turn_cap=4), seeds=[1], every=3)


def test_an_illegal_id_in_the_action_mask_is_caught():
    with pytest.raises(AssertionError, match="which step refuses"):
        lz.check_environment(_Loose("kill", players=2, turn_cap=4), seeds=[1], every=3)


def test_the_adapter_without_pettingzoo_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # `import pettingzoo` now fails
    monkeypatch.delitem(sys.modules, "luckylab.interop.pettingzoo")
    with pytest.raises(MissingExtra, match=r"pip install 'luckylab\[pettingzoo\]'"):
        import luckylab.interop.pettingzoo  # noqa: F401


def test_the_docs_pettingzoo_example_runs(capsys):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "interop.md").read_text("utf-8")
    code = next(c for c in re.findall(r"```python\n(.*?)```", text, flags=re.S)
                if "pettingzoo" in c)
    exec(compile(code, "docs/interop.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "'seat_1'" in printed and "'seat_4'" in printed


def test_compact_ids_refuse_a_bad_space_and_a_bad_choice():
    from luckylab.errors import ActionSpaceError
    from luckylab.interop.compact import CompactIds

    with pytest.raises(ActionSpaceError, match="whole number >= 1"):
        CompactIds(0)
    with pytest.raises(ActionSpaceError, match="base"):
        CompactIds(1000, base=1)
    ids = CompactIds(10_000)
    assert ids.places == 4 and ids.num_ids == 64
    legal = [0x0102, 0x0103, 0x2000]
    assert ids.legal(legal) == [0, 2]
    with pytest.raises(IllegalAction, match="choose one of"):
        ids.narrow(legal, 1)      # place 0, digit 1: no legal action has it
    with pytest.raises(IllegalAction, match="choose one of"):
        ids.narrow(legal, 16)     # place 1 is not the place deciding now


def test_compact_place_is_the_first_place_where_any_two_candidates_differ():
    import random

    from luckylab.interop.compact import CompactIds

    def first_difference(ids: CompactIds, candidates: list[int]) -> int:
        for place in range(ids.places):
            if len({ids.digit(c, place) for c in candidates}) > 1:
                return place
        return ids.places - 1

    rng = random.Random(23)
    for size, base in [(10_000, 16), (2 ** 57, 16), (5_000, 10), (3 ** 9, 3), (700, 2)]:
        ids = CompactIds(size, base)
        for _ in range(500):
            centre, spread = rng.randrange(size), rng.choice([1, 30, 4_000, size])
            candidates = [min(size - 1, max(0, centre + rng.randint(-spread, spread)))
                          for _ in range(rng.randint(1, 6))]  # unsorted, repeats allowed
            assert ids.place(candidates) == first_difference(ids, candidates), candidates
