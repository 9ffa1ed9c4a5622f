//! `tabletop battleship`: scripted sessions and tools.

use crate::support;

use std::process::Output;

/// Runs `tabletop battleship ARGS` with scripted stdin.
fn run(args: &[&str], stdin: &str) -> Output {
    support::tabletop(&[&["battleship"], args].concat(), stdin)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
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
        &["play", "--seed", "2", "--place", "manual"],
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
    let dir = support::temp_dir("bs");
    let path = dir.path().join("game.sav");
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
    let dir = support::temp_dir("bs");
    let path = dir.path().join("bad.sav");
    std::fs::write(&path, b"TTBC\x01\x00garbage").unwrap();
    let out = run(&["play", "--load", path.to_str().unwrap()], "quit\n");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("corrupt") && !err.contains("panic"), "{err}");
    let out = run(&["play", "--load", "/no/such/file.sav"], "quit\n");
    assert_eq!(out.status.code(), Some(1));
}

/// A finished scripted game against `bot` (shoot every cell in reading order).
fn every_cell() -> String {
    let mut script = String::new();
    for r in 1..=10 {
        for c in "abcdefghij".chars() {
            script.push_str(&format!("{c}{r}\n"));
        }
    }
    script
}

#[test]
fn known_water_around_a_sunk_ship_is_refused() {
    // Shooting every cell in order sinks ships and then reaches water revealed around
    // them; the old program shot it (a sure miss that lost the turn).
    let out = run(&["play", "--seed", "9", "--bot", "random"], &every_cell());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    let refused: Vec<&str> = err.lines().filter(|l| l.contains("known water")).collect();
    assert!(!refused.is_empty(), "{err}");
    // a refused cell was never shot
    let cell = refused[0]
        .trim_start_matches("error: ")
        .split(' ')
        .next()
        .unwrap();
    assert!(
        !text(&out.stdout).contains(&format!("you shoot {cell}:")),
        "{cell}"
    );
}

#[test]
fn placing_a_ship_twice_says_where_it_is() {
    let out = run(
        &["play", "--place", "manual", "--seed", "2"],
        "place a1 h 4\nplace c7 h 4\nquit\n",
    );
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "cannot place c7 h 4: the fleet has 1 ship(s) of length 4, all placed: a1 h 4"
        ),
        "{err}"
    );
    assert!(!err.contains("instead of"), "{err}");
}

#[test]
fn a_new_game_places_your_fleet_automatically() {
    let out = run(&["play", "--seed", "3"], "quit\n");
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(s.contains("enemy waters") && s.contains("shoot"), "{s}");
    assert!(!s.contains("Place your fleet"), "{s}");
    let own_ship_cells: usize = s
        .lines()
        .filter(|l| l.len() > 29 && l[..3].trim().parse::<u8>().is_ok())
        .map(|l| l[..29].matches('#').count())
        .sum();
    assert_eq!(own_ship_cells, 20, "{s}");
    // and by hand on request
    let out = run(&["play", "--seed", "3", "--place", "manual"], "quit\n");
    assert!(text(&out.stdout).contains("Place your fleet"));
}

#[test]
fn where_marks_the_bow_cells_on_the_grid() {
    let out = run(
        &["play", "--place", "manual", "--seed", "2"],
        "place a1 h 4\nwhere 3 h\nwhere 3 г\nwhere 3 x\nquit\n",
    );
    assert!(out.status.success());
    let s = text(&out.stdout);
    let marked: Vec<&str> = s
        .split("bows of a 3-cell ship h (+):\n")
        .nth(1)
        .expect("a grid after where")
        .lines()
        .take(11)
        .collect();
    assert_eq!(marked[0].trim(), "a b c d e f g h i j");
    // row 1: the 4-ship, then e1 touches it; f1, g1, h1 are bows (a 3-ship fits to j1)
    assert_eq!(marked[1], " 1  # # # # . + + + . .");
    // row 2 touches the 4-ship from a2 to e2
    assert_eq!(marked[2], " 2  . . . . . + + + . .");
    assert_eq!(marked[3], " 3  + + + + + + + + . .");
    // the Russian letter for horizontal is the engine's
    assert_eq!(s.matches("bows of a 3-cell ship h (+)").count(), 2, "{s}");
    assert!(text(&out.stderr).contains("'x' is not an orientation"));
}

