"""Tabletop: Long Nardy, Reversi, Battleship and Sudoku engines written in Rust.

Submodules: ``tabletop.reversi``, ``tabletop.nardy``, ``tabletop.battleship``,
``tabletop.sudoku`` (the engines), ``tabletop.envs`` (PettingZoo and Gymnasium
environments, which need ``pip install tabletop[envs]``) and ``tabletop.batch``.
"""

from ._tabletop import (
    GameOverError,
    IllegalMoveError,
    LoadError,
    ParseError,
    SolveError,
    TabletopError,
    __version__,
)
from . import battleship, nardy, reversi, sudoku

__all__ = [
    "GameOverError",
    "IllegalMoveError",
    "LoadError",
    "ParseError",
    "SolveError",
    "TabletopError",
    "__version__",
    "battleship",
    "nardy",
    "reversi",
    "sudoku",
]
