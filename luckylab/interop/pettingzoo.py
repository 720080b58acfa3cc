"""The five games as PettingZoo AEC environments (needs ``pip install 'luckylab[pettingzoo]'``).

``env("island", players=4)`` is an agent-environment-cycle environment: one agent per seat
(``"seat_1"`` ... , Strangers included in a 2- or 3-player Island), the seat to decide is
``agent_selection``, and each observation is a dictionary:

- ``"observation"``: what that seat may know (the protocol's ``observation(seat).key()``, a
  canonical JSON text) as UTF-8 bytes in a ``uint8`` vector of :data:`OBSERVATION_BYTES`,
  padded with zeros (:func:`observation_text` reads it back);
- ``"action_mask"``: an ``int8`` vector over the compact action ids
  (:mod:`luckylab.interop.compact`), 1 where the id is legal for that seat now.

An action is a compact id: a protocol action is chosen a few hex digits at a time, so one move
of the game may take the same agent two or three steps. Rewards are the protocol's
``returns()`` at the end (1.0 for a winner, the team's fraction in Panic Island!), when every
agent is terminated. ``reset(seed=s)`` deals the game of a seed drawn from ``s``; the same seed
and actions play the same game. ``render_mode="ansi"`` renders the deciding seat's view as
text.

>>> e = env("kill", players=2)
>>> e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, int(obs["action_mask"].sum()) > 0, observation_text(obs)[:8]
('seat_1', True, '{"active')
"""

from __future__ import annotations

import copy
import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError:  # pragma: no cover - depends on the installation
    from . import missing_extra

    raise missing_extra("pettingzoo (and gymnasium)", "pettingzoo") from None

from ..errors import IllegalAction, ObservationError
from ..games.registry import new_game
from .compact import CompactIds

__all__ = ["OBSERVATION_BYTES", "LuckyLabAEC", "check_environment", "env", "observation_text",
           "raw_env"]

OBSERVATION_BYTES = 16384
"""The length of the ``"observation"`` vector: the longest observation text of a seat (about
1,600 bytes in a 4-player Island or Doctor Who) ten times over."""


def observation_text(observation: dict[str, Any]) -> str:
    """The observation text inside an observation dictionary of :class:`LuckyLabAEC`."""
    data = np.asarray(observation["observation"], dtype=np.uint8).tobytes()
    return data.rstrip(b"\0").decode("utf-8")


