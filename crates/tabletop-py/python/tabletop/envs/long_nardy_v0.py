"""PettingZoo AEC environment ``long_nardy_v0`` (see :class:`tabletop.envs.LongNardyEnv`)."""

from ._aec import LongNardyEnv as _Env, _module

env, raw_env = _module(_Env)
__all__ = ["env", "raw_env"]
