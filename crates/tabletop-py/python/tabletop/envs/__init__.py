"""Reinforcement-learning environments on the Tabletop engines.

PettingZoo AEC environments (each with ``env()`` and ``raw_env()``)::

    from tabletop.envs import long_nardy_v0, reversi_v0, battleship_v0
    env = long_nardy_v0.env(scoring="koks")

Gymnasium single-agent environments against a built-in bot, registered on import::

    import gymnasium, tabletop.envs
    env = gymnasium.make("tabletop/LongNardy-v0", opponent_level="expert")

``tabletop/Reversi-v0``, ``tabletop/Battleship-v0`` and ``tabletop/Sudoku-v0`` likewise.
The batched API is :class:`VectorEnv`. The encodings are documented on each class and in
the package README.
"""

from .._tabletop import envs as _rs

VectorEnv = _rs.VectorEnv
random_playouts = _rs.random_playouts
from ._aec import BattleshipEnv, LongNardyEnv, ReversiEnv
from ._gym import BattleshipGymEnv, LongNardyGymEnv, ReversiGymEnv, SudokuEnv
from . import battleship_v0, long_nardy_v0, reversi_v0


def _register():
    from gymnasium.envs.registration import register, registry

    for name, entry in [
        ("tabletop/LongNardy-v0", "tabletop.envs._gym:LongNardyGymEnv"),
        ("tabletop/Reversi-v0", "tabletop.envs._gym:ReversiGymEnv"),
        ("tabletop/Battleship-v0", "tabletop.envs._gym:BattleshipGymEnv"),
        ("tabletop/Sudoku-v0", "tabletop.envs._gym:SudokuEnv"),
    ]:
        if name not in registry:
            register(id=name, entry_point=entry)


_register()

__all__ = [
    "BattleshipEnv",
    "BattleshipGymEnv",
    "LongNardyEnv",
    "LongNardyGymEnv",
    "ReversiEnv",
    "ReversiGymEnv",
    "SudokuEnv",
    "VectorEnv",
    "battleship_v0",
    "long_nardy_v0",
    "random_playouts",
    "reversi_v0",
]
