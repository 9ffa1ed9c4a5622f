"""PettingZoo AEC environment ``reversi_v0`` (see :class:`tabletop.envs.ReversiEnv`)."""

from ._aec import ReversiEnv as _Env, _module

env, raw_env = _module(_Env)
__all__ = ["env", "raw_env"]
