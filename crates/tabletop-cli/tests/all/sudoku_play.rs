//! Integration tests of `tabletop sudoku play` (scripted through stdin) and of the logic
//! tools `hint`, `explain`, `rate` and `generate --difficulty`.

use crate::support;

use std::path::PathBuf;

use sudoku_core::logic::{Difficulty, rate};
use sudoku_core::{Game, Grid};
use support::{stderr, stdout, tabletop, temp_dir};

const PUZZLE: &str =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";
const SOLUTION: &str =
    "864371259325849761971265843436192587198657432257483916689734125713528694542916378";

/// A save of a new game of `PUZZLE`.
fn puzzle_save(dir: &std::path::Path) -> PathBuf {
    let path = dir.join("start.ttsu");
    let game = Game::new(PUZZLE.parse().unwrap()).unwrap();
    std::fs::write(&path, game.to_bytes()).unwrap();
    path
}

#[test]
fn a_scripted_session_plays_checks_hints_undoes_saves_loads_and_solves() {
    let tmp = temp_dir("sudoku-session");
    let dir = tmp.path();
    let start = puzzle_save(dir);
    let saved = dir.join("mid.ttsu");
    let saved = saved.to_str().unwrap();
    let script = format!(
        "check\nr1c1 8\ncheck\nr1c2 5\ncheck\nhint\nundo\nredo\nr1c3 1\nfoo\nsave {saved}\nclear r1c2\n\
         load {saved}\nverify\nnote r2c1 3 2\nnotes all\nnotes\nsolve\nverify\nundo\nquit\n"
    );
    let out = tabletop(
        &["sudoku", "play", "--load", start.to_str().unwrap()],
        &script,
    );
    let (text, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{err}");
    // Givens plain, entries in parentheses through a pipe.
    assert!(text.contains("  1 |(8)"), "{text}");
    assert!(text.contains("(digits in parentheses are your entries)"));
    assert!(
        text.contains("1 entry is wrong: r1c2; no solution is left with it."),
        "{text}"
    );
    assert!(
        text.contains("Hint: The 5 in r1c2 is wrong: it is not the digit of the solution."),
        "{text}"
    );
    assert!(text.contains("Took back r1c2 5."), "{text}");
    assert!(text.contains("Played again r1c2 5."), "{text}");
    assert!(
        err.contains("error: r1c3 is a given of the puzzle and cannot be changed"),
        "{err}"
    );
    assert!(err.contains("error: \"foo\" is not a move"), "{err}");
    assert!(text.contains(&format!("Saved to {saved}.")), "{text}");
    assert!(text.contains(&format!("Loaded {saved}.")), "{text}");
    // After the load, r1c2 holds the 5 again: 81 - 36 givens - 2 entries.
    let empty = 81 - PUZZLE.chars().filter(|c| *c != '.').count() - 2;
    assert!(
        text.contains(&format!("Not complete: {empty} cells still empty.")),
        "{text}"
    );
    // The notes grid shows r2c1's candidates 2 and 3 (then every candidate).
    assert!(text.contains("| .23 "), "{text}");
    assert!(
        text.contains("The solution is shown.\nNew game? (y/n)"),
        "{text}"
    );
    assert!(text.contains("Complete and correct!"), "{text}");
    assert!(text.contains("Took back solve."), "{text}");
    // The save holds the game at that point: a table save, whose game replays from its log.
    let table = tabletop_play::Table::<tabletop_play::sudoku::Sudoku>::from_bytes(
        &std::fs::read(saved).unwrap(),
    )
    .unwrap();
    let mid = table.game().game();
    assert_eq!(mid.grid().get(0, 1), Some(5));
    assert_eq!(mid.mistakes(), 1);
    assert_eq!(mid.moves().len(), 2);
}

#[test]
fn solving_by_hand_ends_the_game_with_the_time_and_mistakes() {
    let tmp = temp_dir("sudoku-by-hand");
    let dir = tmp.path();
    let start = puzzle_save(dir);
    let mut script = String::from("r1c1 1\n");
    for (i, (p, s)) in PUZZLE.chars().zip(SOLUTION.chars()).enumerate() {
        if p == '.' {
            script.push_str(&format!("r{}c{} {s}\n", i / 9 + 1, i % 9 + 1));
        }
    }
    script.push_str("verify\nn\n");
    let out = tabletop(
        &["sudoku", "play", "--load", start.to_str().unwrap()],
        &script,
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        text.contains("Solved in 0:00 with 1 mistake.\nNew game? (y/n)"),
        "{text}"
    );
}

#[test]
fn sudoku_alone_plays_a_medium_puzzle_and_the_seed_fixes_it() {
    let run = |args: &[&str]| {
        let out = tabletop(args, "quit\n");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let a = run(&["sudoku", "--seed", "5"]);
    assert!(
        a.contains("cells to fill. Type help for the commands."),
        "{a}"
    );
    assert_eq!(a, run(&["sudoku", "play", "--seed", "5"]));
    assert_eq!(
        a,
        run(&["sudoku", "play", "--seed", "5", "--difficulty", "medium"])
    );
    // 4x4 defaults to easy (no medium 4x4 puzzles exist to speak of).
    let default_small = run(&["sudoku", "--size", "4", "--seed", "1"]);
    assert!(default_small.contains("cells to fill."), "{default_small}");
    let small = run(&[
        "sudoku",
        "--size",
        "4",
        "--difficulty",
        "easy",
        "--seed",
        "1",
    ]);
    assert_eq!(
        small.lines().filter(|l| l.contains('|')).count(),
        4,
        "{small}"
    );
    let help = tabletop(&["sudoku", "--seed", "1"], "help\nquit\n");
    let help = stdout(&help);
    assert!(
        help.contains("notes all") && help.contains("save FILE"),
        "{help}"
    );
}

#[test]
fn play_options_with_another_command_and_bad_options_are_usage_errors() {
    let out = tabletop(&["sudoku", "--difficulty", "hard", "solve"], PUZZLE);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = tabletop(&["sudoku", "play", "--difficulty", "insane"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown difficulty"),
        "{}",
        stderr(&out)
    );
    let out = tabletop(&["sudoku", "play", "--size", "7"], "");
    assert_eq!(out.status.code(), Some(2));
    let tmp = temp_dir("sudoku-bad-save");
    let dir = tmp.path();
    let bad = dir.join("bad.ttsu");
    std::fs::write(&bad, b"TTSU\x01\x00garbage").unwrap();
    let out = tabletop(&["sudoku", "play", "--load", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("damaged or truncated"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn hint_gives_the_simplest_step_or_the_wrong_entry() {
    let out = tabletop(&["sudoku", "hint", PUZZLE], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("Full House: ")
            || text.starts_with("Hidden Single: ")
            || text.starts_with("Naked Single: "),
        "{text}"
    );
    let mut grid = PUZZLE.to_owned();
    grid.replace_range(1..2, "5");
    let out = tabletop(&["sudoku", "hint", PUZZLE, "--grid", &grid], "");
    assert_eq!(
        stdout(&out).trim(),
        "The 5 in r1c2 is wrong: it is not the digit of the solution."
    );
    let out = tabletop(&["sudoku", "hint", &".".repeat(81)], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out).trim(),
        "error: the puzzle has more than one solution"
    );
    let out = tabletop(
        &[
            "sudoku",
            "hint",
            PUZZLE,
            "--grid",
            &SOLUTION.replace('8', "1"),
        ],
        "",
    );
    assert!(
        stderr(&out).contains("changes the given"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn explain_prints_the_whole_logical_solution() {
    let out = tabletop(&["sudoku", "explain", PUZZLE], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let steps = lines
        .iter()
        .filter(|l| l.trim_start().starts_with(char::is_numeric) && l.contains(". "))
        .count();
    assert!(steps >= 45, "{text}");
    assert!(lines[0].starts_with("  1. "), "{text}");
    assert_eq!(lines[lines.len() - 3], format!("Solved in {steps} steps."));
    assert!(
        lines[lines.len() - 2].starts_with("Rating: easy "),
        "{text}"
    );
    assert_eq!(lines[lines.len() - 1], SOLUTION);
    let out = tabletop(&["sudoku", "explain", "12"], "");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn rate_prints_level_rating_and_hardest_technique_per_line() {
    let hard = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let input = format!("# comment\n{PUZZLE}\n{hard}\nxx\n{}\n", ".".repeat(16));
    let out = tabletop(&["sudoku", "rate"], &input);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let expected = rate(&PUZZLE.parse().unwrap()).unwrap().to_string();
    assert_eq!(lines[0], expected);
    assert!(lines[0].starts_with("easy "), "{text}");
    let fields: Vec<&str> = lines[1].splitn(3, ' ').collect();
    assert!(
        fields[0].parse::<Difficulty>().is_ok()
            && fields[1].parse::<f64>().is_ok()
            && !fields[2].is_empty(),
        "{text}"
    );
    assert!(lines[2].starts_with("error: line 4:"), "{text}");
    assert_eq!(lines[3], "multiple");
    assert!(stderr(&out).contains("1 malformed line"));
}

#[test]
fn generate_by_difficulty_gives_puzzles_of_that_level_reproducibly() {
    for level in ["easy", "medium", "hard"] {
        let args = [
            "sudoku",
            "generate",
            "--difficulty",
            level,
            "--count",
            "2",
            "--seed",
            "4",
        ];
        let out = tabletop(&args, "");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(text.lines().count(), 2, "{text}");
        for line in text.lines() {
            let grid: Grid = line.parse().unwrap();
            assert_eq!(rate(&grid).unwrap().difficulty.to_string(), level, "{line}");
        }
        assert_eq!(stdout(&tabletop(&args, "")), text);
    }
    let out = tabletop(
        &["sudoku", "generate", "--difficulty", "easy", "--minimal"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn on_a_terminal_givens_and_entries_differ_by_style_not_by_parentheses() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let tmp = temp_dir("sudoku-terminal");
    let dir = tmp.path();
    let start = puzzle_save(dir);
    let bin = env!("CARGO_BIN_EXE_tabletop");
    let mut child = Command::new("script")
        .args([
            "-qec",
            &format!("{bin} --plain sudoku play --load {}", start.display()),
            "/dev/null",
        ])
        .env_remove("NO_COLOR")
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("this test needs util-linux `script` (apt-get install bsdutils)");
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::sleep(Duration::from_millis(1500));
    for line in ["r1c1 8\n", "quit\n"] {
        stdin.write_all(line.as_bytes()).expect("type");
        stdin.flush().expect("flush");
        std::thread::sleep(Duration::from_millis(300));
    }
    drop(stdin);
    let out = child.wait_with_output().expect("run");
    let screen = String::from_utf8_lossy(&out.stdout);
    // The given 4 of r1c3 is bold, the entry 8 of r1c1 cyan, and no parentheses.
    assert!(screen.contains("\u{1b}[1m 4 \u{1b}[0m"), "{screen}");
    assert!(screen.contains("\u{1b}[36m 8 \u{1b}[0m"), "{screen}");
    assert!(!screen.contains("(8)"), "{screen}");
    assert!(!screen.contains("parentheses"), "{screen}");
}

#[test]
fn a_new_game_after_a_loaded_one_keeps_its_size() {
    let tmp = temp_dir("sudoku-new-size");
    let dir = tmp.path();
    let path = dir.join("small.ttsu");
    let game = Game::new("1......2..4..3..".parse().unwrap()).unwrap();
    std::fs::write(&path, game.to_bytes()).unwrap();
    let out = tabletop(
        &[
            "sudoku",
            "play",
            "--seed",
            "3",
            "--load",
            path.to_str().unwrap(),
        ],
        "solve\ny\nquit\n",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let (_, after) = text.split_once("New game? (y/n)").expect("the game ends");
    // A new 4x4 puzzle (easy: 4x4 puzzles are not harder), with 4 rows numbered 1 to 4.
    assert!(
        after.contains("  4 |") && !after.contains("  5 |"),
        "{after}"
    );
    assert!(after.contains("cells to fill."), "{after}");
}
