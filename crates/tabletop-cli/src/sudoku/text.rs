//! The words both ways of playing use: the answers to check and verify, counts and the
//! clock. Shared by the line mode (`play.rs`) and the full screen (`tui/sudoku`).

use std::time::Duration;

use sudoku_core::{Check, Game, Verdict};

/// The answer to `check` (also the full screen's `c`).
pub(crate) fn check_text(game: &Game, check: &Check) -> String {
    if !check.wrong.is_empty() {
        return format!(
            "{} wrong: {}; no solution is left with {}.",
            entries_are(check.wrong.len()),
            cell_list(&check.wrong),
            if check.wrong.len() == 1 { "it" } else { "them" }
        );
    }
    let n = game.size().side();
    let entries = (0..n * n)
        .filter(|&i| game.entry(i / n, i % n).is_some())
        .count();
    let solutions = plural(check.solutions, "solution");
    match entries {
        0 => format!("No entries yet; the puzzle has {solutions}."),
        1 => format!("Your entry is right; the puzzle has {solutions} left."),
        _ => format!("All {entries} entries are right; the puzzle has {solutions} left."),
    }
}

/// The answer to `verify` (also the full screen's `v`).
pub(crate) fn verify_text(game: &Game) -> String {
    match game.verify() {
        Verdict::Correct => "Complete and correct!".to_owned(),
        Verdict::Wrong(wrong) => format!(
            "The grid is full, but {} wrong: {}.",
            entries_are(wrong.len()),
            cell_list(&wrong)
        ),
        Verdict::Incomplete(empty) => {
            format!("Not complete: {} still empty.", plural(empty, "cell"))
        }
    }
}

/// `1 entry is` or `3 entries are`.
fn entries_are(n: usize) -> String {
    if n == 1 {
        "1 entry is".to_owned()
    } else {
        format!("{n} entries are")
    }
}

/// `r3c5, r4c1 and r9c9`.
fn cell_list(cells: &[(usize, usize)]) -> String {
    let names: Vec<String> = cells
        .iter()
        .map(|&(r, c)| format!("r{}c{}", r + 1, c + 1))
        .collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// `1 mistake`, `2 mistakes`.
pub(crate) fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// `m:ss` or `h:mm:ss`.
pub(crate) fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}
