//! CLI tests of the Reversi AI tools: `solve`, `bestmove`, `arena`, and the bots and
//! hints of `play`.

use crate::support;

use support::{stderr, stdout, tabletop, temp_dir};

/// FFO #20: Black to move, 6 empty squares, h5 wins by 6.
const FFO20: &str = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X";
/// FFO #21: White to move, 15 empty squares, g5 draws.
const FFO21: &str = "OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O";
const START: &str = "---------------------------OX------XO--------------------------- X";

#[test]
fn solve_prints_the_best_move_and_exact_score() {
    let out = tabletop(&["reversi", "solve", FFO20], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "best h5 score +6");
    let out = tabletop(&["reversi", "solve", FFO21], "");
    assert_eq!(stdout(&out).trim(), "best g5 score +0");
}

#[test]
fn solve_a_board_starting_with_dashes_after_a_separator() {
    let board = "--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O";
    let out = tabletop(&["reversi", "solve", "--", board], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "best g8 score +2");
}

#[test]
fn solve_takes_a_board_starting_with_a_dash() {
    // FFO #22 starts with '-': `show` and `bestmove` took it, `solve` called it an
    // unexpected argument.
    let board = "--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O";
    let out = tabletop(&["reversi", "solve", board], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "best g8 score +2");
}

