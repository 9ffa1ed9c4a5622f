//! Integration tests of `tabletop sudoku`: solve, count, generate, bench, show.

use crate::support;

use support::{stderr, stdout, tabletop, temp_dir};
use tempfile::TempDir;

fn data(name: &str) -> String {
    let path = format!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/sudoku/{}"),
        name
    );
    assert!(
        std::path::Path::new(&path).exists(),
        "dataset {path} is missing"
    );
    path
}

const PUZZLE: &str =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";
const SOLUTION: &str =
    "864371259325849761971265843436192587198657432257483916689734125713528694542916378";

#[test]
fn solve_prints_one_line_per_puzzle_and_reports_bad_lines() {
    let empty = ".".repeat(81);
    let input = format!("# comment\n\n{PUZZLE}\r\nxx\n{empty}\n11..............\n");
    let out = tabletop(&["sudoku", "solve"], &input);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], SOLUTION);
    assert!(
        lines[1].starts_with("error: line 4:") && lines[1].contains("has 2"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "multiple");
    assert_eq!(lines[3], "unsolvable");
    assert!(stderr(&out).contains("1 malformed line"));
}

#[test]
fn solve_any_gives_a_solution_of_an_ambiguous_puzzle() {
    let empty = ".".repeat(16);
    let out = tabletop(&["sudoku", "solve", "-", "--any"], &format!("{empty}\n"));
    assert_eq!(out.status.code(), Some(0));
    let line = stdout(&out);
    let grid: sudoku_core::Grid = line.trim().parse().unwrap();
    assert!(grid.is_full() && grid.is_consistent());
}

#[test]
fn solve_reads_a_file() {
    let out = tabletop(
        &["sudoku", "solve", &data("puzzles0_kaggle_sample69.txt")],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 69);
    assert_eq!(text.lines().next().unwrap(), SOLUTION);
}

#[test]
fn count_caps_at_the_limit() {
    let input = format!("{}\n{PUZZLE}\n", ".".repeat(16));
    let out = tabletop(&["sudoku", "count", "--limit", "1000"], &input);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "288\n1\n");
    let out = tabletop(&["sudoku", "count"], &input);
    assert_eq!(stdout(&out), "2\n1\n");
}

#[test]
fn max_nodes_gives_up_with_aborted() {
    let input = format!("{}\n{PUZZLE}\n", ".".repeat(81));
    let out = tabletop(
        &["sudoku", "count", "--limit", "1000000", "--max-nodes", "20"],
        &input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "aborted\n1\n");
    let out = tabletop(&["sudoku", "solve", "--max-nodes", "1000"], &input);
    assert_eq!(stdout(&out), format!("multiple\n{SOLUTION}\n"));
}

