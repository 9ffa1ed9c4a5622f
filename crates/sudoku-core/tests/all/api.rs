//! The shared shape: the position (`Grid`) reads and prints its notation, refuses bad
//! edits without changing, the solver counts agree with known numbers, the serde forms
//! written by an older build still load and are strict; the `Game` plays, refuses a bad
//! move without changing, undoes and redoes, saves in the shared format (strictly) and
//! loads its committed fixture. Sudoku has no bots, levels of bots, side to move or perft.

use crate::common;

use common::{data_path, pattern_solution, sample};
use sudoku_core::transform::Transform;
use sudoku_core::{Backend, GenerateOptions, Grid, GridError, Size, Solver, Symmetry};
use tabletop_common::{LoadError, decode_body};

const PUZZLE: &str =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";

fn fixture(name: &str) -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/").to_owned() + name;
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {path} is missing: {e}"))
}

#[test]
fn the_notation_round_trips_for_every_size() {
    for size in Size::ALL {
        let solved = pattern_solution(size);
        let mut cells = solved.cells().to_vec();
        for (i, v) in cells.iter_mut().enumerate() {
            if i % 3 == 1 {
                *v = 0;
            }
        }
        for grid in [solved.clone(), Grid::from_cells(size, &cells).unwrap()] {
            let line = grid.to_string();
            assert_eq!(line.len(), size.cells());
            assert_eq!(line.parse::<Grid>().unwrap(), grid);
            assert_eq!(line.to_lowercase().parse::<Grid>().unwrap(), grid);
        }
    }
}

#[test]
fn a_refused_edit_leaves_the_grid_unchanged() {
    let mut grid: Grid = PUZZLE.parse().unwrap();
    let before = grid.clone();
    for (row, col, value) in [
        (9, 0, Some(1)),
        (0, 9, None),
        (usize::MAX, usize::MAX, Some(1)),
        (0, 0, Some(0)),
        (0, 0, Some(10)),
        (0, 0, Some(u8::MAX)),
    ] {
        assert!(grid.set(row, col, value).is_err(), "{row} {col} {value:?}");
        assert_eq!(grid, before);
    }
    assert_eq!(grid.get(9, 0), None);
    assert_eq!(grid.get(0, usize::MAX), None);
    // A legal edit and its reverse.
    grid.set(0, 0, Some(8)).unwrap();
    assert_eq!(grid.get(0, 0), Some(8));
    grid.set(0, 0, None).unwrap();
    assert_eq!(grid, before);
    assert_eq!(
        grid.set(0, 0, Some(10)),
        Err(GridError::BadValue {
            index: 0,
            value: 10,
            size: Size::Nine
        })
    );
    assert_eq!(
        grid.set(0, 9, Some(1)).unwrap_err().to_string(),
        "row 0, column 9 (0-based) is outside a 9×9 grid"
    );
}

#[test]
fn solver_counts_match_known_numbers() {
    // 288 solved 4×4 grids; a 9×9 grid with two rows blank has exactly 2 refills.
    let empty4 = Grid::empty(Size::Four);
    assert_eq!(empty4.count_solutions(1000), 288);
    assert_eq!(
        Solver::new()
            .backend(Backend::General)
            .count(&empty4, 1000)
            .unwrap(),
        288
    );
    let puzzles = sample("puzzles0_kaggle_sample69.txt", 69);
    assert_eq!(puzzles.len(), 69);
    for p in &puzzles {
        assert_eq!(p.count_solutions(2), 1, "{p}");
        assert_eq!(
            Solver::new().backend(Backend::General).count(p, 2).unwrap(),
            1
        );
    }
    assert!(
        data_path("puzzles0_kaggle_sample69.txt")
            .ends_with("data/sudoku/puzzles0_kaggle_sample69.txt")
    );
}

#[test]
fn the_committed_fixtures_load() {
    let grid: Grid = decode_body(&fixture("grid.postcard")).unwrap();
    assert_eq!(
        grid.to_string(),
        "864371259..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
    );
    let options: GenerateOptions = decode_body(&fixture("generate-options.postcard")).unwrap();
    assert_eq!(
        options,
        GenerateOptions {
            size: Size::Six,
            symmetry: Symmetry::Mirror,
            minimal: true,
            clues: Some(12),
            attempts: 7,
        }
    );
    let t: Transform = decode_body(&fixture("transform.postcard")).unwrap();
    let applied = String::from_utf8(fixture("transform-applied.txt")).unwrap();
    let lines: Vec<&str> = applied.lines().collect();
    assert_eq!(lines[0], grid.to_string());
    assert_eq!(t.apply(&grid).unwrap().to_string(), lines[1]);
}