#[test]
fn save_during_placement_and_load_during_play() {
    let dir = support::temp_dir("bs");
    let placing = dir.path().join("placing.sav");
    let battle = dir.path().join("battle.sav");
    let (pl, ba) = (placing.to_str().unwrap(), battle.to_str().unwrap());
    let out = run(
        &["play", "--place", "manual", "--seed", "6"],
        &format!("place a1 h 4\nsave {pl}\nq\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(&format!("Saved to {pl}.")));
    // the save keeps the ships placed so far (your draft at the table): the placement
    // goes on with the 4-ship at a1 in place, so a second 4-ship is refused
    let out = run(
        &["play", "--load", pl],
        "show\nplace a3 h 4\nplace a3 h 3\nq\n",
    );
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(!s.contains("still to place: 4 3 3 2 2 2 1 1 1 1"), "{s}");
    assert!(s.contains("still to place: 3 3 2 2 2 1 1 1 1"), "{s}");
    assert!(s.contains("still to place: 3 2 2 2 1 1 1 1"), "{s}");
    let row1 = s.lines().find(|l| l.starts_with(" 1 ")).unwrap();
    assert!(row1.starts_with(" 1  # # # # ."), "{row1}");
    assert!(
        text(&out.stderr).contains("cannot place a3 h 4"),
        "{}",
        text(&out.stderr)
    );
    // a battle saved, then loaded in the middle of another game
    let out = run(&["play", "--seed", "7"], &format!("e5\nsave {ba}\nq\n"));
    assert!(out.status.success());
    let out = run(&["play", "--seed", "8"], &format!("load {ba}\nq\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains(&format!("Loaded {ba}.")), "{s}");
    let after = s.split(&format!("Loaded {ba}.")).nth(1).unwrap();
    // the enemy grid shows the earlier shot at e5
    let row5 = after.lines().find(|l| l.starts_with(" 5 ")).unwrap();
    assert!(row5[29..].contains(['o', 'X', '#']), "{row5}");
}

#[test]
fn the_end_shows_the_enemy_fleet_and_offers_a_new_game() {
    let mut script = every_cell();
    script.push_str("n\n");
    let out = run(&["play", "--seed", "9", "--bot", "random"], &script);
    assert!(out.status.success());
    let s = text(&out.stdout);
    assert!(
        s.contains("enemy fleet") && s.contains("the enemy fleet: "),
        "{s}"
    );
    assert!(s.contains("New game? (y/n)"), "{s}");
    let end = s.split("enemy fleet\n").nth(1).unwrap();
    let enemy_cells: usize = end
        .lines()
        .skip(1)
        .take(10)
        .map(|l| l[29..].matches(['#', 'X']).count())
        .sum();
    assert_eq!(enemy_cells, 20, "{end}");
    // y starts a new game at once
    let mut script = every_cell();
    script.push_str("y\nq\n");
    let out = run(&["play", "--seed", "9", "--bot", "random"], &script);
    let s = text(&out.stdout);
    let after = s.split("New game? (y/n)").nth(1).unwrap();
    assert!(after.contains("against the random shooter"), "{after}");
}

#[test]
fn a_version_1_save_still_loads() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/battleship_fixtures/play-v1.ttbc"
    );
    assert!(
        std::path::Path::new(path).exists(),
        "fixture {path} is missing"
    );
    let out = run(&["play", "--load", path], "a1\nb2\nc1\nq\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("against the posterior shooter"), "{s}");
    // the computer continues from the saved generator exactly as before the change
    let shots: Vec<&str> = s
        .lines()
        .filter(|l| l.starts_with("computer shoots"))
        .collect();
    assert_eq!(
        shots,
        [
            "computer shoots h10: miss",
            "computer shoots f1: hit",
            "computer shoots e1: miss"
        ]
    );
}

#[test]
fn unknown_shooter_lists_only_shooters() {
    let out = run(&["play", "--bot", "foo"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("lookahead") && !err.contains("border"),
        "{err}"
    );
}

#[test]
fn saves_are_tables_and_old_ttbc_saves_still_load() {
    // a new save is the shared table format
    let dir = support::temp_dir("bs");
    let path = dir.path().join("table.sav");
    let p = path.to_str().unwrap();
    let out = run(&["play", "--seed", "4"], &format!("a1\nsave {p}\nquit\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.starts_with(b"TTPL"), "{:?}", &bytes[..8]);
    // a save during a hand placement is a table too, and loads into the placement
    let out = run(
        &["play", "--seed", "4", "--place", "manual"],
        &format!("place a1 h 4\nsave {p}\nquit\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read(&path).unwrap().starts_with(b"TTPL"));
    let out = run(&["play", "--load", p], "quit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Place your fleet"));
    // the old format still loads, and saving it again writes a table
    let old = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/battleship_fixtures/play-v1.ttbc"
    );
    assert!(std::fs::read(old).unwrap().starts_with(b"TTBC"));
    let out = run(&["play", "--load", old], &format!("save {p}\nquit\n"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("against the posterior shooter"));
    assert!(std::fs::read(&path).unwrap().starts_with(b"TTPL"));
    let out = run(&["play", "--load", p], "show\nquit\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("against the posterior shooter"));
}

#[test]
fn a_ship_placed_on_itself_is_named_once() {
    let out = run(
        &["play", "--place", "manual", "--seed", "2"],
        "place a1 h 2\nplace a1 h 2\nquit\n",
    );
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("cannot place a1 h 2: ship a1 h 2 is placed there already"),
        "{err}"
    );
    assert!(!err.contains("a1 h 2 and a1 h 2"), "{err}");
}

#[test]
fn a_length_the_rules_lack_is_refused_with_the_lengths_they_have() {
    let out = run(
        &["play", "--place", "manual", "--seed", "2"],
        "place a3 h 7\nplace a3 h 5\nwhere 6 h\nquit\n",
    );
    assert!(out.status.success());
    let err = text(&out.stderr);
    for len in ["7", "5", "6"] {
        assert!(
            err.contains(&format!(
                "'{len}' is not a ship length of these rules: ships are 4, 3, 2 or 1 cells long"
            )),
            "{err}"
        );
    }
    assert!(!err.contains("1 to 6"), "{err}");
    // classic rules have other lengths
    let out = run(
        &[
            "play", "--place", "manual", "--rules", "classic", "--seed", "2",
        ],
        "place a3 h 1\nquit\n",
    );
    assert!(
        text(&out.stderr).contains("ships are 5, 4, 3 or 2 cells long"),
        "{}",
        text(&out.stderr)
    );
}
