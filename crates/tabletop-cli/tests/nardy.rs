//! `tabletop nardy`: moves, perft and scripted play sessions.

mod support;

use support::{stderr, stdout, tabletop};

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
    let dir = std::env::temp_dir().join(format!("nardy-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    assert!(
        text.contains("error: you have no checker on point 7"),
        "{text}"
    );
    assert!(text.contains("error: illegal:"), "{text}");
    assert!(text.contains("error: unknown command `nonsense`"), "{text}");
    assert!(text.contains("error: nothing to undo"), "{text}");
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
    std::fs::remove_dir_all(&dir).unwrap();
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
    assert!(text.contains("Bye."), "{text}");
}
