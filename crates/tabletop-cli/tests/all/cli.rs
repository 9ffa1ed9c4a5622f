//! Integration tests of the `tabletop` command-line skeleton: help, version, exit codes.

use crate::support;

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

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // Far more output than a pipe buffers; one byte is read, then the pipe is closed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args([
            "sudoku", "generate", "--count", "20000", "--seed", "1", "--size", "4",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabletop binary runs");
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("internal error"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(out.status.code(), Some(141));
}