#[test]
fn generate_is_seeded_and_unique() {
    let args = [
        "sudoku",
        "generate",
        "--count",
        "3",
        "--seed",
        "7",
        "--symmetry",
        "rotate180",
        "--minimal",
    ];
    let a = tabletop(&args, "");
    let b = tabletop(&args, "");
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b));
    let text = stdout(&a);
    assert_eq!(text.lines().count(), 3);
    for line in text.lines() {
        let p: sudoku_core::Grid = line.parse().unwrap();
        assert_eq!(p.count_solutions(2), 1);
        assert!(sudoku_core::generate::is_minimal(&p));
    }
    let out = tabletop(
        &[
            "sudoku", "generate", "--size", "6", "--seed", "1", "--clues", "14",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let p: sudoku_core::Grid = stdout(&out).trim().parse().unwrap();
    assert_eq!(p.size(), sudoku_core::Size::Six);
    assert!(p.clue_count() <= 14);
}

#[test]
fn bad_arguments_are_usage_errors() {
    let out = tabletop(&["sudoku", "generate", "--size", "7"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--size 7"));
    let out = tabletop(&["sudoku", "generate", "--symmetry", "spiral"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = tabletop(&["sudoku", "show", "12"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: "));
    let out = tabletop(&["sudoku", "bench", "/no/such/file"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot open"));
}

#[test]
fn bench_reports_rates() {
    let out = tabletop(
        &["sudoku", "bench", &data("puzzles0_kaggle_sample69.txt")],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("puzzles: 69"), "{text}");
    assert!(text.contains("puzzles/s: "), "{text}");
    assert!(
        text.contains("unique: 69, multiple: 0, unsolvable: 0"),
        "{text}"
    );
    let out = tabletop(
        &[
            "sudoku",
            "bench",
            &data("puzzles0_kaggle_sample69.txt"),
            "--mode",
            "first",
            "--json",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["puzzles"], 69);
    assert!(v["puzzles_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn show_draws_the_grid_and_conflicts() {
    let out = tabletop(&["sudoku", "show", PUZZLE], "");
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.starts_with(". . 4 | 3 . . | 2 . 9\n"), "{text}");
    assert!(text.contains("------+-------+------"));
    assert!(text.contains("35 clues, no conflicts"));
    let out = tabletop(&["sudoku", "show", "11.............."], "");
    let text = stdout(&out);
    assert!(
        text.contains("conflict: 1 appears in row 1 at r1c1, r1c2"),
        "{text}"
    );
}

/// A scratch file `name` holding `bytes` in a test's temporary folder.
fn scratch(dir: &TempDir, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_binary_input_names_the_file_and_the_line() {
    let mut bytes = format!("# puzzles\n{PUZZLE}\n").into_bytes();
    bytes.extend_from_slice(b"\x00\xff\xfe\x89PNG\n");
    let dir = temp_dir("sudoku");
    let path = scratch(&dir, "binary.txt", &bytes);
    let file = path.to_str().unwrap();
    for command in ["solve", "count", "bench"] {
        let out = tabletop(&["sudoku", command, file], "");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{command}: {err}");
        assert_eq!(
            err,
            format!("error: {file}: line 3: not UTF-8 text (a binary file?)\n"),
            "{command}"
        );
    }
    let out = tabletop(&["sudoku", "solve"], "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_unreachable_clue_target_is_reported() {
    let args = [
        "sudoku", "generate", "--seed", "1", "--count", "3", "--clues", "5",
    ];
    let out = tabletop(&args, "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let fewest = stdout(&out)
        .lines()
        .map(|l| l.parse::<sudoku_core::Grid>().unwrap().clue_count())
        .min()
        .unwrap();
    assert!(fewest > 17, "{fewest}");
    assert_eq!(
        stderr(&out),
        format!(
            "warning: --clues 5 could not be reached for 3 of 3 puzzles: the fewest clues \
             reached was {fewest} (best of 50 grids each)\n"
        )
    );
    // A reachable target says nothing.
    let out = tabletop(
        &[
            "sudoku", "generate", "--seed", "1", "--count", "3", "--clues", "40",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

/// Runs a shell command line inside a pseudo-terminal (util-linux `script`) and returns
/// what the terminal showed.
fn on_terminal(command: &str) -> String {
    let out = std::process::Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("these tests need util-linux `script` (apt-get install bsdutils)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn long_batches_show_progress_on_a_terminal_only() {
    let bin = env!("CARGO_BIN_EXE_tabletop");
    let data = data("puzzles2_17_clue.txt");
    let dir = temp_dir("sudoku");
    let answers = scratch(&dir, "answers.txt", b"");
    let to = answers.to_str().unwrap();
    for (label, command) in [
        ("solving", format!("{bin} sudoku solve {data} > {to}")),
        ("counting", format!("{bin} sudoku count {data} > {to}")),
        (
            "generating",
            format!("{bin} sudoku generate --seed 1 --count 3000 > {to}"),
        ),
    ] {
        let shown = on_terminal(&command);
        assert!(shown.contains(&format!("{label} [")), "{label}: {shown:?}");
    }
    // Through a pipe the bar stays away.
    let out = tabletop(&["sudoku", "count", &data], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
    assert_eq!(stdout(&out).lines().count(), 49_158);
}

#[test]
fn rate_strat_counts_the_puzzles_each_technique_set_solves() {
    // An easy puzzle (singles), a 17-clue one that needs more than singles but not more
    // than the basic set, and a magictour one the basic set does not finish.
    let puzzles = format!(
        "# three puzzles\n{PUZZLE}\n\
         .................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...\n\
         \n\
         4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n"
    );
    let dir = temp_dir("sudoku");
    let file = scratch(&dir, "strat.txt", puzzles.as_bytes());
    let name = file.to_str().unwrap();
    let out = tabletop(&["sudoku", "rate", "--strat", name], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    for (line, set, solved) in [
        (lines[0], "singles only", "1/3 solved by logic (33.3%), "),
        (
            lines[1],
            "basic techniques",
            "2/3 solved by logic (66.7%), ",
        ),
    ] {
        let head = format!("{name} [{set}]: {solved}");
        assert!(line.starts_with(&head), "{line}");
        let rest = &line[head.len()..];
        let (rate, per) = rest.split_once(" puzzles/s, ").expect(line);
        assert!(rate.parse::<f64>().unwrap() > 0.0, "{line}");
        let us = per.strip_suffix(" us/puzzle").expect(line);
        assert!(us.parse::<f64>().unwrap() >= 0.0, "{line}");
    }
    // A bad line is named, nothing is timed.
    let bad = scratch(&dir, "strat-bad.txt", format!("{PUZZLE}\nxx\n").as_bytes());
    let out = tabletop(&["sudoku", "rate", "--strat", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("line 2:"), "{}", stderr(&out));
}
