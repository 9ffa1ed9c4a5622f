//! Battleship full screen end to end: the real binary in a pseudo-terminal (see
//! `support/pty.rs`): place a ship by keys, the rest at random, shoot by key and by click,
//! quit with the terminal restored.

use crate::pty;

use pty::Pty;

/// The terminal column of column letter `letter` of the enemy grid, and the row of grid
/// row `row` (1-based), read from the screen text.
fn enemy_cell(screen: &str, letter: char, row: usize) -> (u16, u16) {
    let lines: Vec<&str> = screen.lines().collect();
    let title = lines
        .iter()
        .position(|l| l.contains("Enemy waters"))
        .expect("the enemy grid is on screen");
    // the line of column letters holds both grids' letters; the enemy's come second
    let letters: Vec<char> = lines[title + 1].chars().collect();
    let columns: Vec<usize> = letters
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c == letter)
        .map(|(i, _)| i)
        .collect();
    let column = *columns.get(1).expect("two grids");
    ((column) as u16, (title + 1 + row) as u16)
}

#[test]
fn place_shoot_by_key_and_click_then_quit() {
    let mut term = Pty::spawn(&[
        "battleship",
        "--seed",
        "5",
        "--bot",
        "random",
        "--place",
        "manual",
    ]);
    assert!(term.wait_for("Ships to place"), "{}", term.screen());
    assert!(
        term.screen()
            .contains("Battleship · Russian rules · computer: random")
    );
    // the 4-cell ship at a1 by Enter
    term.keys(&[pty::ENTER]);
    assert!(term.wait_for("Placed a1 h 4"), "{}", term.screen());
    // arrows and hjkl move the ship; r turns it; a touching spot is drawn bad and refused
    term.keys(&[pty::DOWN, pty::RIGHT, "h"]);
    assert!(
        term.wait_for("3-cell across at a2: touches a1 h 4"),
        "{}",
        term.screen()
    );
    term.keys(&["r"]);
    assert!(
        term.wait_for("Not here: ships a1 h 4 and a2"),
        "{}",
        term.screen()
    );
    term.keys(&[pty::ENTER]);
    assert!(
        term.wait_for("Illegal: touches a1 h 4"),
        "{}",
        term.screen()
    );
    term.keys(&["j", pty::ENTER]);
    assert!(term.wait_for("Placed a3 v 3"), "{}", term.screen());
    // the rest at random, then start
    term.keys(&["a"]);
    assert!(term.wait_for("A random fleet"), "{}", term.screen());
    term.keys(&[pty::ENTER]);
    assert!(term.wait_for("Enemy waters"), "{}", term.screen());
    assert!(term.wait_for("Your turn"), "{}", term.screen());
    // a shot by key at a1 (the cursor starts there)
    term.keys(&[pty::ENTER]);
    assert!(term.wait_for("You: a1 "), "{}", term.screen());
    // let the computer answer if the turn passed, then click e5
    let screen = term.settle(std::time::Duration::from_millis(1200));
    assert!(screen.contains("Your turn"), "{screen}");
    let (x, y) = enemy_cell(&screen, 'e', 5);
    term.click(x, y);
    assert!(term.wait_for("You: e5 "), "{}", term.screen());
    let end = term.finish(&["q", "y"]);
    assert!(end.exited, "q y did not quit:\n{}", end.screen);
    assert!(!end.alternate_screen && !end.mouse_captured && !end.cursor_hidden);
}
