//! Long Nardy full screen end to end: the real binary in a pseudo-terminal (see
//! `support/pty.rs`), a turn played with keys, the bot's reply, quitting.

use crate::pty;

use pty::Pty;

#[test]
fn a_turn_by_keys_then_the_bot_replies_and_q_quits() {
    // Seed 0: White (you) opens with 3-2; the cursor starts on the head, point 24.
    let mut term = Pty::spawn(&["nardy", "--seed", "0", "--black", "bot:random"]);
    assert!(term.wait_for("White to play [3] [2]"), "{}", term.screen());
    let screen = term.screen();
    for text in [
        "Long Nardy · White: you · Black: bot (random)",
        "pips 360",
        "off",
    ] {
        assert!(screen.contains(text), "{text} missing:\n{screen}");
    }
    // Select 24: its destinations are listed; three points left is 21.
    term.keys(&[pty::ENTER]);
    assert!(term.wait_for("24 goes to: 21 22"), "{}", term.screen());
    term.keys(&[pty::LEFT, pty::LEFT, pty::LEFT, pty::ENTER]);
    assert!(term.wait_for("played: 24/21"), "{}", term.screen());
    // The cursor is on the moved checker: select it and play the 2 to 19.
    term.keys(&[pty::ENTER, pty::LEFT, pty::LEFT, pty::ENTER]);
    assert!(term.wait_for("last: White 3-2"), "{}", term.screen());
    // The bot plays its turn step by step, then it is White's turn again.
    assert!(term.wait_for("last: Black"), "{}", term.screen());
    assert!(term.wait_for("White (you) to play"), "{}", term.screen());
    // A game is under way: q asks first, y quits and the terminal is restored.
    let end = term.finish(&["q", "y"]);
    assert!(end.exited, "q y did not quit:\n{}", end.screen);
    assert!(!end.alternate_screen && !end.mouse_captured && !end.cursor_hidden);
}

#[test]
fn a_click_selects_and_plays_a_step() {
    let mut term = Pty::spawn(&["nardy", "--seed", "0", "--black", "bot:random"]);
    assert!(term.wait_for("White to play"), "{}", term.screen());
    // The board starts on row 1 (under the title); point 24's column is x 41-43 and its
    // label on row 2, point 22's column x 35-37.
    term.click(42, 3);
    assert!(term.wait_for("24 goes to: 21 22"), "{}", term.screen());
    term.click(36, 3);
    assert!(term.wait_for("played: 24/22"), "{}", term.screen());
    let end = term.finish(&["q", "y"]);
    assert!(end.exited, "{}", end.screen);
}

#[test]
fn the_default_bot_opens_when_it_wins_the_roll_off() {
    // Seed 3: Black, the default bot (strong: the network at 1 ply, its database built in
    // the background), wins the roll-off with 5-2 and moves first.
    let mut term = Pty::spawn(&["nardy", "--seed", "3"]);
    assert!(term.wait_for("Black: bot (strong)"), "{}", term.screen());
    assert!(term.wait_for("last: Black 5-2"), "{}", term.screen());
    assert!(term.wait_for("White (you) to play"), "{}", term.screen());
    let end = term.finish(&["q", "y"]);
    assert!(end.exited, "{}", end.screen);
}