#[test]
fn serde_forms_round_trip_and_are_strict() {
    let grid: Grid = PUZZLE.parse().unwrap();
    let bytes = postcard::to_allocvec(&grid).unwrap();
    assert_eq!(decode_body::<Grid>(&bytes).unwrap(), grid);
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(decode_body::<Grid>(&longer), Err(LoadError::Corrupt));
    assert_eq!(
        decode_body::<Grid>(&bytes[..bytes.len() - 1]),
        Err(LoadError::Corrupt)
    );
    // A grid line that is not a grid is refused, not loaded.
    let bad = postcard::to_allocvec("12").unwrap();
    assert!(decode_body::<Grid>(&bad).is_err());
}

#[test]
fn a_transform_that_breaks_the_rules_does_not_load() {
    let good = fixture("transform.postcard");
    assert!(decode_body::<Transform>(&good).is_ok());
    // Layout: size, then 9 and the 9 new symbols, 9 and the 9 source rows, 9 and the 9
    // source columns, transpose.
    assert_eq!(good.len(), 32);
    let mut twice = good.clone();
    twice[3] = twice[2]; // a symbol mapped twice
    assert!(decode_body::<Transform>(&twice).is_err());
    let mut zero = good.clone();
    zero[2] = 0; // symbol 0 is no symbol
    assert!(decode_body::<Transform>(&zero).is_err());
    // Rows 0 and 3 swapped: a permutation, but it splits bands and breaks boxes.
    let rows = 12..21;
    let mut split = good.clone();
    let (a, b) = (
        split[rows.clone()].iter().position(|&r| r == 0).unwrap() + 12,
        split[rows].iter().position(|&r| r == 3).unwrap() + 12,
    );
    split.swap(a, b);
    assert!(decode_body::<Transform>(&split).is_err());
    // A 6×6 transform cannot transpose.
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    let six = postcard::to_allocvec(&Transform::random(Size::Six, &mut rng)).unwrap();
    let mut transposed = six.clone();
    *transposed.last_mut().unwrap() = 1;
    assert!(decode_body::<Transform>(&six).is_ok());
    assert!(decode_body::<Transform>(&transposed).is_err());
}

#[test]
fn the_game_has_the_shared_shape() {
    use sudoku_core::{Game, Move, PlayError, SAVE_FORMAT};
    let mut game = Game::new(PUZZLE.parse().unwrap()).unwrap();
    let start = game.clone();
    // A refused move leaves the game exactly as it was.
    let refused: Move = "r1c3 1".parse().unwrap();
    assert_eq!(game.play(refused), Err(PlayError::Given { row: 0, col: 2 }));
    assert_eq!(game, start);
    // undo restores, redo replays.
    let m: Move = "r1c1 8".parse().unwrap();
    game.play(m).unwrap();
    let after = game.clone();
    assert_eq!(game.undo(), Some(m));
    assert_eq!(game.grid(), start.grid());
    assert_eq!(game.undo(), None);
    assert_eq!(game.redo(), Some(m));
    assert_eq!(game, after);
    assert_eq!(game.redo(), None);
    assert_eq!(game.outcome(), None);
    // Save, load, and a save one byte too long or too short.
    let bytes = game.to_bytes();
    assert_eq!(bytes[..4], SAVE_FORMAT.magic());
    assert_eq!(Game::from_bytes(&bytes).unwrap(), game);
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(Game::from_bytes(&longer), Err(LoadError::Corrupt));
    assert_eq!(
        Game::from_bytes(&bytes[..bytes.len() - 1]),
        Err(LoadError::Corrupt)
    );
    // The committed fixture (format 1) loads.
    let fixture = Game::from_bytes(&fixture("game-v1.ttsu")).unwrap();
    assert_eq!(fixture.moves().len(), 6);
    // The end of the game is the solved grid.
    game.play(Move::Solve).unwrap();
    assert!(game.outcome().is_some_and(|o| o.revealed));
}
