"""The PettingZoo AEC environments: thin Python shells around one Rust state object each."""

from __future__ import annotations

import operator

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._tabletop import envs as _rs
from .. import nardy as _nardy
from .. import battleship as _battleship


class _TabletopAEC(AECEnv):
    """Shared bookkeeping: the subclass builds ``self._state`` in ``_new_state`` and
    gives ``possible_agents`` and the spaces."""

    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.agents = list(self.possible_agents)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        self._state = None
        self.np_random, _ = seeding.np_random(None)

    # The spaces are fixed per environment instance.
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _new_state(self, seed: int):  # pragma: no cover - abstract
        raise NotImplementedError

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None or self._state is None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._state = self._new_state(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.to_move]

    def observe(self, agent):
        obs, mask = self._state.observe(self._index[agent])
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # The Rust state raises tabletop.IllegalMoveError for an action outside the mask.
        result = self._state.step(operator.index(action))
        self._cumulative_rewards[agent] = 0.0
        if result is None:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[self._state.to_move]
        else:
            for a, r in zip(self.possible_agents, result):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_text(self) -> str:
        return str(self._state.position())

    def close(self):
        pass


class ReversiEnv(_TabletopAEC):
    """Reversi (Othello), agents ``black`` and ``white``.

    Observation (``int8[8, 8, 2]``): ``[rank, file, 0]`` is 1 where the observing agent
    has a disc, ``[rank, file, 1]`` where its opponent has one (a1 is ``[0, 0]``).
    Action (``Discrete(65)``): ``8 * rank + file`` places a disc (a1 = 0, h1 = 7,
    h8 = 63); 64 passes (legal only when forced). ``action_mask`` is ``int8[65]``, zero
    for the agent not to move. Rewards at the end: +1 win, -1 loss, 0 draw.
    Keyword: ``first`` (``"black"`` or ``"white"``).
    """

    metadata = {**_TabletopAEC.metadata, "name": "reversi_v0"}

    def __init__(self, first: str = "black", render_mode: str | None = None):
        self.possible_agents = ["black", "white"]
        self._first = first
        _rs.ReversiState(first)  # validate the keyword now
        obs = spaces.Box(0, 1, (8, 8, 2), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": spaces.Box(0, 1, (65,), np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(65) for a in self.possible_agents}
        super().__init__(render_mode)

    def _new_state(self, seed):
        return _rs.ReversiState(self._first)


NARDY_ACTION_DOC = """
Action (``Discrete(145)``): ``6 * (q - 1) + (die - 1)`` moves the checker on the mover's
path point ``q`` (24 is its head, 1-6 its home; White's path point is the board point,
Black's is the board point shifted by 12) with one die ``die`` (1-6); a bear-off uses the
exact die when it is left, else the smallest larger one. 144 is the pass, the only legal
action when no checker can move. One env step is one step of a checker: a turn of two
dice (four with a double) takes two (four) steps of the same agent.

Observation (``float32[57]``), from the observing agent's side:

====== ===================================================================
index  meaning
====== ===================================================================
0-23   own checkers on path point ``q = index + 1``
24-47  opponent checkers on the observer's path point ``q = index - 23``
48     own checkers borne off
49     opponent checkers borne off
50-55  dice left to play this turn: how many of each face 1-6
56     1.0 if the observer is to move
====== ===================================================================
"""


class LongNardyEnv(_TabletopAEC):
    """Long Nardy, agents ``white`` and ``black``; the dice are thrown inside the
    environment (from the reset seed) and shown in the observation.
    """ + NARDY_ACTION_DOC + """
Rewards at the end: the points won (1 oin, 2 mars, 3 koks under ``scoring="koks"``) to
the winner, minus them to the loser; 0 each for a draw under ``last_roll_tie``.
Keywords: the rule variants of :class:`tabletop.nardy.Rules` (``opening``,
``head_exception``, ``block_check``, ``scoring``, ``last_roll_tie``).
"""

    metadata = {**_TabletopAEC.metadata, "name": "long_nardy_v0"}

    def __init__(self, render_mode: str | None = None, **rules):
        self.possible_agents = ["white", "black"]
        self._rules = _nardy.Rules(**rules)
        obs = spaces.Box(0.0, 15.0, (57,), np.float32)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": spaces.Box(0, 1, (145,), np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(145) for a in self.possible_agents}
        super().__init__(render_mode)

    def _new_state(self, seed):
        return _rs.NardyState(seed, self._rules)

    def _render_text(self):
        s = self._state
        return f"{s.position()}  dice {s.dice} left {s.remaining_dice()}"


class BattleshipEnv(_TabletopAEC):
    """Battleship with hidden fleets, agents ``player_0`` and ``player_1``; both fleets are
    uniform random fleets drawn from the reset seed.

    Observation (``int8[height, width, 5]``), only the observer's own knowledge:
    channel 0 its shots that found water (or water deduced around a sunk ship), 1 its hits
    on ships still afloat, 2 cells of enemy ships it sank, 3 its own ships, 4 the enemy's
    shots at its own grid. Action (``Discrete(height * width)``): shoot at cell
    ``row * width + col``. Under the Russian rules a hit earns another shot, so the same
    agent may act again. Rewards at the end: +1 to the side that sank the whole enemy
    fleet, -1 to the other. Keywords: ``variant`` (``"russian"`` or ``"classic"``).
    """

    metadata = {**_TabletopAEC.metadata, "name": "battleship_v0"}

    def __init__(self, variant: str = "russian", render_mode: str | None = None):
        self.possible_agents = ["player_0", "player_1"]
        self._rules = _battleship.Rules(variant)
        h, w = self._rules.height, self._rules.width
        obs = spaces.Box(0, 1, (h, w, 5), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": spaces.Box(0, 1, (h * w,), np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(h * w) for a in self.possible_agents}
        super().__init__(render_mode)

    def _new_state(self, seed):
        return _rs.BattleshipState(seed, self._rules)

    def _render_text(self):
        g = self._state.game()
        return "\n".join(
            f"player {p}:\n" + "\n".join(g.tracking(p)) for p in (0, 1)
        )


def _module(cls):
    def raw_env(**kwargs):
        return cls(**kwargs)

    def env(**kwargs):
        return wrappers.OrderEnforcingWrapper(cls(**kwargs))

    raw_env.__doc__ = f"The unwrapped environment: {cls.__doc__}"
    env.__doc__ = f"The environment wrapped in PettingZoo's OrderEnforcingWrapper: {cls.__doc__}"
    return env, raw_env
