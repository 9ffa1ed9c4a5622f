//! `tabletop reversi`: scripted sessions and tools, through the real binary.

use crate::support;

use support::{stderr, stdout, tabletop, temp_dir};

const START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn perft_prints_the_count_last() {
    let out = tabletop(&["reversi", "perft", "6"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("perft 6 8200"));
    assert!(
        stderr(&out).starts_with("8200 leaves in "),
        "{}",
        stderr(&out)
    );
}

#[test]
fn perft_prints_no_rate_for_a_run_too_short_to_time() {
    // perft 6 takes well under a millisecond: it used to print
    // "CPU 0.000 s (8200000.0 M leaves/s)".
    let out = tabletop(&["reversi", "perft", "6"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("leaves/s"), "{}", stderr(&out));
}

#[test]
fn perft_divide_lists_the_first_moves() {
    let out = tabletop(&["reversi", "perft", "4", "--divide"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines, ["d3 61", "c4 61", "f5 61", "e6 61", "perft 4 244"]);
}

#[test]
fn perft_from_a_board_string() {
    // FFO #1; the board string starts with '-', which must not be taken for an option.
    let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = tabletop(&["reversi", "perft", "1", "--board", board], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("perft 1 8"));
    let out = tabletop(&["reversi", "perft", "1", "--board", "XO X"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("64 squares"), "{}", stderr(&out));
}

#[test]
fn replay_prints_the_final_board_and_result() {
    let out = tabletop(&["reversi", "replay", "e6f4e3f6g5d6e7f5c5"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        "--------------------X------XXX----XXXXX----XXX------X----------- O"
    );
    assert_eq!(lines[1], "Black wins 13-0 (+64)");
    // An unfinished game prints only the board.
    let out = tabletop(&["reversi", "replay", "f5"], "");
    assert_eq!(
        stdout(&out),
        "---------------------------OX------XXX-------------------------- O\n"
    );
}

#[test]
fn replay_with_white_first() {
    let out = tabletop(&["reversi", "replay", "f4", "--first", "white"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        "---------------------------OOO-----XO--------------------------- X"
    );
}

#[test]
fn replay_names_the_illegal_move() {
    let out = tabletop(&["reversi", "replay", "f5d6d6"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim(),
        "error: move 3 (d6) is illegal: d6 is already taken"
    );
    let out = tabletop(&["reversi", "replay", "f5zz"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("move 2"), "{}", stderr(&out));
}

#[test]
fn show_draws_the_board_with_legal_moves() {
    let out = tabletop(&["reversi", "show", START], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("4 . . * O X . . . 4"), "{text}");
    assert!(text.contains("Black (X) to move: d3 c4 f5 e6"), "{text}");
    let out = tabletop(&["reversi", "show", "nonsense"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out).lines().count(), 1);
}

#[test]
fn bad_arguments_are_usage_errors() {
    let out = tabletop(&["reversi", "play", "--white", "robot"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = tabletop(
        &["reversi", "play", "--white", "human", "--black", "bot:99"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let out = tabletop(&["reversi", "perft", "many"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn two_people_play_a_scripted_game() {
    let script = "f5\nhint\nz9\na1\nd6\nboard\nundo\nredo\nquit\n";
    let out = tabletop(&["reversi", "play", "--white", "human"], script);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Black plays f5, flipping 1 disc."), "{text}");
    assert!(text.contains("Legal moves: f4 d6 f6"), "{text}");
    // Refused commands are one line each on stderr.
    let err = stderr(&out);
    assert!(err.contains("error: unknown command 'z9'"), "{err}");
    assert!(
        err.contains("error: illegal move a1: a1 flips nothing"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(text.contains("White plays d6, flipping 1 disc."), "{text}");
    assert!(text.contains("Black (X) 3  White (O) 3"), "{text}");
}

#[test]
fn the_default_game_is_against_the_computer() {
    let out = tabletop(&["reversi", "--seed", "7"], "f5\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Black plays f5"), "{text}");
    // The computer answers with one of White's three legal replies.
    assert!(
        ["White plays d6.", "White plays f4.", "White plays f6."]
            .iter()
            .any(|l| text.contains(l)),
        "{text}"
    );
    // Same seed, same game.
    let again = tabletop(&["reversi", "--seed", "7"], "f5\nquit\n");
    assert_eq!(stdout(&again), text);
}

#[test]
fn undo_against_the_computer_takes_back_its_reply_too() {
    let out = tabletop(&["reversi", "--seed", "11"], "f5\nundo\nundo\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The start position is shown at the start and again after the undo.
    assert_eq!(
        text.matches("Black (X) to move: d3 c4 f5 e6").count(),
        2,
        "{text}"
    );
    assert_eq!(stderr(&out).trim(), "error: nothing to undo");
}

#[test]
fn bots_play_a_whole_game_and_the_score_is_shown() {
    let out = tabletop(
        &[
            "reversi", "play", "--black", "bot", "--white", "bot:1", "--seed", "3",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Game over: "), "{text}");
}

#[test]
fn save_and_load_continue_the_game() {
    let tmp = temp_dir("reversi-cli");
    let dir = tmp.path();
    let path = dir.join("game.sav");
    let p = path.to_str().unwrap();
    let out = tabletop(
        &["reversi", "play", "--white", "human"],
        &format!("f5\nd6\nsave {p}\nquit\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Saved to"));
    // --load continues where the game stopped: Black to move after f5 d6.
    let out = tabletop(
        &["reversi", "play", "--load", p, "--white", "human"],
        "undo\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Black (X) to move: c3 c4 c5 c6 c7"), "{text}");
    assert!(text.contains("White (O) to move: f4 d6 f6"), "{text}");
    // `load` inside a session, and a damaged file.
    let out = tabletop(
        &["reversi", "play", "--white", "human"],
        &format!("load {p}\nquit\n"),
    );
    assert!(stdout(&out).contains("Loaded"));
    std::fs::write(&path, b"TTRV\x01\x00garbage").unwrap();
    let out = tabletop(&["reversi", "play", "--load", p], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("damaged"), "{}", stderr(&out));
    let out = tabletop(
        &["reversi", "play", "--white", "human"],
        &format!("load {p}\nquit\n"),
    );
    assert!(out.status.success());
    assert!(stderr(&out).contains("damaged"), "{}", stderr(&out));
    let out = tabletop(&["reversi", "play", "--load", p, "--first", "white"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_finished_game_shows_the_score() {
    // The shortest possible game: Black wipes White out in 9 moves.
    let out = tabletop(
        &["reversi", "play", "--white", "human"],
        "e6\nf4\ne3\nf6\ng5\nd6\ne7\nf5\nc5\nd3\nquit\n",
    );
    let text = stdout(&out);
    assert!(text.contains("Game over: Black wins 13-0 (+64)"), "{text}");
    // The final position is shown once, then a new game is offered.
    assert_eq!(text.matches("Game over: ").count(), 1, "{text}");
    assert!(text.contains("New game? (y/n)"), "{text}");
    assert_eq!(
        stderr(&out).trim(),
        "error: illegal move d3: the game is over"
    );
}

#[test]
fn a_new_game_after_the_end_starts_from_the_start() {
    let out = tabletop(
        &["reversi", "play", "--white", "human"],
        "e6\nf4\ne3\nf6\ng5\nd6\ne7\nf5\nc5\ny\nf5\nn\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (_, after) = text.split_once("New game? (y/n)").expect("offered");
    assert!(after.contains("Black (X) 2  White (O) 2"), "{text}");
    assert!(after.contains("Black plays f5, flipping 1 disc."), "{text}");
    // 'n' is only the answer to the offer: during the game it is not a command.
    assert!(
        stderr(&out).contains("unknown command 'n'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn forced_passes_are_announced_and_applied() {
    use reversi_core::{Game, Position, Rules};
    // White to move with no legal move; Black can still play c1.
    let start: Position = format!("XO{} O", "-".repeat(62)).parse().unwrap();
    let game = Game::from_position(Rules::default(), start);
    let tmp = temp_dir("reversi-pass");
    let dir = tmp.path();
    let path = dir.join("pass.sav");
    std::fs::write(&path, game.to_bytes()).unwrap();
    let out = tabletop(
        &["reversi", "play", "--load", path.to_str().unwrap()],
        "c1\nquit\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("White has no legal move and passes."),
        "{text}"
    );
    assert!(text.contains("Black plays c1, flipping 1 disc."), "{text}");
    assert!(text.contains("Game over: Black wins 3-0 (+64)"), "{text}");
}

#[test]
fn piped_play_is_against_the_computer_like_every_game() {
    // `printf 'f5\nquit\n' | tabletop reversi play` (the README's example) gets an answer:
    // `play` has the same default as every game, a person against the computer.
    let out = tabletop(&["reversi", "play"], "f5\nquit\n");
    let text = stdout(&out);
    assert!(text.contains("Black plays f5, flipping 1 disc."), "{text}");
    assert!(text.contains("White plays "), "{text}");
}