class LuckyLabAEC(AECEnv):
    """One luckylab game as a PettingZoo AEC environment (see the module)."""

    metadata = {"render_modes": ["ansi"], "name": "luckylab", "is_parallelizable": False}

    def __init__(self, game: str = "island", players: int = 4, render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise IllegalAction(f"render_mode is None or 'ansi', not {render_mode!r}")
        probe = new_game(game, players=players, seed=0, **options)  # checks the arguments
        self.game, self.players, self.options = game, players, options
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"luckylab_{game}_v0"}
        self.ids = CompactIds(probe.num_distinct_actions)
        self.possible_agents = [f"seat_{s + 1}" for s in range(probe.num_seats)]
        self.agents = list(self.possible_agents)
        self.action_spaces = {a: spaces.Discrete(self.ids.num_ids) for a in self.agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, 255, (OBSERVATION_BYTES,), np.uint8),
            "action_mask": spaces.Box(0, 1, (self.ids.num_ids,), np.int8),
        }) for a in self.agents}
        self.engine: Any = None
        self._candidates: list[int] | None = None
        self._chosen: list[int] = []
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the cycle -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        engine_seed = int(self.np_random.integers(0, 2 ** 31))
        self.engine = new_game(self.game, players=self.players, seed=engine_seed,
                               **self.options)
        self.engine.quieten(True)
        self._candidates, self._chosen = None, []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.engine.current_player]

    def _legal_candidates(self) -> list[int]:
        if self._candidates is None:
            engine = self.engine
            self._candidates = sorted(engine.action_id(a) for a in engine.legal_actions())
        return self._candidates

    def legal_ids(self, agent: str) -> list[int]:
        """The compact ids ``agent`` may choose now (none unless it is deciding)."""
        if self.engine is None or self.engine.is_over or agent != self.agent_selection:
            return []
        return self.ids.legal(self._legal_candidates())

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        text = self.engine.observation(seat).key()
        if self._chosen and agent == self.agent_selection:
            text += " chosen " + ",".join(map(str, self._chosen))
        data = text.encode("utf-8")
        if len(data) > OBSERVATION_BYTES:
            raise ObservationError(f"{agent}'s observation has {len(data)} bytes, more than "
                                   f"OBSERVATION_BYTES = {OBSERVATION_BYTES}")
        vector = np.zeros(OBSERVATION_BYTES, np.uint8)
        vector[:len(data)] = np.frombuffer(data, np.uint8)
        mask = np.zeros(self.ids.num_ids, np.int8)
        mask[self.legal_ids(agent)] = 1
        return {"observation": vector, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        left = self.ids.choose(self.engine, self._legal_candidates(), int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if left is not None:
            self._candidates = left
            self._chosen.append(int(action))
            return
        engine = self.engine
        self._candidates, self._chosen = None, []
        if engine.is_over:
            for agent_name, value in zip(self.possible_agents, engine.returns(), strict=True):
                self.rewards[agent_name] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            return  # the deciding agent steps out first, then the others
        self.agent_selection = self.possible_agents[engine.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.engine is None:
            return None
        engine = self.engine
        if engine.is_over:
            returns = ", ".join(f"{a} {r:g}" for a, r in zip(self.possible_agents,
                                                              engine.returns(), strict=True))
            return f"{self.game}: the game is over; returns {returns}"
        seat = engine.current_player
        return f"{self.game}: seat {seat + 1} to decide.\n{engine.observation(seat).text}"

    def close(self) -> None:
        pass


def raw_env(game: str = "island", players: int = 4, render_mode: str | None = None,
            **options: Any) -> LuckyLabAEC:
    """The environment without PettingZoo's wrappers."""
    return LuckyLabAEC(game, players, render_mode, **options)


def env(game: str = "island", players: int = 4, render_mode: str | None = None,
        **options: Any) -> AECEnv:
    """``game`` for ``players`` as a PettingZoo AEC environment (in PettingZoo's
    order-enforcing wrapper); ``options`` are the game's rule options.

    >>> e = env("panic", players=2, render_mode="ansi")
    >>> e.reset(seed=1)
    >>> e.possible_agents
    ['seat_1', 'seat_2']
    >>> e.render().splitlines()[0]
    'panic: seat 1 to decide.'
    """
    return wrappers.OrderEnforcingWrapper(raw_env(game, players, render_mode, **options))


def check_environment(environment: LuckyLabAEC, seeds: list[int] | range, every: int = 5) -> int:
    """Random games of a raw :class:`LuckyLabAEC` checked for two breaches PettingZoo's own
    tests miss; raises :class:`AssertionError` naming the first, returns how many states it
    checked.

    - **A leak.** At every ``every``-th step, for each agent, the world the protocol's
      ``determinize(seat, rng)`` deals (everything that seat cannot see dealt anew) must give
      that agent the same observation and mask: one that shows a hidden card changes.
    - **An illegal id.** Every id the action mask allows must be accepted by ``step``.

    >>> check_environment(raw_env("kill", players=2), seeds=[1], every=50) > 0
    True
    """
    checked = 0
    for seed in seeds:
        rng = random.Random(seed)
        environment.reset(seed=seed)
        k = 0
        while environment.agents:
            agent = environment.agent_selection
            if environment.terminations[agent] or environment.truncations[agent]:
                environment.step(None)
                continue
            legal = [int(i) for i in np.flatnonzero(environment.observe(agent)["action_mask"])]
            assert legal, f"seed {seed}: {agent} is to act but its action mask is all zeros"
            if k % every == 0:
                _check_step(environment, legal, rng, f"seed {seed} step {k}")
                checked += 1
            environment.step(rng.choice(legal))
            k += 1
    return checked


def _check_step(environment: LuckyLabAEC, legal: list[int], rng: random.Random,
                where: str) -> None:
    for action in legal:
        twin = copy.deepcopy(environment)
        try:
            twin.step(action)
        except Exception as exc:  # noqa: BLE001 - any refusal is the breach
            raise AssertionError(f"{where}: the mask allows {action}, which step refuses: "
                                 f"{exc}") from None
    for seat, agent in enumerate(environment.possible_agents):
        seen = environment.observe(agent)
        world = copy.deepcopy(environment)
        world.engine = environment.engine.determinize(seat, random.Random(rng.getrandbits(32)))
        again = world.observe(agent)
        assert np.array_equal(again["observation"], seen["observation"]), (
            f"{where}: {agent}'s observation changes when what it cannot see is dealt anew: "
            "it shows something hidden from that seat")
        assert np.array_equal(again["action_mask"], seen["action_mask"]), (
            f"{where}: {agent}'s action mask changes when what it cannot see is dealt anew")
