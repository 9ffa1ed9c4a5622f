//! `tabletop battleship`: scripted sessions and tools.

mod support;

use std::process::Output;

/// Runs `tabletop battleship ARGS` with scripted stdin.
fn run(args: &[&str], stdin: &str) -> Output {
    support::tabletop(&[&["battleship"], args].concat(), stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tabletop-bs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn place_plain_prints_exact_grids() {
    let out = run(&["place", "--count", "3", "--seed", "5", "--plain"], "");
    assert!(out.status.success());
    let s = text(&out.stdout);
    let fleets: Vec<&str> = s.split("\n\n").collect();
    assert_eq!(fleets.len(), 3);
    for f in fleets {
        let lines: Vec<&str> = f.trim_end_matches('\n').split('\n').collect();
        assert_eq!(lines.len(), 10, "{f:?}");
        for l in &lines {
            assert_eq!(l.len(), 10);
            assert!(l.chars().all(|c| c == '#' || c == '.'));
        }
        assert_eq!(f.matches('#').count(), 20);
    }
    // the same seed draws the same fleets
    assert_eq!(
        run(&["place", "--count", "3", "--seed", "5", "--plain"], "").stdout,
        out.stdout
    );
}

#[test]
fn count_fleets_classic() {
    let out = run(&["count-fleets", "--rules", "classic"], "");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).trim(), "15046987768");
}

#[test]
fn sim_prints_the_summary_line_last() {
    for shooter in ["random", "hunt", "density", "best"] {
        let out = run(
            &["sim", "--shooter", shooter, "--games", "12", "--seed", "3"],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let s = text(&out.stdout);
        let last = s.lines().last().unwrap();
        let words: Vec<&str> = last.split(' ').collect();
        assert_eq!(words.len(), 10, "{last}");
        assert_eq!(
            [words[0], words[2], words[4], words[6], words[8]],
            ["games", "mean", "median", "p90", "max"]
        );
        assert_eq!(words[1], "12");
        let mean: f64 = words[3].parse().unwrap();
        let max: u32 = words[9].parse().unwrap();
        assert!((20.0..=100.0).contains(&mean) && max <= 100, "{last}");
    }
}

#[test]
fn sim_results_do_not_depend_on_the_threads() {
    let last = |threads: &str| {
        let out = run(
            &[
                "sim",
                "--shooter",
                "posterior",
                "--games",
                "9",
                "--seed",
                "4",
                "--threads",
                threads,
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout).lines().last().unwrap().to_owned()
    };
    let one = last("1");
    assert_eq!(last("3"), one);
    assert_eq!(last("20"), one);
    let out = run(
        &["sim", "--shooter", "hunt", "--games", "2", "--threads", "0"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn unknown_shooter_is_a_usage_error() {
    let out = run(&["sim", "--shooter", "psychic", "--games", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr).lines().count(), 1);
}

#[test]
fn a_scripted_game_ends_with_a_winner() {
    // shoot every cell in reading order; the game ends on the way
    let mut script = String::new();
    for r in 1..=10 {
        for c in "abcdefghij".chars() {
            script.push_str(&format!("{c}{r}\n"));
        }
    }
    let out = run(
        &["play", "--place", "auto", "--seed", "9", "--bot", "random"],
        &script,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("You win") || s.contains("The computer wins"),
        "{s}"
    );
    assert!(s.contains("your fleet") && s.contains("enemy waters"));
}

#[test]
fn bad_input_is_reported_and_the_game_goes_on() {
    let out = run(
        &["play", "--place", "auto", "--seed", "1", "--bot", "hunt"],
        "z5\nk1\ne11\nfrobnicate\ne5\ne5\nquit\n",
    );
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("not a column"), "{err}");
    assert!(err.contains("not a row"), "{err}");
    assert!(err.contains("unknown command"), "{err}");
    // e5 twice: the second is refused (after a hit the first shot keeps the turn, after a
    // miss the computer plays and e5 is still ours to refuse)
    assert!(err.contains("already shot"), "{err}");
}

#[test]
fn manual_placement_explains_problems() {
    let out = run(
        &["play", "--seed", "2"],
        "place a1 h 4\nplace b2 h 3\nplace a1 q 3\ndone\nremove j10\nauto\ndone\nquit\n",
    );
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("touch at"), "{err}");
    assert!(err.contains("not an orientation"), "{err}");
    assert!(err.contains("not ready"), "{err}");
    assert!(err.contains("no ship at j10"), "{err}");
    assert!(text(&out.stdout).contains("enemy waters"));
}

#[test]
fn save_and_load_continue_the_game() {
    let path = tmp("game.sav");
    let p = path.to_str().unwrap();
    let out = run(
        &["play", "--place", "auto", "--seed", "4"],
        &format!("a1\nb2\nsave {p}\nquit\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(path.exists());
    let out = run(&["play", "--load", p], "show\nquit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("loaded"));
    // the enemy grid shows the two earlier shots
    let enemy_marks: usize = s
        .lines()
        .filter(|l| l.len() > 40)
        .take(11)
        .map(|l| l[29..].matches(['o', 'X', '#', '~']).count())
        .sum();
    assert!(enemy_marks >= 2, "{s}");
}

#[test]
fn corrupt_saves_are_errors_not_panics() {
    let path = tmp("bad.sav");
    std::fs::write(&path, b"TTBC\x01\x00garbage").unwrap();
    let out = run(&["play", "--load", path.to_str().unwrap()], "quit\n");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("corrupt") && !err.contains("panic"), "{err}");
    let out = run(&["play", "--load", "/no/such/file.sav"], "quit\n");
    assert_eq!(out.status.code(), Some(1));
}
