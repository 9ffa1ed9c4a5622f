//! `tabletop nardy`: moves, perft and scripted play sessions.

use crate::support;

use support::{stderr, stdout, tabletop, temp_dir};

#[test]
fn moves_lists_distinct_turns_sorted_by_position() {
    let out = tabletop(&["nardy", "moves", "24:15/12:15 w", "33"], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].ends_with("\t24:13,18:2/12:15 b"), "{text}");
    assert!(lines[1].ends_with("\t24:13,21:1,15:1/12:15 b"), "{text}");
    let out = tabletop(&["nardy", "moves", "8:1,6:14/12:15 w", "6-2"], "");
    assert_eq!(
        stdout(&out),
        "8/2 6/4\t6:13,4:1,2:1/12:15 b\n8/2 2/off\t6:14/12:15 b\n"
    );
}

#[test]
fn moves_prints_a_forced_pass() {
    let p = "24:1,1:14/23:1,22:1,21:1,20:1,19:1,18:1,12:9 w";
    let out = tabletop(&["nardy", "moves", p, "65"], "");
    assert_eq!(
        stdout(&out),
        "pass\t24:1,1:14/23:1,22:1,21:1,20:1,19:1,18:1,12:9 b\n"
    );
}

#[test]
fn moves_respects_rule_flags() {
    let p = "24:14,4:1/12:15 b";
    let strict = tabletop(&["nardy", "moves", p, "22"], "");
    assert_eq!(stdout(&strict).lines().count(), 1);
    let any = tabletop(
        &[
            "nardy",
            "moves",
            p,
            "22",
            "--head-exception",
            "any-blocked-double",
        ],
        "",
    );
    assert_eq!(stdout(&any).lines().count(), 2, "{}", stdout(&any));
    let t = "24:9,23:1,20:1,19:1,18:1,17:1,16:1/22:1,12:14 w";
    let every = stdout(&tabletop(&["nardy", "moves", t, "21"], ""));
    let end = stdout(&tabletop(
        &["nardy", "moves", t, "21", "--block-check", "end-of-turn"],
        "",
    ));
    assert!(!every.contains("24:9,20:2,19:1"));
    assert!(end.contains("24:9,20:2,19:1"));
}

