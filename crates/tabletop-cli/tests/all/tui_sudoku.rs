//! The sudoku screen end to end: the real binary full screen in a pseudo-terminal (see
//! `support/pty.rs`), played with keys.

use crate::pty;

use std::path::PathBuf;

use pty::Pty;
use sudoku_core::Game;
use tempfile::TempDir;

use crate::support::temp_dir;

/// A 4×4 puzzle: solution 1234 3412 2143 4321.
const FOUR: &str = "1......2..4..3..";

/// A save of a new game of `puzzle` in a fresh temporary folder, which goes when the
/// `TempDir` is dropped (hold it until the program that uses the save has stopped).
fn save_of(puzzle: &str, name: &str) -> (TempDir, PathBuf) {
    let dir = temp_dir(&format!("tui-sudoku-{name}"));
    let path = dir.path().join("start.ttsu");
    let game = Game::new(puzzle.parse().expect("a puzzle")).expect("proper");
    std::fs::write(&path, game.to_bytes()).expect("write the save");
    (dir, path)
}

#[test]
fn a_four_by_four_puzzle_solved_with_keys() {
    let (_dir, save) = save_of(FOUR, "solve");
    let game = Game::new(FOUR.parse().expect("a puzzle")).expect("proper");
    let mut term = Pty::spawn(&["sudoku", "--load", save.to_str().expect("a UTF-8 path")]);
    assert!(term.wait_for("Sudoku · 4×4"), "{}", term.screen());
    assert!(term.wait_for("12 to fill"), "{}", term.screen());
    // The cursor starts on the first empty cell, r1c2.
    assert!(term.screen().contains("r1c2: empty"), "{}", term.screen());
    // A wrong digit first: a mistake, then the hint names it and t again clears it.
    term.keys(&["3"]);
    assert!(term.wait_for("1 mistake"), "{}", term.screen());
    term.keys(&["t"]);
    assert!(term.wait_for("is wrong"), "{}", term.screen());
    term.keys(&["t"]);
    // The message comes first on the status line and may push the count off 80 columns.
    assert!(term.wait_for("Played the hint"), "{}", term.screen());
    assert!(term.wait_for(" 12 to"), "{}", term.screen());
    // Pencil marks: p, then 2 and 4 are notes of r1c2.
    term.keys(&["p", "2", "4", "p"]);
    assert!(term.wait_for("r1c2: notes 2 4"), "{}", term.screen());
    // Every empty cell, row by row, with the arrows and the solution's digit.
    let (mut r, mut c) = (0usize, 1usize);
    let solution = game.solution().clone();
    for row in 0..4 {
        for col in 0..4 {
            if game.is_given(row, col) {
                continue;
            }
            let mut keys: Vec<&str> = Vec::new();
            while r < row {
                keys.push(pty::DOWN);
                r += 1;
            }
            while c < col {
                keys.push(pty::RIGHT);
                c += 1;
            }
            while c > col {
                keys.push(pty::LEFT);
                c -= 1;
            }
            let digit = solution.get(row, col).expect("solved").to_string();
            keys.push(&digit);
            term.keys(&keys);
        }
    }
    assert!(term.wait_for("Solved in"), "{}", term.screen());
    assert!(
        term.screen().contains("with 1 mistake"),
        "{}",
        term.screen()
    );
    assert!(term.screen().contains("[new game]"), "{}", term.screen());
    let end = term.finish(&["q", "y"]);
    assert!(end.exited, "q did not quit:\n{}", end.screen);
    assert!(!end.alternate_screen && !end.mouse_captured);
}

#[test]
fn a_generated_puzzle_opens_full_screen_and_plain_keeps_the_line_mode() {
    let mut term = Pty::spawn(&["sudoku", "--seed", "3", "--size", "4"]);
    assert!(term.wait_for("Sudoku · 4×4 · easy"), "{}", term.screen());
    assert!(term.screen().contains("[notes]"), "{}", term.screen());
    // Moving the cursor changes the cell named in the panel.
    term.keys(&["c"]);
    assert!(term.wait_for("Check"), "{}", term.screen());
    let end = term.finish(&["q", "y"]);
    assert!(end.exited, "{}", end.screen);

    let mut term = Pty::spawn(&["--plain", "sudoku", "--seed", "3", "--size", "4"]);
    assert!(term.wait_for("sudoku>"), "{}", term.screen());
    let end = term.finish(&["quit\r"]);
    assert!(end.exited && !end.alternate_screen, "{}", end.screen);
}
