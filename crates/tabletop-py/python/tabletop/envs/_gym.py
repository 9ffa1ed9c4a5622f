"""Gymnasium single-agent environments: the agent plays one side, a built-in bot the
other. An action outside the mask ends the episode with reward -1 and
``info["illegal_action"] = True`` (Gymnasium has no masks of its own: the mask is in
the observation and in ``info["action_mask"]``)."""

from __future__ import annotations

import operator

import numpy as np
import gymnasium as gym
from gymnasium import spaces

from .._tabletop import envs as _rs
from .. import nardy as _nardy
from .. import battleship as _battleship
from .. import sudoku as _sudoku


class _BotGame(gym.Env):
    """Shared loop: the subclass gives ``_new_state``, ``_bot_moves`` and the spaces."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}
    _n_actions: int

    def __init__(self, agent: int, opponent_level, render_mode=None):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._agent = agent
        self._level = opponent_level
        self._state = None

    def _obs(self):
        obs, mask = self._state.observe(self._agent)
        return {"observation": obs, "action_mask": mask}

    def _info(self, obs):
        return {"action_mask": obs["action_mask"]}

    def _bot_seed(self):
        return int(self.np_random.integers(0, 2**63 - 1))

    def _play_opponent(self):
        result = None
        while result is None and not self._state.is_over and self._state.to_move != self._agent:
            for a in self._bot_moves():
                result = self._state.step(a)
                if result is not None:
                    break
        return result

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._state = self._new_state(int(self.np_random.integers(0, 2**63 - 1)))
        self._play_opponent()
        obs = self._obs()
        return obs, self._info(obs)

    def step(self, action):
        if self._state is None or self._state.is_over:
            raise RuntimeError("call reset() before step() and after the episode ends")
        action = operator.index(action)
        mask = self._state.action_mask()
        if not (0 <= action < self._n_actions) or not mask[action]:
            obs = self._obs()
            info = self._info(obs)
            info["illegal_action"] = True
            return obs, -1.0, True, False, info
        result = self._state.step(action)
        if result is None:
            result = self._play_opponent()
        obs = self._obs()
        reward = 0.0 if result is None else float(result[self._agent])
        return obs, reward, result is not None, False, self._info(obs)

    def render(self):
        if self.render_mode == "ansi":
            return str(self._state.position())
        return None


class ReversiGymEnv(_BotGame):
    """Reversi against a bot of ``opponent_level`` (1-10 or a name); the agent plays
    ``agent_color``. Encodings as :class:`tabletop.envs.ReversiEnv`."""

    _n_actions = 65

    def __init__(self, opponent_level="beginner", agent_color="black", render_mode=None):
        super().__init__(0 if agent_color == "black" else 1, opponent_level, render_mode)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (8, 8, 2), np.int8),
                "action_mask": spaces.Box(0, 1, (65,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(65)

    def _new_state(self, seed):
        return _rs.ReversiState("black")

    def _bot_moves(self):
        return [self._state.bot_action(self._level, self._bot_seed())]


class LongNardyGymEnv(_BotGame):
    """Long Nardy against a bot of ``opponent_level`` (1-6 or a name); the agent plays
    ``agent_color``; the reward at the end is the points won or lost. Encodings and rule
    keywords as :class:`tabletop.envs.LongNardyEnv`."""

    _n_actions = 145

    def __init__(self, opponent_level="greedy", agent_color="white", render_mode=None, **rules):
        super().__init__(0 if agent_color == "white" else 1, opponent_level, render_mode)
        self._rules = _nardy.Rules(**rules)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 15.0, (57,), np.float32),
                "action_mask": spaces.Box(0, 1, (145,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(145)

    def _new_state(self, seed):
        return _rs.NardyState(seed, self._rules)

    def _bot_moves(self):
        return self._state.bot_actions(self._level, self._bot_seed())


class BattleshipGymEnv(_BotGame):
    """Battleship against a shooter of ``opponent_level`` (1-5 or a name): both shoot at
    each other's uniform random fleet; the agent is player 0 and shoots first. Encodings
    as :class:`tabletop.envs.BattleshipEnv`."""

    def __init__(self, opponent_level="hunt", variant="russian", render_mode=None):
        super().__init__(0, opponent_level, render_mode)
        self._rules = _battleship.Rules(variant)
        h, w = self._rules.height, self._rules.width
        self._n_actions = h * w
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (h, w, 5), np.int8),
                "action_mask": spaces.Box(0, 1, (h * w,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(h * w)

    def _new_state(self, seed):
        return _rs.BattleshipState(seed, self._rules)

    def _bot_moves(self):
        return [self._state.bot_action(self._level, self._bot_seed())]

    def render(self):
        if self.render_mode == "ansi":
            return "\n".join(self._state.game().tracking(0))
        return None


class SudokuEnv(gym.Env):
    """Fill a 9×9 sudoku generated at reset (of ``difficulty`` ``"easy"`` … ``"extreme"``,
    or any when ``None``).

    Observation (``int8[9, 9]``): the digits, 0 for an empty cell. Action
    (``Discrete(729)``): ``81 * row + 9 * col + digit - 1`` enters ``digit`` at
    ``(row, col)``. The right digit fills the cell (reward 0, or +1 and the end when it
    completes the grid); a wrong digit or a filled cell costs -0.1 and changes nothing.
    The episode is truncated after ``max_steps``. ``info["action_mask"]`` marks the
    actions on empty cells.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, difficulty: str | None = "easy", max_steps: int = 400, render_mode=None):
        self._difficulty = difficulty
        self._max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 9, (9, 9), np.int8)
        self.action_space = spaces.Discrete(729)
        self._grid = None

    @staticmethod
    def _parse(text):
        return np.array([0 if c in ".0" else int(c) for c in text], dtype=np.int8).reshape(9, 9)

    def _info(self):
        mask = np.repeat((self._grid.reshape(81) == 0).astype(np.int8), 9)
        return {"action_mask": mask, "mistakes": self._mistakes}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        puzzle = _sudoku.generate(int(self.np_random.integers(0, 2**63 - 1)), self._difficulty)
        self.puzzle = puzzle
        self._grid = self._parse(puzzle)
        self._solution = self._parse(_sudoku.solve(puzzle))
        self._steps = 0
        self._mistakes = 0
        return self._grid.copy(), self._info()

    def step(self, action):
        if self._grid is None:
            raise RuntimeError("call reset() before step()")
        action = int(action)
        cell, digit = divmod(action, 9)
        r, c = divmod(cell, 9)
        self._steps += 1
        reward = 0.0
        if not 0 <= action < 729 or self._grid[r, c] != 0 or self._solution[r, c] != digit + 1:
            reward = -0.1
            self._mistakes += 1
        else:
            self._grid[r, c] = digit + 1
        solved = bool((self._grid != 0).all())
        if solved:
            reward = 1.0
        truncated = not solved and self._steps >= self._max_steps
        return self._grid.copy(), reward, solved, truncated, self._info()

    def render(self):
        if self.render_mode == "ansi":
            return "\n".join("".join(str(d) if d else "." for d in row) for row in self._grid)
        return None
