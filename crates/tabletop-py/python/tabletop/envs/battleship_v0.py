"""PettingZoo AEC environment ``battleship_v0`` (see :class:`tabletop.envs.BattleshipEnv`)."""

from ._aec import BattleshipEnv as _Env, _module

env, raw_env = _module(_Env)
__all__ = ["env", "raw_env"]