#[test]
fn solve_refuses_a_position_it_cannot_finish() {
    // The start position (60 empties) used to run silently for ever.
    let out = tabletop(&["reversi", "solve", START], "");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: 60 empty squares is too many"),
        "{err}"
    );
    assert!(err.contains("tabletop reversi bestmove"), "{err}");
    assert!(err.contains("--max-empties"), "{err}");
    assert_eq!(err.lines().count(), 1);
    assert!(stdout(&out).is_empty());
    // The limit can be moved: FFO #21 has 15 empty squares.
    let out = tabletop(&["reversi", "solve", FFO21, "--max-empties", "14"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("(the limit is 14)"),
        "{}",
        stderr(&out)
    );
    let out = tabletop(&["reversi", "solve", FFO21, "--max-empties", "15"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "best g5 score +0");
}

#[test]
fn solve_checks_every_line_of_a_file_before_solving() {
    let file = format!("{FFO20}; H5:+6;\n{START}\n");
    let out = tabletop(&["reversi", "solve", "--file", "-"], &file);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("error: line 2: 60 empty squares is too many"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn solve_the_shipped_ffo_suite_from_the_repository_root() {
    // The README's command, run where a fresh clone has the data.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let file = "data/reversi/fforum-1-19.obf";
    assert!(
        std::path::Path::new(root).join(file).is_file(),
        "{root}/{file} is missing"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .args(["reversi", "solve", "--file", file])
        .current_dir(root)
        .env("NO_COLOR", "1")
        .output()
        .expect("the tabletop binary runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("#1 best g8 score +18 "), "{text}");
    assert!(text.trim_end().ends_with("19 of 19 scores right"), "{text}");
}

#[test]
fn solve_a_file_checks_the_annotations() {
    let file = format!("{FFO20}; H5:+6; G6:-2;\n{FFO21}; G5:+0; G2:-2;\n");
    let out = tabletop(&["reversi", "solve", "--file", "-"], &file);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("#1 best h5 score +6 nodes "), "{text}");
    assert!(lines[0].ends_with(" ok"));
    assert!(lines[1].starts_with("#2 best g5 score +0 "), "{text}");
    assert!(lines[2].starts_with("total positions 2 seconds "), "{text}");
    assert!(lines[2].contains(" nodes/s "));
    assert!(lines[2].ends_with("2 of 2 scores right"));
}

#[test]
fn solve_reports_a_wrong_annotation() {
    let file = format!("{FFO20}; H5:+8;\n");
    let out = tabletop(&["reversi", "solve", "--file", "-"], &file);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("MISMATCH (expected +8)"));
    assert!(stderr(&out).contains("did not match"));
}

#[test]
fn solve_rejects_bad_boards_without_panicking() {
    let out = tabletop(&["reversi", "solve", "XO X"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: bad board string"));
    assert!(!stderr(&out).contains("panick"));
    let out = tabletop(&["reversi", "solve", "--file", "-"], "not a board\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("line 1"));
    let out = tabletop(&["reversi", "solve", "--file", "/no/such/file.obf"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot open"));
}

#[test]
fn solve_json() {
    let out = tabletop(&["reversi", "solve", "--json", FFO20], "");
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["best"], "h5");
    assert_eq!(v["score"], 6);
}

#[test]
fn bestmove_by_level_depth_and_time() {
    for args in [
        vec!["--level", "3"],
        vec!["--depth", "4"],
        vec!["--time-ms", "50"],
        vec!["--time-ms", "50", "--cpu-time"],
    ] {
        let mut all = vec!["reversi", "bestmove", START];
        all.extend(args.iter().copied());
        let out = tabletop(&all, "");
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(words[0], "best");
        assert!(["d3", "c4", "f5", "e6"].contains(&words[1]), "{text}");
        assert_eq!(words[2], "score");
    }
    // --cpu-time only counts a time limit.
    let out = tabletop(&["reversi", "bestmove", START, "--cpu-time"], "");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--time-ms"), "{}", stderr(&out));
    // Near the end the answer is the exact solution.
    let out = tabletop(&["reversi", "bestmove", FFO20, "--level", "5"], "");
    assert_eq!(stdout(&out).trim(), "best h5 score +6");
    assert!(stderr(&out).starts_with("exact"));
}

#[test]
fn a_drawn_exact_score_is_signed_like_the_engine_prints_it() {
    // The CLI's copy of the score display printed `0` where the engine prints `+0`.
    let out = tabletop(&["reversi", "bestmove", FFO21, "--level", "10"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "best g5 score +0");
    // FFO #4: 14 empty squares, within the hints' exact range; h8 and a5 draw.
    let ffo4 = "-XXXXXX-X-XXXOO-XOXXXOOXXXOXOOOX-OXOOXXX--OOOXXX--OOXX----XOXXO- X";
    let tmp = temp_dir("reversi-hint");
    let dir = tmp.path();
    let path = dir.join("ffo4.sav");
    let game =
        reversi_core::Game::from_position(reversi_core::Rules::default(), ffo4.parse().unwrap());
    std::fs::write(&path, game.to_bytes()).unwrap();
    let out = tabletop(
        &["reversi", "play", "--load", path.to_str().unwrap()],
        "hint\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\n  h8 +0 (exact)\n"), "{text}");
    assert!(text.contains("\n  b6 -4 (exact)\n"), "{text}");
}

#[test]
fn bestmove_is_reproducible_with_a_seed() {
    let run = || {
        stdout(&tabletop(
            &["reversi", "bestmove", START, "--level", "4", "--seed", "9"],
            "",
        ))
    };
    assert_eq!(run(), run());
}

#[test]
fn bestmove_rejects_bad_arguments() {
    let out = tabletop(&["reversi", "bestmove", START, "--level", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = tabletop(
        &["reversi", "bestmove", START, "--level", "2", "--depth", "3"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let out = tabletop(&["reversi", "bestmove", START, "--depth", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    let over = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O";
    let out = tabletop(&["reversi", "bestmove", over], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("game is over"));
}

#[test]
fn arena_reports_results_and_a_confidence_interval() {
    let args = [
        "reversi", "arena", "--black", "bot:3", "--white", "bot:1", "--games", "4", "--seed", "5",
    ];
    let out = tabletop(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("bot:3 vs bot:1: 4 games (2 openings"),
        "{text}"
    );
    assert!(text.contains("bot:3: wins "), "{text}");
    assert!(text.contains("(95% confidence)"), "{text}");
    // Same seed, same games.
    let again = stdout(&tabletop(&args, ""));
    let strip = |t: &str| t.lines().take(2).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(&text), strip(&again));
    let out = tabletop(
        &[
            "reversi", "arena", "--black", "bot:2", "--white", "bot:2", "--games", "2", "--json",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["games"], 2);
    let total =
        v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(total, 2);
}

#[test]
fn arena_results_do_not_depend_on_threads() {
    let run = |threads: &str| {
        let out = tabletop(
            &[
                "reversi",
                "arena",
                "--black",
                "bot:3",
                "--white",
                "bot:2",
                "--games",
                "12",
                "--seed",
                "9",
                "--threads",
                threads,
                "--json",
            ],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let mut v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    let one = run("1");
    assert_eq!(one["games"], 12);
    assert_eq!(one, run("3"));
    let out = tabletop(
        &[
            "reversi",
            "arena",
            "--black",
            "bot:1",
            "--white",
            "bot:1",
            "--threads",
            "0",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn arena_rejects_unknown_players() {
    let out = tabletop(
        &["reversi", "arena", "--black", "human", "--white", "bot:1"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let out = tabletop(
        &[
            "reversi", "arena", "--black", "bot:1", "--white", "bot:1", "--games", "0",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn play_hint_shows_scored_moves() {
    let out = tabletop(&["reversi", "play"], "hint\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for mv in ["d3", "c4", "f5", "e6"] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(mv) && l.contains("(estimate)")),
            "{text}"
        );
    }
}

#[test]
fn bots_play_a_whole_game() {
    let out = tabletop(
        &[
            "reversi", "play", "--black", "bot:2", "--white", "bot:3", "--seed", "3",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.to_lowercase().contains("game over") || text.contains("wins") || text.contains("draw"),
        "{text}"
    );
    let again = stdout(&tabletop(
        &[
            "reversi", "play", "--black", "bot:2", "--white", "bot:3", "--seed", "3",
        ],
        "",
    ));
    assert_eq!(text, again);
}

#[test]
fn train_writes_a_reproducible_weights_file() {
    let tmp = temp_dir("train");
    let dir = tmp.path();
    let run = |name: &str| {
        let path = dir.join(name);
        let out = tabletop(
            &[
                "reversi",
                "train",
                "--games",
                "30",
                "--epochs",
                "2",
                "--seed",
                "3",
                "--out",
                path.to_str().unwrap(),
            ],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).starts_with("wrote "), "{}", stdout(&out));
        assert!(
            stderr(&out).contains("epoch 2: rms error"),
            "{}",
            stderr(&out)
        );
        std::fs::read(path).unwrap()
    };
    let a = run("a.bin");
    assert_eq!(a, run("b.bin"), "same seed, same weights");
    let weights = reversi_core::ai::pattern::PatternWeights::from_bytes(&a).unwrap();
    assert_ne!(weights, reversi_core::ai::pattern::PatternWeights::zero());
    for bad in [
        &["--games", "0"][..],
        &["--epochs", "0"],
        &["--rate", "0"],
        &["--random", "101"],
    ] {
        let mut args = vec!["reversi", "train", "--out", "unused.bin"];
        args.extend_from_slice(bad);
        let out = tabletop(&args, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
    }
    let missing = dir.join("no-such-dir").join("w.bin");
    let out = tabletop(
        &[
            "reversi",
            "train",
            "--games",
            "2",
            "--epochs",
            "1",
            "--out",
            missing.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    // Refused before the self-play: one line, no "epoch" lines of the fit.
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
}

#[test]
fn train_from_weights_resumes_from_its_chunks_on_any_thread_count() {
    let tmp = temp_dir("train-from");
    let dir = tmp.path();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let run = |args: &[&str]| {
        let mut all = vec!["reversi", "train", "--epochs", "2", "--seed", "4"];
        all.extend_from_slice(args);
        let out = tabletop(&all, "");
        assert!(out.status.success(), "{}", stderr(&out));
    };
    run(&["--games", "20", "--out", &path("gen1.bin")]);
    let gen2 = |out: &str, threads: &str, data: &str| {
        run(&[
            "--from",
            &path("gen1.bin"),
            "--games",
            "6",
            "--depth",
            "1",
            "--exact",
            "4",
            "--threads",
            threads,
            "--data",
            &path(data),
            "--out",
            &path(out),
        ]);
        std::fs::read(path(out)).unwrap()
    };
    let a = gen2("a.bin", "2", "chunks");
    let chunk = dir.join("chunks").join("from-d1-e4-r5-s4-c0-g6.bin");
    let kept = std::fs::read(&chunk).unwrap();
    assert!(!kept.is_empty() && kept.len().is_multiple_of(17));
    // A second run reads the kept chunk back; another folder plays it again on one thread.
    assert_eq!(gen2("b.bin", "1", "chunks"), a);
    assert_eq!(gen2("c.bin", "1", "fresh"), a);
    assert_eq!(
        std::fs::read(dir.join("fresh").join("from-d1-e4-r5-s4-c0-g6.bin")).unwrap(),
        kept
    );
    // A damaged chunk is named in a one-line error.
    std::fs::write(&chunk, b"bad").unwrap();
    let out = tabletop(
        &[
            "reversi",
            "train",
            "--seed",
            "4",
            "--from",
            &path("gen1.bin"),
            "--games",
            "6",
            "--depth",
            "1",
            "--exact",
            "4",
            "--data",
            &path("chunks"),
            "--out",
            &path("d.bin"),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is not a file of self-play positions"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn probcut_fits_a_table_that_loads() {
    let tmp = temp_dir("probcut");
    let dir = tmp.path();
    let run = |name: &str, threads: &str| {
        let file = dir.join(name);
        let out = tabletop(
            &[
                "reversi",
                "probcut",
                "--positions",
                "240",
                "--depth",
                "4",
                "--threads",
                threads,
                "--seed",
                "2",
                "--out",
                file.to_str().unwrap(),
            ],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read(file).unwrap()
    };
    let a = run("a.bin", "2");
    assert_eq!(a, run("b.bin", "1"));
    let table = reversi_core::ai::probcut::parse(&a).expect("a probcut table");
    // Depths 3 and 4 were measured and fitted; depth 5 was not, so it is never cut.
    let row = |d: u32| (d - reversi_core::ai::probcut::MIN_DEPTH) as usize;
    assert!(table[8][row(3)].sigma > 0 && table[8][row(4)].sigma > 0);
    assert_eq!(table[8][row(5)].sigma, 0);
    // bestmove and arena search with a table given as a file: the shipped file gives
    // the shipped search, and a file that is not a table is refused.
    let shipped = dir.join("shipped.bin");
    std::fs::write(
        &shipped,
        include_bytes!("../../../reversi-core/src/ai/probcut.bin"),
    )
    .unwrap();
    let board = "---------------------------OX------XO--------------------------- X";
    let best = |extra: &[&str]| {
        let mut args = vec![
            "reversi", "bestmove", "--depth", "7", "--json", "--seed", "1",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", board]);
        let out = tabletop(&args, "");
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        (v["best"].clone(), v["nodes"].as_u64().unwrap())
    };
    assert_eq!(
        best(&["--probcut-table", shipped.to_str().unwrap()]),
        best(&[])
    );
    let out = tabletop(
        &[
            "reversi",
            "arena",
            "--black",
            "search:3:4",
            "--white",
            "search:3:4",
            "--black-probcut",
            dir.join("a.bin").to_str().unwrap(),
            "--games",
            "2",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let not_a_table = dir.join("weights.bin");
    std::fs::write(&not_a_table, b"not a table").unwrap();
    let out = tabletop(
        &[
            "reversi",
            "bestmove",
            "--probcut-table",
            not_a_table.to_str().unwrap(),
            "--",
            board,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let out = tabletop(
        &["reversi", "probcut", "--depth", "2", "--out", "x.bin"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn solve_numbers_a_suite_as_its_file_name_does() {
    // `fforum-20-39.obf` holds FFO #20 to #39: its positions keep those numbers.
    let tmp = temp_dir("ffo");
    let dir = tmp.path();
    let file = dir.join("fforum-20-21.obf");
    std::fs::write(&file, format!("{FFO20}; H5:+6;\n{FFO21}; G5:+0;\n")).unwrap();
    let out = tabletop(&["reversi", "solve", "--file", file.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("#20 best h5 score +6 "), "{text}");
    assert!(text.contains("\n#21 best g5 score +0 "), "{text}");
}
