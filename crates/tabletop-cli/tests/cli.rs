//! Integration tests of the `tabletop` command-line skeleton: help, version, exit codes.

mod support;

use std::process::Output;

use support::{stderr, stdout};

fn tabletop(args: &[&str]) -> Output {
    support::tabletop(args, "")
}

#[test]
fn help_lists_the_four_games() {
    let out = tabletop(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for game in ["nardy", "sudoku", "battleship", "reversi"] {
        assert!(
            text.contains(game),
            "--help does not mention {game}:\n{text}"
        );
    }
}

#[test]
fn version_prints_the_crate_version() {
    let out = tabletop(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out).trim(),
        format!("tabletop {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn every_game_has_help() {
    for game in ["nardy", "sudoku", "battleship", "reversi"] {
        let out = tabletop(&[game, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{game} --help");
        assert!(stdout(&out).contains("Usage: tabletop"), "{game} --help");
    }
}

#[test]
fn unknown_subcommand_is_a_one_line_usage_error() {
    let out = tabletop(&["chess"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("error: "), "{err:?}");
    assert!(err.contains("chess"), "{err:?}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn bad_argument_is_a_one_line_usage_error() {
    let out = tabletop(&["--frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.contains("--frobnicate"), "{err:?}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err:?}"
    );
}

#[test]
fn no_arguments_shows_help_and_exits_2() {
    let out = tabletop(&[]);
    assert_eq!(out.status.code(), Some(2));
    let all = stdout(&out) + &stderr(&out);
    assert!(all.contains("Usage: tabletop"), "{all}");
}
