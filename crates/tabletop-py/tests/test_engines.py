"""The engines through Python: notations, play, undo, saves, bots, errors."""

import copy
import pickle

import pytest

import tabletop
from tabletop import battleship, nardy, reversi, sudoku


def test_reversi_game_round_trip():
    g = reversi.Game()
    assert g.legal_moves() == ["d3", "c4", "f5", "e6"]
    assert g.play("f5") == ["e5"]
    assert g.record == "f5"
    assert g.position.side_to_move == "white"
    assert pickle.loads(pickle.dumps(g)) == g
    assert reversi.Game.from_bytes(g.to_bytes()) == g
    c = copy.copy(g)
    c.play(c.legal_moves()[0])
    assert c != g and g.record == "f5"
    assert g.undo() == "f5" and g.redo() == "f5"


def test_reversi_position_is_hashable_and_reads_its_notation():
    p = reversi.Position()
    q = reversi.Position(str(p))
    assert p == q and hash(p) == hash(q)
    assert "reversi.Position(" in repr(p)
    assert len({p, q, p.after("f5")}) == 2
    assert reversi.perft(p, 4) == 244


def test_reversi_errors():
    g = reversi.Game()
    with pytest.raises(tabletop.IllegalMoveError, match="flips nothing"):
        g.play("a1")
    assert g.record == ""
    with pytest.raises(tabletop.ParseError):
        g.play("z9")
    with pytest.raises(tabletop.LoadError, match="not a Tabletop Reversi save"):
        reversi.Game.from_bytes(b"garbage")
    data = bytearray(g.to_bytes())
    with pytest.raises(tabletop.LoadError):
        reversi.Game.from_bytes(bytes(data[:-1] + b"\xff\xff"))
    with pytest.raises(TypeError):
        g.play(5)
    with pytest.raises(tabletop.ParseError, match="not a level"):
        reversi.Bot("grandmaster")
    assert issubclass(tabletop.IllegalMoveError, ValueError)


def test_reversi_bots_and_hints():
    p = reversi.Position().after("f5")
    for level in range(1, 11):
        mv = reversi.Bot(level).choose_move(p, seed=1)
        assert mv in p.legal_moves()
    hints = reversi.hints(p)
    assert [h[0] for h in hints] == sorted(p.legal_moves(), key=lambda m: -dict((h[0], h[1]) for h in hints)[m])


def test_nardy_game():
    g = nardy.Game(seed=7)
    assert str(g.position) == "24:15/12:15 w" or g.position.side_to_move == "black"
    turns = 0
    while g.outcome() is None:
        g.play(g.legal_moves()[0])
        turns += 1
    o = g.outcome()
    assert o.points in (1, 2) and o.winner in ("white", "black")
    assert nardy.Game.from_bytes(g.to_bytes()) == g
    assert pickle.loads(pickle.dumps(g)) == g
    with pytest.raises(tabletop.GameOverError):
        g.play("pass")
    assert g.undo() is not None and g.outcome() is None


def test_nardy_positions_and_builder():
    p = nardy.Position()
    assert p.legal_moves("33") == ["24/21 24/21 21/18 21/18", "24/21 24/21 21/18 18/15"]
    after = p.after("65", "24/18 18/13")
    assert str(after) == "24:14,13:1/12:15 b"
    assert hash(after) == hash(nardy.Position(str(after)))
    b = nardy.TurnBuilder(p, (3, 1))
    b.play("24/21")
    assert not b.is_complete()
    with pytest.raises(tabletop.IllegalMoveError):
        b.play("24/23")
    b.play("21/20")
    assert b.finish() == "24/21 21/20"
    with pytest.raises(tabletop.IllegalMoveError, match="remaining dice"):
        p.after("65", "24/17")
    with pytest.raises(tabletop.ParseError):
        nardy.Position("nonsense")


def test_nardy_bots_and_hints():
    p = nardy.Position()
    for level in ["random", "beginner", "greedy", "learned", "strong", "expert"]:
        assert nardy.Bot(level).choose_move(p, "65", seed=3) in p.legal_moves("65")
    hints = nardy.hints(p, "31", level="strong")
    assert hints[0]["loss"] == 0.0
    assert all(h["turn"] in p.legal_moves("31") for h in hints)
    e = nardy.evaluate(p, plies=0)
    assert 0.0 < e["win"] < 1.0


def test_nardy_rules_keywords():
    r = nardy.Rules(scoring="koks", last_roll_tie=True)
    assert "koks" in repr(r)
    with pytest.raises(tabletop.ParseError, match="unknown scoring"):
        nardy.Rules(scoring="double")


