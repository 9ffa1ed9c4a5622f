//! `tabletop nardy` bot tools: hint, eval, analyze, arena, train, and bot levels in play.

use crate::support;

use std::path::{Path, PathBuf};

use nardy_core::Rules;
use nardy_core::ai::{Level, play_game};
use support::{stderr, stdout, tabletop, temp_dir};

const MIDDLE: &str = "24:3,20:2,19:2,18:2,17:2,16:1,13:2,9:1/12:4,11:2,10:2,8:2,23:2,22:2,6:1 w";

#[test]
fn hint_ranks_every_legal_turn_best_first() {
    let out = tabletop(
        &["nardy", "hint", MIDDLE, "53", "--level", "strong", "--json"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = serde_json::from_str(&stdout(&out)).unwrap();
    let moves = stdout(&tabletop(&["nardy", "moves", MIDDLE, "53"], ""));
    assert_eq!(lines.len(), moves.lines().count());
    assert_eq!(lines[0]["loss"], 0.0);
    assert_eq!(lines[0]["plies"], 1);
    for w in lines.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        assert!(
            a["plies"].as_u64() > b["plies"].as_u64()
                || a["equity"].as_f64() >= b["equity"].as_f64()
        );
    }
    let text = stdout(&tabletop(
        &["nardy", "hint", MIDDLE, "53", "--level", "learned"],
        "",
    ));
    assert!(
        text.starts_with("White to play 53, level 4 (learned):"),
        "{text}"
    );
    assert!(text.lines().nth(1).unwrap().trim_start().starts_with("1. "));
}

#[test]
fn eval_gives_consistent_probabilities() {
    let out = tabletop(
        &["nardy", "eval", "24:15/12:15 w", "--plies", "0", "--json"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let f = |k: &str| v[k].as_f64().unwrap();
    assert!((f("win") + f("lose") - 1.0).abs() < 1e-6);
    assert!(f("win_mars") <= f("win") && f("lose_mars") <= f("lose"));
    assert!((-3.0..=3.0).contains(&f("equity")));
    assert_eq!(v["race"], false);
    // A bear-off race is exact: White needs one roll.
    let out = tabletop(&["nardy", "eval", "1:1/18:15 w", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["win"], 1.0);
    assert_eq!(v["equity"], 2.0);
}

#[test]
fn bad_input_is_one_line_of_error() {
    let out = tabletop(&["nardy", "hint", "24:15/12:15", "65"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let out = tabletop(
        &["nardy", "hint", "24:15/12:15 w", "65", "--level", "9"],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("is not a level"), "{}", stderr(&out));
    let out = tabletop(&["nardy", "hint", "--", "-/12:15 w", "65"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("the game is over"));
    let out = tabletop(&["nardy", "analyze", "/no/such/file.nardy"], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out).lines().count(), 1);
    let out = tabletop(&["nardy", "play", "--black", "bot:grandmaster"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("grandmaster"));
}

#[test]
fn arena_results_do_not_depend_on_threads() {
    let run = |threads: &str| {
        let out = tabletop(
            &[
                "nardy",
                "arena",
                "--white",
                "bot:greedy",
                "--black",
                "random",
                "--games",
                "16",
                "--seed",
                "4",
                "--threads",
                threads,
                "--json",
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let one = run("1");
    assert_eq!(one, run("3"));
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["games"], 16);
    let wins =
        v["first_wins"]["wins"].as_u64().unwrap() + v["second_wins"]["wins"].as_u64().unwrap();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 16);
    assert!(v["points_per_game"].as_f64().unwrap() > 0.5, "{one}");
}

#[test]
fn analyze_lists_the_losses_of_each_side() {
    let dir = temp_dir("nardy-ai");
    let rules = Rules::default();
    let mut a = Level::new(3).unwrap().bot(&rules);
    let mut b = Level::MIN.bot(&rules);
    let game = play_game(&rules, 8, a.as_mut(), b.as_mut());
    let path = dir.path().join("analyze.nardy");
    std::fs::write(&path, game.to_bytes()).unwrap();
    let out = tabletop(
        &[
            "nardy",
            "analyze",
            path.to_str().unwrap(),
            "--level",
            "greedy",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("White  ") || l.contains("Black  "))
            .count(),
        game.history().len()
    );
    // The greedy player made the greedy search's choices: it lost nothing.
    assert!(text.contains("White: lost 0.000 equity"), "{text}");
    assert!(text.contains("worst turns:"));
    let worst = text.split("worst turns:").nth(1).unwrap();
    assert!(
        worst.lines().skip(1).all(|l| l.contains("Black")),
        "{worst}"
    );
}

/// `tabletop nardy train` of a 4-unit network with `args`, its checkpoint and weights
/// in the given files.
fn train_tiny(args: &[&str], ck: &Path, out: &Path) -> std::process::Output {
    let mut all = vec!["nardy", "train", "--hidden", "4"];
    all.extend_from_slice(args);
    all.extend([
        "--checkpoint",
        ck.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    tabletop(&all, "")
}

#[test]
fn training_resumes_to_the_same_weights() {
    let dir = temp_dir("nardy-ai");
    let (ck1, w1) = (dir.path().join("a.ckpt"), dir.path().join("a.bin"));
    let (ck2, w2) = (dir.path().join("b.ckpt"), dir.path().join("b.bin"));
    let train = |games: &str, ck: &PathBuf, out: &PathBuf| {
        let o = train_tiny(
            &["--games", games, "--seed", "3", "--bench-every", "0"],
            ck,
            out,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stderr(&o)
    };
    train("4", &ck1, &w1);
    train("2", &ck2, &w2);
    let resumed = train("4", &ck2, &w2);
    assert!(resumed.contains("resuming"), "{resumed}");
    assert!(resumed.contains("at game 2"), "{resumed}");
    assert_eq!(std::fs::read(&w1).unwrap(), std::fs::read(&w2).unwrap());
    assert!(nardy_core::ai::Network::from_bytes(&std::fs::read(&w1).unwrap()).is_ok());
}

#[test]
fn a_resumed_run_switches_to_one_ply_targets_and_its_checkpoint_keeps_them() {
    let dir = temp_dir("nardy-ai");
    let (ck1, w1) = (dir.path().join("ply-a.ckpt"), dir.path().join("ply-a.bin"));
    let (ck2, w2) = (dir.path().join("ply-b.ckpt"), dir.path().join("ply-b.bin"));
    let train = |args: &[&str], ck: &PathBuf, out: &PathBuf| {
        let mut all = vec!["--seed", "5", "--bench-every", "0"];
        all.extend_from_slice(args);
        let o = train_tiny(&all, ck, out);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stderr(&o)
    };
    // a: 2 games of TD(λ), then 2 with 1-ply targets in one go
    train(&["--games", "2"], &ck1, &w1);
    let switched = train(
        &["--games", "4", "--target-plies", "1", "--lambda", "0"],
        &ck1,
        &w1,
    );
    assert!(
        switched.contains("targets from 1-ply values with λ 0 from game 2"),
        "{switched}"
    );
    // b: the same, stopped after the first searched game and resumed without the flags
    train(&["--games", "2"], &ck2, &w2);
    train(
        &["--games", "3", "--target-plies", "1", "--lambda", "0"],
        &ck2,
        &w2,
    );
    let resumed = train(&["--games", "4"], &ck2, &w2);
    assert!(!resumed.contains("targets from"), "{resumed}");
    assert_eq!(std::fs::read(&w1).unwrap(), std::fs::read(&w2).unwrap());

    for bad in [["--lambda", "1.5"], ["--target-plies", "2"]] {
        let o = train_tiny(&[&["--games", "1"][..], &bad[..]].concat(), &ck2, &w2);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    }
}

#[test]
fn a_network_of_the_second_input_set_trains_benches_against_weights_and_plays_the_arena() {
    let dir = temp_dir("nardy-ai");
    let (ck, out, bad) = (
        dir.path().join("v2.ckpt"),
        dir.path().join("v2.bin"),
        dir.path().join("v2-bad.bin"),
    );
    let o = train_tiny(
        &[
            "--games",
            "4",
            "--input-set",
            "2",
            "--bench-every",
            "2",
            "--bench-games",
            "2",
            "--bench-weights",
            "../nardy-core/src/ai/weights.bin",
        ],
        &ck,
        &out,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("game 2: ") && stderr(&o).contains("weights.bin (2 games)"));
    let net = nardy_core::ai::Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(net.inputs(), nardy_core::ai::INPUTS_V2);

    let arena = |weights: &PathBuf| {
        tabletop(
            &[
                "nardy",
                "arena",
                "--white",
                "learned",
                "--black",
                "greedy",
                "--games",
                "2",
                "--threads",
                "1",
                "--white-weights",
                weights.to_str().unwrap(),
                "--json",
            ],
            "",
        )
    };
    let o = arena(&out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"games\":2"));
    std::fs::write(&bad, b"not weights").unwrap();
    let o = arena(&bad);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not a network's weights"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn play_takes_bot_levels() {
    let out = tabletop(
        &[
            "nardy",
            "play",
            "--white",
            "bot:greedy",
            "--black",
            "bot:random",
            "--seed",
            "2",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("White (bot) rolls") && text.contains("wins"),
        "{text}"
    );
    // `hint` in play ranks the turns of the dice thrown.
    let out = tabletop(
        &["nardy", "play", "--seed", "5", "--black", "bot:random"],
        "hint\nquit\n",
    );
    let text = stdout(&out);
    assert!(text.contains(" 1. ") && text.contains("equity"), "{text}");
}

#[test]
fn rollout_measures_turns_with_intervals_whatever_the_threads() {
    let args = |threads: &'static str| {
        [
            "nardy",
            "rollout",
            MIDDLE,
            "--dice",
            "53",
            "--games",
            "40",
            "--level",
            "greedy",
            "--top",
            "2",
            "--seed",
            "3",
            "--threads",
            threads,
            "--json",
        ]
    };
    let one = tabletop(&args("1"), "");
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    let two = tabletop(&args("2"), "");
    assert_eq!(stdout(&one), stdout(&two), "the threads changed a rollout");
    let lines: Vec<serde_json::Value> = serde_json::from_str(&stdout(&one)).unwrap();
    assert_eq!(lines.len(), 2);
    for l in &lines {
        assert_eq!(l["games"], 40);
        let (e, ci) = (
            l["equity"].as_f64().unwrap(),
            l["interval95"].as_f64().unwrap(),
        );
        assert!(e.abs() <= 3.0 && ci > 0.0 && ci < 3.0, "{l}");
        assert!(l["turn"].is_string() && l["search_equity"].is_number());
    }
    // sorted by the rolled-out equity
    assert!(lines[0]["equity"].as_f64() >= lines[1]["equity"].as_f64());
}

#[test]
fn rollout_of_a_decided_position_is_exact_and_bad_input_is_an_error() {
    // White bears off its last checker with any roll while Black has none home: a mars.
    let out = tabletop(
        &[
            "nardy",
            "rollout",
            "1:1/12:15 w",
            "--games",
            "36",
            "--level",
            "greedy",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("equity +2.000 ± 0.000, win 100.0%"),
        "{}",
        stdout(&out)
    );
    let out = tabletop(&["nardy", "rollout", "1:1/12:15 w", "--dice", "7"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
    let out = tabletop(&["nardy", "rollout", "24:15/12:15 w", "--games", "0"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn analyze_rolls_out_the_close_calls() {
    let dir = temp_dir("nardy-ai");
    // The random level's turns, judged by the greedy search: some lose a little.
    let rules = Rules::default();
    let mut a = Level::new(3).unwrap().bot(&rules);
    let mut b = Level::MIN.bot(&rules);
    let game = play_game(&rules, 8, a.as_mut(), b.as_mut());
    let path = dir.path().join("analyze-rollouts.nardy");
    std::fs::write(&path, game.to_bytes()).unwrap();
    let args = [
        "nardy",
        "analyze",
        path.to_str().unwrap(),
        "--level",
        "greedy",
        "--rollout",
        "36",
        "--rollout-level",
        "greedy",
        "--unsure",
        "0.05",
        "--json",
    ];
    let out = tabletop(&args, "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rollouts = report["rollouts"].as_array().unwrap();
    let close = report["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["loss"].as_f64().is_some_and(|l| l > 0.0 && l < 0.05))
        .count();
    assert!(close > 0, "the game has no close call to test with");
    assert_eq!(rollouts.len(), close);
    for r in rollouts {
        assert_eq!(r["side"], "black");
        let (p, b) = (
            r["played_equity"].as_f64().unwrap(),
            r["best_equity"].as_f64().unwrap(),
        );
        assert!((r["rollout_loss"].as_f64().unwrap() - (b - p)).abs() < 1e-9);
        assert!(r["interval95"].as_f64().unwrap() >= 0.0);
    }
    // The text report lists them too.
    let text = stdout(&tabletop(&args[..args.len() - 1], ""));
    assert!(
        text.contains(
            "rollouts of the close calls (turns losing under 0.050; 36 games each, level greedy):"
        ),
        "{text}"
    );
    assert_eq!(text.matches(" ± ").count(), close, "{text}");
}