#[test]
fn moves_rejects_bad_input_with_one_line() {
    for (pos, dice) in [
        ("24:16/12:15 w", "65"),
        ("24:15/12:15", "65"),
        ("24:15/24:15 w", "65"),
        ("24:15/12:15 w", "7-1"),
        ("24:15/12:15 w", "x"),
    ] {
        let out = tabletop(&["nardy", "moves", pos, dice], "");
        assert_eq!(out.status.code(), Some(1), "{pos} {dice}");
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let out = tabletop(
        &["nardy", "moves", "24:15/12:15 w", "65", "--opening", "x"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn perft_last_line() {
    let out = tabletop(&["nardy", "perft", "2"], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).lines().last(), Some("perft 2 330"));
    assert!(stderr(&out).contains("time"));
    let out = tabletop(&["nardy", "perft", "3", "--opening", "reroll"], "");
    assert_eq!(stdout(&out).lines().last(), Some("perft 3 35387"));
    let out = tabletop(&["nardy", "perft", "1", "--position", "1:1/13:1 w"], "");
    assert_eq!(stdout(&out).lines().last(), Some("perft 1 21"));
    let out = tabletop(
        &["nardy", "--opening", "reroll", "perft", "1", "--divide"],
        "",
    );
    let text = stdout(&out);
    assert!(text.contains("\n33 2\n"), "{text}");
    assert_eq!(text.lines().last(), Some("perft 1 22"));
}

#[test]
fn play_session_with_steps_undo_and_save() {
    let tmp = temp_dir("nardy-cli");
    let dir = tmp.path();
    let save = dir.join("g.nardy");
    let script = format!(
        "help\nrules\nmoves\nfrom 24\nfrom 7\n24/1\nnonsense\nundo\nsave {}\nquit\n",
        save.display()
    );
    let out = tabletop(
        &[
            "nardy", "play", "--white", "human", "--black", "human", "--seed", "5",
        ],
        &script,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Roll-off: White"), "{text}");
    assert!(text.contains("White to move, dice 2-1"), "{text}");
    assert!(text.contains("1 legal turn(s):"), "{text}");
    assert!(text.contains("From 24: 22 23"), "{text}");
    let err = stderr(&out);
    assert!(
        err.contains("error: you have no checker on point 7"),
        "{err}"
    );
    assert!(err.contains("error: illegal:"), "{err}");
    assert!(err.contains("error: unknown command `nonsense`"), "{err}");
    assert!(err.contains("error: nothing to undo"), "{err}");
    assert!(text.contains("Saved to"), "{text}");
    // One step, then the rest of the turn; then Black's turn.
    let out = tabletop(
        &[
            "nardy",
            "play",
            "--load",
            save.to_str().unwrap(),
            "--black",
            "human",
        ],
        "24/22\nundo\n24/23\n23/21\nboard\nquit\n",
    );
    let text = stdout(&out);
    assert!(text.contains("Loaded a game of 0 turns."), "{text}");
    assert!(text.contains("Took back 24/22."), "{text}");
    assert!(
        text.contains("Played so far: 24/23; dice left: 2."),
        "{text}"
    );
    assert!(text.contains("White played 24/23 23/21."), "{text}");
    assert!(text.contains("Position: 24:14,21:1/12:15 b"), "{text}");
    assert!(text.contains("Black to move"), "{text}");
    // A corrupt save is a one-line error.
    std::fs::write(&save, b"garbage").unwrap();
    let out = tabletop(
        &["nardy", "play", "--load", save.to_str().unwrap()],
        "quit\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not a Tabletop Long Nardy save"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bots_play_a_whole_game() {
    let out = tabletop(
        &[
            "nardy", "play", "--white", "bot", "--black", "bot", "--seed", "9",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("(bot) rolls"), "{text}");
    assert!(text.contains(" wins: "), "{text}");
    // Same seed, same game.
    let again = tabletop(
        &[
            "nardy", "play", "--white", "bot", "--black", "bot", "--seed", "9",
        ],
        "",
    );
    assert_eq!(stdout(&again), text);
}

#[test]
fn default_is_human_against_bot() {
    let out = tabletop(&["nardy"], "quit\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Roll-off"), "{text}");
    assert!(
        text.contains("White to move") || text.contains("Black (bot) rolls"),
        "{text}"
    );
}

#[test]
fn play_options_follow_the_game_name() {
    // Before: `tabletop nardy --seed 11` was refused; now it plays like `nardy play --seed 11`.
    let direct = tabletop(&["nardy", "--seed", "11", "--white", "bot"], "");
    assert_eq!(direct.status.code(), Some(0), "{}", stderr(&direct));
    let with_play = tabletop(&["nardy", "play", "--seed", "11", "--white", "bot"], "");
    assert_eq!(stdout(&direct), stdout(&with_play));
    assert!(stdout(&direct).contains(" wins: "), "{}", stdout(&direct));
    // Play options given to another command are a usage error.
    let out = tabletop(&["nardy", "--seed", "11", "perft", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("play options"), "{}", stderr(&out));
}

#[test]
fn undo_takes_back_your_turn_and_the_bots_reply() {
    // Seed 5: White moves first with 2-1; the bot (Black) answers, then White has new dice.
    let out = tabletop(
        &["nardy", "--seed", "5"],
        "24/22 22/21\nboard\nundo\nboard\nquit\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("White played 24/22 22/21."), "{text}");
    assert!(text.contains("Black (bot) rolls"), "{text}");
    assert!(text.contains("Took back Black's turn"), "{text}");
    assert!(
        text.contains("Took back White's turn 24/22 22/21."),
        "{text}"
    );
    // Back at the start with the same dice.
    let after_undo = &text[text.find("Took back White's turn").unwrap()..];
    assert!(after_undo.contains("Position: 24:15/12:15 w"), "{text}");
    assert!(after_undo.contains("White to move, dice 2-1"), "{text}");
    // Nothing before the first turn.
    let out = tabletop(&["nardy", "--seed", "5"], "undo\nquit\n");
    assert!(
        stderr(&out).contains("error: nothing to undo"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_save_in_the_middle_of_a_turn_keeps_its_steps() {
    // The table's log holds single steps, so a save no longer waits for the whole turn.
    let tmp = temp_dir("nardy-mid");
    let dir = tmp.path();
    let save = dir.join("g.nardy");
    let script = format!("24/22\nsave {0}\nquit\n", save.display());
    let out = tabletop(&["nardy", "--seed", "5", "--black", "human"], &script);
    assert!(stdout(&out).contains("Saved to"), "{}", stderr(&out));
    let load = save.display().to_string();
    let out = tabletop(
        &["nardy", "--load", &load, "--black", "human"],
        "moves\nundo\nquit\n",
    );
    let text = stdout(&out);
    assert!(text.contains("Legal next steps:"), "{text}");
    assert!(text.contains("Took back 24/22."), "{text}");
}

#[test]
fn a_refused_undo_changes_nothing() {
    // Once only: the second undo is refused and must not re-roll the dice (it did).
    let out = tabletop(
        &["nardy", "--plain", "--seed", "1"],
        "24/18 18/15\nundo\nundo\nboard\n24/18 18/15\nquit\n",
    );
    assert!(
        stderr(&out).contains("error: nothing to undo"),
        "{}",
        stderr(&out)
    );
    let text = stdout(&out);
    // The dice stay 6-3 on the board after the undo and after the refused undo, and the
    // same turn is legal again.
    assert_eq!(text.matches("White to move, dice 6-3").count(), 3, "{text}");
    assert_eq!(
        text.matches("White played 24/18 18/15.").count(),
        2,
        "{text}"
    );
}

#[test]
fn moves_on_a_double_are_grouped_by_first_step() {
    // A middle-game position whose dice are a double with many legal turns.
    let position: nardy_core::Position =
        "24:3,20:2,19:2,18:2,17:2,16:1,13:2,9:1/12:4,11:2,10:2,8:2,23:2,22:2,6:1 w"
            .parse()
            .unwrap();
    let rules = nardy_core::Rules::default();
    let game = (0..500)
        .filter_map(|seed| nardy_core::Game::from_position(rules, position, seed).ok())
        .find(|g| g.dice().is_double() && g.legal_moves().len() > 20)
        .expect("a seed with such a double");
    let count = game.legal_moves().len();
    let tmp = temp_dir("nardy-moves");
    let dir = tmp.path();
    let save = dir.join("g.nardy");
    std::fs::write(&save, game.to_bytes()).unwrap();
    let out = tabletop(
        &[
            "nardy",
            "--load",
            save.to_str().unwrap(),
            "--black",
            "human",
        ],
        "moves\nquit\n",
    );
    let text = stdout(&out);
    let at = text
        .find(&format!("{count} legal turn(s):"))
        .unwrap_or_else(|| panic!("{text}"));
    let listing: Vec<&str> = text[at..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    // Compact: before, one line per turn; now far fewer lines, and every turn is there.
    assert!(
        listing.len() * 2 <= count,
        "{count} turns on {} lines:\n{text}",
        listing.len()
    );
    let groups: Vec<&str> = listing
        .iter()
        .copied()
        .filter(|l| l.contains("):"))
        .collect();
    let listed: usize = groups
        .iter()
        .map(|l| l.split_once(" (").unwrap().1.split(')').next().unwrap())
        .map(|n| n.parse::<usize>().unwrap())
        .sum();
    assert_eq!(listed, count, "{text}");
    let items: usize = listing
        .iter()
        .map(|l| l.rsplit("):").next().unwrap().split(" | ").count())
        .sum();
    assert_eq!(items, count, "{text}");
}

#[test]
fn the_end_of_a_game_shows_the_final_position_and_offers_a_new_one() {
    let out = tabletop(&["nardy", "--seed", "9", "--white", "bot"], "y\nquit\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let end = text.find(" wins: ").expect("a result");
    let before = &text[..end];
    let last_board = before.rfind("Position: ").unwrap();
    // The final position: one side has borne off everything.
    let final_line = before[last_board..].lines().next().unwrap();
    assert!(
        final_line.contains("/- ") || final_line.contains(": -/"),
        "{final_line}"
    );
    assert!(text[end..].contains("New game? (y/n)"), "{text}");
    // `y` starts a new game: a new roll-off.
    assert!(text[end..].contains("Roll-off:"), "{text}");
}