def test_battleship():
    rules = battleship.Rules()
    a = battleship.Fleet.random(1)
    b = battleship.Fleet.random(2)
    assert a != b and len(a.ships()) == 10
    g = battleship.Game(a, b)
    shooter = battleship.Shooter("hunt")
    seed = 0
    while not g.is_over():
        g.play(shooter.choose_move(g, seed))
        seed += 1
    winner, shots = g.outcome()
    assert winner in (0, 1) and shots >= 20
    assert battleship.Game.from_bytes(g.to_bytes()) == g
    with pytest.raises(tabletop.GameOverError):
        g.play("a1")
    shots = battleship.simulate("density", 10, seed=5)
    assert shots == battleship.simulate("density", 10, seed=5)
    assert all(20 <= s <= 100 for s in shots)
    assert battleship.uniform_fleets(3, seed=9) == battleship.uniform_fleets(3, seed=9)
    with pytest.raises(tabletop.IllegalMoveError):
        battleship.Fleet(["a1 h 4"])
    assert rules.width == 10


PUZZLE = "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."


def test_sudoku():
    solution = sudoku.solve(PUZZLE)
    assert "." not in solution and len(solution) == 81
    assert sudoku.count_solutions(PUZZLE) == 1
    assert sudoku.count_solutions("." * 81, limit=5) == 5
    r = sudoku.rate(PUZZLE)
    assert r["difficulty"] == "easy"
    steps = sudoku.explain(PUZZLE)
    assert steps and all("explanation" in s for s in steps)
    p = sudoku.generate(seed=4, difficulty="medium")
    assert p == sudoku.generate(seed=4, difficulty="medium")
    assert sudoku.rate(p)["difficulty"] == "medium"
    batch = sudoku.generate_batch(3, seed=1)
    assert batch == sudoku.generate_batch(3, seed=1)
    assert batch[0][0] == sudoku.generate(sudoku.item_seed(1, 0))
    with pytest.raises(tabletop.SolveError):
        sudoku.solve("11" + "." * 79)
    with pytest.raises(tabletop.ParseError):
        sudoku.solve("abc")


def test_batches_are_functions_of_seed_and_count():
    a = nardy.play_games("greedy", "random", 6, seed=3)
    b = nardy.play_games("greedy", "random", 6, seed=3, threads=2)
    assert [g.to_bytes() for g in a] == [g.to_bytes() for g in b]
    assert all(g.outcome() is not None for g in a)
    assert nardy.play_games("greedy", "random", 2, seed=4)[0] != a[0]
    r = reversi.play_games("beginner", "greedy", 6, seed=3)
    assert [g.record for g in r] == [g.record for g in reversi.play_games("beginner", "greedy", 6, seed=3, threads=3)]
    assert all(g.is_over() for g in r) and len({g.record for g in r}) > 1


def test_sudoku_game():
    g = sudoku.Game("1......2..4..3..")
    g.play("r1c2 2")
    g.play("r1c4 3")  # wrong: the solution has 4
    assert g.wrong_entries() == [(0, 3)] and g.mistakes == 1
    assert g.undo() == "r1c4 3"
    assert pickle.loads(pickle.dumps(g)) == g
    assert sudoku.Game.from_bytes(g.to_bytes()) == g
    with pytest.raises(tabletop.IllegalMoveError):
        g.play("r1c1 2")  # a given
    g.play("solve")
    assert g.is_solved()
    with pytest.raises(tabletop.SolveError):
        sudoku.Game("." * 16)
    with pytest.raises(tabletop.LoadError):
        sudoku.Game.from_bytes(b"TTSU\x01\x00\xff")


@pytest.mark.parametrize(
    "cls,magic",
    [(nardy.Game, b"TTNA"), (battleship.Game, b"TTBS"), (reversi.Game, b"TTRV"), (sudoku.Game, b"TTSU")],
)
def test_corrupt_saves_raise_load_error(cls, magic):
    for data in [b"", b"nope", magic, magic + b"\x01\x00", magic + b"\x01\x00" + b"\xff" * 40, magic + b"\x09\x00"]:
        with pytest.raises(tabletop.LoadError):
            cls.from_bytes(data)
    with pytest.raises(TypeError):
        cls.from_bytes("not bytes")


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        nardy.Position().legal_moves(65)
    with pytest.raises(TypeError):
        reversi.Bot(level=3.5)
    with pytest.raises(TypeError):
        nardy.Game(seed="seven")
    with pytest.raises(OverflowError):
        nardy.Game(seed=-1)
