"""Python answers equal the command line's: same position, same roll, same hint.

The `tabletop` binary is looked for in $TABLETOP_BIN, then in the workspace's
target/debug and target/release (``cargo test --workspace`` or ``cargo build -p
tabletop-cli`` puts it there); the tests are skipped, saying so, when there is none.
"""

import json
import os
import pathlib
import subprocess

import pytest

from tabletop import nardy, reversi

ROOT = pathlib.Path(__file__).resolve().parents[3]


def find_binary():
    env = os.environ.get("TABLETOP_BIN")
    if env:
        return env
    for profile in ("debug", "release"):
        p = ROOT / "target" / profile / "tabletop"
        if p.exists():
            return str(p)
    return None


BIN = find_binary()
needs_cli = pytest.mark.skipif(BIN is None, reason="the tabletop binary is not built")


def cli(*args):
    out = subprocess.run([BIN, *args], check=True, capture_output=True, text=True, timeout=300)
    return out.stdout


@needs_cli
@pytest.mark.parametrize(
    "position,dice,level",
    [("24:15/12:15 w", "31", "strong"), ("24:14,13:1/12:15 b", "64", "greedy"), ("24:15/12:15 w", "55", "learned")],
)
def test_nardy_hint_equals_cli(position, dice, level):
    ours = nardy.hints(nardy.Position(position), dice, level=level)
    theirs = json.loads(cli("nardy", "hint", position, dice, "--level", level, "--json"))
    assert [h["turn"] for h in ours] == [h["turn"] for h in theirs]
    for a, b in zip(ours, theirs):
        assert a["equity"] == pytest.approx(b["equity"], abs=1e-6)
        assert a["win"] == pytest.approx(b["win"], abs=1e-6)


@needs_cli
def test_nardy_moves_equal_cli():
    position, dice = "24:14,13:1/12:15 b", "33"
    lines = cli("nardy", "moves", position, dice).strip().splitlines()
    theirs = sorted(line.split("\t")[0] for line in lines)
    assert sorted(nardy.Position(position).legal_moves(dice)) == theirs


@needs_cli
def test_reversi_perft_equals_cli():
    out = cli("reversi", "perft", "6").strip().splitlines()[-1]
    assert out.split()[-1] == str(reversi.perft(reversi.Position(), 6))


@needs_cli
def test_nardy_arena_equals_cli():
    """Same seeds, same games: the arena's duplicate pairs replayed with play_game."""
    seed, pairs = 10, 3
    report = json.loads(cli("nardy", "arena", "--white", "greedy", "--black", "beginner",
                            "--games", str(2 * pairs), "--seed", str(seed), "--threads", "1", "--json"))
    wins = {"first": 0, "second": 0}
    points = 0
    for i in range(pairs):
        for white, black, first in (("greedy", "beginner", "white"), ("beginner", "greedy", "black")):
            o = nardy.play_game(white, black, seed + i).outcome()
            if o.winner is not None:
                wins["first" if o.winner == first else "second"] += 1
                points += o.points if o.winner == first else -o.points
    assert report["first_wins"]["wins"] == wins["first"]
    assert report["second_wins"]["wins"] == wins["second"]
    assert report["points_per_game"] == pytest.approx(points / (2 * pairs))
