//! The full-screen host end to end: the real binary in a pseudo-terminal (see
//! `support/pty.rs`).

use crate::pty;

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

/// Black's disc count on the reversi screen's status line (`● 4  ○ 1`).
fn black_count(screen: &str) -> Option<u32> {
    let status = screen.lines().rev().find(|l| l.contains("● "))?;
    let at = status.rfind("● ")?;
    status[at + "● ".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[test]
fn reversi_from_the_games_menu_plays_two_moves_then_q_asks_and_quits() {
    let mut term = Pty::spawn(&[]);
    assert!(term.wait_for("Choose a game"), "{}", term.screen());
    term.keys(&[pty::DOWN, pty::DOWN, pty::DOWN, pty::ENTER]);
    assert!(term.wait_for("Black ● to move"), "{}", term.screen());
    assert!(
        term.screen()
            .starts_with("Reversi · Black: you · White: bot")
    );
    // The cursor starts on a legal move: Enter plays it; the bot answers.
    term.keys(&[pty::ENTER]);
    assert!(term.wait_for("last: White"), "{}", term.screen());
    assert!(term.wait_for("Black ● to move"), "{}", term.screen());
    term.keys(&[pty::ENTER]);
    assert!(
        term.wait_for("Black ● to move · last: White"),
        "{}",
        term.screen()
    );
    let screen = term.settle(std::time::Duration::from_millis(300));
    assert!(screen.contains("Last: White"), "{screen}");
    term.keys(&["q"]);
    assert!(
        term.wait_for("Quit the game under way?"),
        "{}",
        term.screen()
    );
    let end = term.finish(&["y"]);
    assert!(end.exited, "{}", end.screen);
    assert!(!end.alternate_screen && !end.mouse_captured && !end.cursor_hidden);
}

#[test]
fn reversi_plays_with_keys_and_the_mouse_in_a_terminal() {
    let mut term = Pty::spawn(&["reversi", "--white", "bot:1", "--seed", "3"]);
    assert!(term.wait_for("Black ● to move"), "{}", term.screen());
    // d3 is legal at the start: the cell of file d (4th), rank 3 on the 80×24 layout.
    let screen = term.screen();
    let rows: Vec<&str> = screen.lines().collect();
    let row = rows
        .iter()
        .position(|l| l.starts_with("3 "))
        .expect("rank 3") as u16;
    let letters = rows
        .iter()
        .find(|l| l.contains("a   b   c"))
        .expect("the files");
    let column = letters.find('d').expect("file d") as u16;
    term.click(column, row);
    assert!(term.wait_for("last: White"), "{}", term.screen());
    let after_click = black_count(&term.settle(std::time::Duration::from_millis(300)));
    assert!(after_click.is_some_and(|n| n >= 2), "{}", term.screen());
    // Then the keyboard: the hint, Enter plays it.
    term.keys(&["t"]);
    assert!(term.wait_for("Hint: "), "{}", term.screen());
    term.keys(&[pty::ENTER]);
    assert!(term.wait_for("last: White"), "{}", term.screen());
    let end = term.finish(&[pty::CTRL_C]);
    assert!(end.exited && !end.alternate_screen, "{}", end.screen);
}

#[test]
fn a_panic_restores_the_terminal_before_its_message() {
    let mut term = Pty::spawn_with_env(&["reversi"], &[("TABLETOP_TEST_PANIC", "1")]);
    assert!(term.wait_for("Black ● to move"), "{}", term.screen());
    let end = term.finish(&["\u{1b}[24~"]); // F12
    assert!(end.exited, "{}", end.screen);
    assert!(!end.alternate_screen && !end.mouse_captured && !end.cursor_hidden);
    let raw = String::from_utf8_lossy(&end.raw);
    let left = raw
        .rfind("\u{1b}[?1049l")
        .expect("the alternate screen is left");
    let message = raw
        .find("error: internal error: test panic on F12")
        .expect("the panic's one-line message");
    assert!(
        left < message,
        "the message printed inside the alternate screen"
    );
    assert!(end.screen.contains("internal error"), "{}", end.screen);
}

#[test]
fn reversi_play_load_continues_a_save_full_screen() {
    let dir = crate::support::temp_dir("tui-load");
    let save = dir.path().join("game.save");
    let save = save.to_str().expect("a UTF-8 path");
    // Save a game in line mode (a pipe), then continue it full screen.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(["reversi", "play", "--white", "human"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin");
            writeln!(stdin, "f5\nd6\nsave {save}\nquit")?;
            drop(stdin);
            child.wait()
        })
        .expect("line mode runs");
    assert!(out.success());
    let mut term = Pty::spawn(&["reversi", "play", "--load", save, "--white", "human"]);
    assert!(
        term.wait_for("Black ● to move · last: White d6"),
        "{}",
        term.screen()
    );
    assert!(term.screen().contains("Black: human · White: human"));
    let end = term.finish(&[pty::CTRL_C]);
    assert!(end.exited);
}
