//! Online play full screen, end to end: a real `tabletop serve` and two `tabletop nardy
//! --connect` in pseudo-terminals (see `support/pty.rs`), one making the table, the
//! other joining with its invite code.

use tempfile::TempDir;

use crate::online::Server;
use crate::pty::{self, Pty};
use crate::support::temp_dir;

/// The invite code on a screen (`Invite code: XXXXXXXXXX`).
pub(crate) fn invite(screen: &str) -> String {
    let at = screen.find("Invite code").expect("an invite code") + "Invite code".len();
    screen[at..]
        .trim_start_matches([':', ' '])
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// A real server and two terminals at one new table of `game`: Ann makes it, and once her
/// screen shows the invite code (and each of `ann_ready`) Bob joins with the code. The
/// server and the folder of its database and the players' identities come back too, the
/// folder first: dropped last, once the programs that write into it have stopped.
pub(crate) fn two_terminals(game: &str, ann_ready: &[&str]) -> (TempDir, Server, Pty, Pty) {
    let tmp = temp_dir("tui-online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("server.db"), "127.0.0.1:0");
    let url = format!("{}/", server.url);
    let identity = |who: &str| dir.join(format!("{who}.json")).display().to_string();
    let mut ann = Pty::spawn(&[game, "--connect", &url, "--identity", &identity("ann")]);
    for text in std::iter::once(&"Invite code").chain(ann_ready) {
        assert!(ann.wait_for(text), "{}", ann.screen());
    }
    let code = invite(&ann.screen());
    let bob = Pty::spawn(&[
        game,
        "--connect",
        &url,
        "--invite",
        &code,
        "--identity",
        &identity("bob"),
    ]);
    (tmp, server, ann, bob)
}

#[test]
fn two_terminals_play_nardy_full_screen_through_a_server() {
    let (_dir, _server, mut ann, mut bob) = two_terminals("nardy", &[]);
    assert!(
        bob.wait_for("Long Nardy online · White: opponent · Black: you"),
        "{}",
        bob.screen()
    );
    assert!(
        ann.wait_for("White: you · Black: opponent"),
        "{}",
        ann.screen()
    );
    // Once both seeds are in, the roll-off decides who moves first; that player's status
    // line says so.
    let start = std::time::Instant::now();
    let white_first = loop {
        if ann.screen().contains("Your move") {
            break true;
        }
        if bob.screen().contains("Your move") {
            break false;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "nobody's move:\n{}\n{}",
            ann.screen(),
            bob.screen()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let (mut mover, mut other, mover_color) = if white_first {
        (ann, bob, "White")
    } else {
        (bob, ann, "Black")
    };
    // A whole turn with keys: Tab to a checker that can move, Enter, Tab to its first
    // destination, Enter; as often as the dice allow.
    for _ in 0..4 {
        if !mover.screen().contains("Your move") {
            break;
        }
        mover.keys(&["\t", pty::ENTER, "\t", pty::ENTER]);
        mover.settle(std::time::Duration::from_millis(300));
    }
    // The other terminal shows the turn played, and it is its move now.
    assert!(
        other.wait_for(&format!("last: {mover_color}")),
        "{}",
        other.screen()
    );
    assert!(other.wait_for("Your move"), "{}", other.screen());
    // The mover leaves (q, then y): the terminal is restored and says how to come back;
    // the other sees that the mover is away.
    let end = mover.finish(&["q", "y"]);
    assert!(end.exited && !end.alternate_screen, "{}", end.screen);
    assert!(end.screen.contains("Left table"), "{}", end.screen);
    assert!(
        other.wait_for(&format!("{mover_color} is away")),
        "{}",
        other.screen()
    );
    let end = other.finish(&["q", "y"]);
    assert!(end.exited && !end.alternate_screen && !end.mouse_captured);
}

/// The number before " to fill" on a sudoku screen's status line.
fn to_fill(screen: &str) -> usize {
    let at = screen.find(" to fill").expect("the status line");
    let digits: String = screen[..at]
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().unwrap()
}

#[test]
fn sudoku_plays_full_screen_through_a_server() {
    let tmp = temp_dir("tui-online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("server.db"), "127.0.0.1:0");
    let url = format!("{}/", server.url);
    let identity = dir.join("sol.json").display().to_string();
    let mut sol = Pty::spawn(&[
        "sudoku",
        "--connect",
        &url,
        "--size",
        "4",
        "--identity",
        &identity,
    ]);
    assert!(sol.wait_for("Sudoku online · 4×4"), "{}", sol.screen());
    assert!(sol.wait_for("Online table t"), "{}", sol.screen());
    // A digit in the first empty cell (where the cursor starts) goes to the server and
    // comes back in its view: one cell less to fill.
    let before = to_fill(&sol.screen());
    sol.keys(&["1"]);
    let after = format!("{} to fill", before - 1);
    assert!(sol.wait_for(&after), "{}", sol.screen());
    // Hints need the solution, which the server keeps.
    sol.keys(&["t"]);
    assert!(sol.wait_for("offline only"), "{}", sol.screen());
    // r twice resigns: the server ends the game.
    sol.keys(&["r", "r"]);
    assert!(sol.wait_for("solution is shown"), "{}", sol.screen());
    let end = sol.finish(&["q", "y"]);
    assert!(end.exited && !end.alternate_screen && !end.mouse_captured);
}

#[test]
fn a_full_screen_reversi_game_ends_and_its_rematch_swaps_the_sides() {
    let (_dir, _server, mut ann, mut bob) = two_terminals("reversi", &[]);
    assert!(
        bob.wait_for("Black: opponent · White: you"),
        "{}",
        bob.screen()
    );
    // Ann (Black) plays d3, where the cursor starts; Bob resigns with r r.
    assert!(ann.wait_for("to move: you"), "{}", ann.screen());
    ann.keys(&[pty::ENTER]);
    assert!(bob.wait_for("to move: you"), "{}", bob.screen());
    bob.keys(&["r", "r"]);
    assert!(ann.wait_for("Game over"), "{}", ann.screen());
    assert!(bob.wait_for("press n"), "{}", bob.screen());
    // n asks for the rematch; Ann hears of it and joins with n too.
    bob.keys(&["n"]);
    assert!(
        bob.wait_for("Black: you · White: opponent"),
        "{}",
        bob.screen()
    );
    assert!(ann.wait_for("asks for a rematch"), "{}", ann.screen());
    ann.keys(&["n"]);
    assert!(
        ann.wait_for("Black: opponent · White: you"),
        "{}",
        ann.screen()
    );
    // Bob moves first now.
    assert!(bob.wait_for("to move: you"), "{}", bob.screen());
    bob.keys(&[pty::ENTER]);
    assert!(ann.wait_for("to move: you"), "{}", ann.screen());
    let end = ann.finish(&["q", "y"]);
    assert!(end.exited && !end.alternate_screen, "{}", end.screen);
    assert!(end.screen.contains("Left table"), "{}", end.screen);
    let end = bob.finish(&["q", "y"]);
    assert!(end.exited);
}
