//! Battleship online full screen, end to end: a real `tabletop serve` and two `tabletop
//! battleship --connect` in pseudo-terminals, one making the table, the other joining
//! with its invite code; both send their fleets, a shot crosses, a resignation ends the
//! game and both terminals check the fleets.

use crate::online::{Server, temp_dir};
use crate::pty::{self, Pty};
use crate::tui_online::invite;

#[test]
fn two_terminals_play_battleship_full_screen_through_a_server() {
    let dir = temp_dir();
    let server = Server::start(&dir.join("server.db"), "127.0.0.1:0");
    let url = format!("{}/", server.url);
    let identity = |who: &str| dir.join(format!("{who}.json")).display().to_string();
    let mut ann = Pty::spawn(&[
        "battleship",
        "--connect",
        &url,
        "--identity",
        &identity("ann"),
    ]);
    assert!(ann.wait_for("Invite code"), "{}", ann.screen());
    assert!(ann.wait_for("[send fleet]"), "{}", ann.screen());
    let code = invite(&ann.screen());
    let mut bob = Pty::spawn(&[
        "battleship",
        "--connect",
        &url,
        "--invite",
        &code,
        "--identity",
        &identity("bob"),
    ]);
    assert!(
        bob.wait_for("Battleship online · first shooter: opponent · second shooter: you"),
        "{}",
        bob.screen()
    );
    assert!(bob.wait_for("[send fleet]"), "{}", bob.screen());
    // Both send the random fleet they start with; the first shooter's turn comes.
    bob.keys(&[pty::ENTER]);
    assert!(
        ann.wait_for("Battleship online · first shooter: you · second shooter: opponent"),
        "{}",
        ann.screen()
    );
    ann.keys(&[pty::ENTER]);
    assert!(ann.wait_for("Your turn"), "{}", ann.screen());
    // The aim starts on a1: Enter shoots it, and the other terminal shows the shot.
    ann.keys(&[pty::ENTER]);
    assert!(bob.wait_for("Opponent: a1"), "{}", bob.screen());
    // The second shooter resigns (R twice): both see the end and the fleets verified.
    bob.keys(&["R", "R"]);
    assert!(bob.wait_for("You lose by resignation"), "{}", bob.screen());
    assert!(ann.wait_for("You win by resignation"), "{}", ann.screen());
    for pty in [&mut ann, &mut bob] {
        assert!(pty.wait_for("Fleets verified"), "{}", pty.screen());
        assert!(pty.screen().contains("Enemy fleet"), "{}", pty.screen());
    }
    for pty in [ann, bob] {
        let end = pty.finish(&["q"]);
        assert!(end.exited && !end.alternate_screen && !end.mouse_captured);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
