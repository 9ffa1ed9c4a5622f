//! The full-screen host end to end: the real binary in a pseudo-terminal (see
//! `support/pty.rs`).

#[path = "support/pty.rs"]
mod pty;

use pty::Pty;

#[test]
fn tabletop_alone_opens_the_games_menu_and_q_quits_restoring_the_terminal() {
    let mut term = Pty::spawn(&[]);
    assert!(term.wait_for("Choose a game"), "{}", term.screen());
    let screen = term.screen();
    for game in ["Long Nardy", "Sudoku", "Battleship", "Reversi", "Quit"] {
        assert!(screen.contains(game), "{game} missing:\n{screen}");
    }
    assert!(term.vt().alternate_screen());
    let end = term.finish(&["q"]);
    assert!(end.exited, "q did not quit:\n{}", end.screen);
    assert!(!end.alternate_screen, "the alternate screen was not left");
    assert!(!end.mouse_captured, "the mouse is still captured");
    assert!(!end.cursor_hidden, "the cursor is still hidden");
}

#[test]
fn ctrl_c_quits_at_once_and_restores_the_terminal() {
    let mut term = Pty::spawn(&[]);
    assert!(term.wait_for("Choose a game"), "{}", term.screen());
    // Into a game's menu first: Ctrl-C must quit from anywhere without asking.
    term.keys(&["4", pty::ESC]);
    assert!(term.wait_for("Resume"), "{}", term.screen());
    let end = term.finish(&[pty::CTRL_C]);
    assert!(end.exited, "Ctrl-C did not quit:\n{}", end.screen);
    assert!(!end.alternate_screen && !end.mouse_captured && !end.cursor_hidden);
}

#[test]
fn plain_keeps_the_line_mode_on_a_terminal() {
    let mut term = Pty::spawn(&["--plain"]);
    // `tabletop --plain` alone prints the help, as it does in a pipe.
    assert!(term.wait_for("Usage"), "{}", term.screen());
    let end = term.finish(&[]);
    assert!(end.exited && !end.alternate_screen);
    let raw = String::from_utf8_lossy(&end.raw);
    assert!(
        !raw.contains("\u{1b}[?1049h"),
        "--plain entered the alternate screen"
    );
}
