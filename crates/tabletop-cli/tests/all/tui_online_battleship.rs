//! Battleship online full screen, end to end: a real `tabletop serve` and two `tabletop
//! battleship --connect` in pseudo-terminals, one making the table, the other joining
//! with its invite code; both send their fleets, a shot crosses, a resignation ends the
//! game and both terminals check the fleets.

use crate::pty;
use crate::tui_online::two_terminals;

#[test]
fn two_terminals_play_battleship_full_screen_through_a_server() {
    let (_dir, _server, mut ann, mut bob) = two_terminals("battleship", &["[send fleet]"]);
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
}
