//! Interactive play on a real terminal: the binary runs inside a pseudo-terminal made by
//! util-linux `script`, so its console uses line editing (arrow keys recall history)
//! instead of reading raw escape sequences as commands.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs `args` in a pseudo-terminal, typing each of `keys` after a short pause, and
/// returns everything the terminal showed, escape sequences removed.
fn on_terminal(args: &str, keys: &[&str]) -> String {
    let bin = env!("CARGO_BIN_EXE_tabletop");
    let mut child = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("these tests need util-linux `script` (apt-get install bsdutils)");
    let mut stdin = child.stdin.take().expect("stdin");
    // Let the game start and switch the terminal to raw mode before the first key, or the
    // terminal itself echoes the key as `^[[A`.
    std::thread::sleep(Duration::from_millis(1500));
    for key in keys {
        std::thread::sleep(Duration::from_millis(300));
        stdin.write_all(key.as_bytes()).expect("type");
        stdin.flush().expect("flush");
    }
    std::thread::sleep(Duration::from_millis(300));
    drop(stdin);
    let out = child.wait_with_output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "");
    strip_escapes(&text)
}

fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() || c == '~' {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

const UP: &str = "\u{1b}[A";

#[test]
fn arrow_up_recalls_the_last_command_in_reversi() {
    let screen = on_terminal(
        "reversi play --plain --black human --white human",
        &["f5\n", UP, "\n", "quit\n"],
    );
    assert!(
        !screen.contains("[A"),
        "an arrow key reached the game:\n{screen}"
    );
    assert!(
        !screen.to_lowercase().contains("unknown command"),
        "{screen}"
    );
    // the recalled f5 is played again, on a square that is taken now
    assert!(screen.matches("f5").count() >= 2, "{screen}");
    assert!(screen.contains("already taken"), "{screen}");
}

#[test]
fn arrow_keys_are_editing_keys_in_every_game() {
    for args in [
        "nardy play --plain --white human --black human",
        "battleship play --plain",
        "reversi play --plain",
        "sudoku play --plain",
    ] {
        let screen = on_terminal(args, &[UP, "\n", "\u{1b}[D\u{1b}[C", "\n", "quit\n"]);
        assert!(
            !screen.contains("[A"),
            "{args}: an arrow key reached the game:\n{screen}"
        );
        assert!(!screen.contains("[D"), "{args}:\n{screen}");
        assert!(
            !screen.to_lowercase().contains("unknown command"),
            "{args}:\n{screen}"
        );
    }
}

#[test]
fn batches_show_a_progress_bar_with_rate_and_time_left_on_a_terminal() {
    for args in [
        "--plain battleship sim --shooter hunt --games 20000 --threads 1 --seed 1",
        "--plain reversi arena --black bot:1 --white bot:2 --games 400 --threads 1 --seed 1",
    ] {
        let screen = on_terminal(args, &[]);
        assert!(screen.contains("/s, "), "{args}: no rate:\n{screen}");
        assert!(screen.contains("left)"), "{args}: no time left:\n{screen}");
        assert!(screen.contains("games"), "{args}: no result:\n{screen}");
    }
}

#[test]
fn plain_gives_the_line_prompt_on_a_terminal() {
    let screen = on_terminal("reversi --plain", &["quit\n"]);
    assert!(screen.contains("Black (X)> "), "no line prompt:\n{screen}");
    assert!(screen.contains("a b c d e f g h"), "no board:\n{screen}");
}

#[test]
fn long_runs_of_every_game_show_the_time_left_on_a_terminal() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let bin = env!("CARGO_BIN_EXE_tabletop");
    for (args, result) in [
        (
            "--plain nardy arena --white random --black random --games 2000 --threads 1".to_owned(),
            "games",
        ),
        // `tabletop --version`, then 100 puzzles through a pipe: the bar still goes to
        // the terminal (stderr).
        (
            format!(
                "--version; head -100 {root}/data/sudoku/puzzles3_magictour_top1465.txt | {bin} sudoku rate -"
            ),
            "extreme",
        ),
        (
            format!("reversi solve --file {root}/data/reversi/fforum-1-19.obf"),
            "19 of 19 scores right",
        ),
    ] {
        let screen = on_terminal(&args, &[]);
        assert!(screen.contains("/s, "), "{args}: no rate:\n{screen}");
        assert!(screen.contains("left)"), "{args}: no time left:\n{screen}");
        assert!(screen.contains(result), "{args}: no result:\n{screen}");
    }
}
