"""The sudoku engine (see the package README for a tour)."""

from ._tabletop import sudoku as _m

globals().update({k: getattr(_m, k) for k in dir(_m) if not k.startswith("_")})
__all__ = [k for k in dir(_m) if not k.startswith("_")]
