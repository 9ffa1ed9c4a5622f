//! Usage errors name what is wrong, for every subcommand: the tests walk the command-line
//! definition (`tabletop --cli-spec`, hidden), so a new subcommand or argument is covered
//! without a new test.

use crate::support;

use std::collections::BTreeMap;

use serde_json::Value;
use support::{stderr, tabletop, temp_dir};

/// Every argument of every subcommand, as the binary describes its clap definition.
fn spec() -> Vec<Value> {
    let out = tabletop(&["--cli-spec"], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let all: Value = serde_json::from_slice(&out.stdout).expect("--cli-spec prints JSON");
    all.as_array().expect("an array of arguments").clone()
}

fn path(arg: &Value) -> Vec<String> {
    arg["path"]
        .as_array()
        .expect("a path")
        .iter()
        .map(|w| w.as_str().expect("a word").to_owned())
        .collect()
}

/// Runs a command that must be refused as a usage error and returns its one line.
fn usage_error(words: &[String]) -> String {
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    let out = tabletop(&args, "");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "tabletop {words:?}: {err}");
    assert_eq!(
        err.lines().count(),
        1,
        "tabletop {words:?}: not one line: {err:?}"
    );
    assert!(err.starts_with("error: "), "tabletop {words:?}: {err:?}");
    err
}

/// `see 'tabletop nardy hint --help'`: where a usage error sends the reader.
fn see_help(path: &[String]) -> String {
    let mut words = vec!["tabletop"];
    words.extend(path.iter().map(String::as_str));
    format!("see '{} --help'", words.join(" "))
}

#[test]
fn the_definition_lists_the_commands_of_every_game() {
    let spec = spec();
    let paths: Vec<String> = spec.iter().map(|a| path(a).join(" ")).collect();
    for command in [
        "nardy hint",
        "reversi probcut",
        "battleship sim",
        "sudoku rate",
    ] {
        assert!(
            paths.iter().any(|p| p == command),
            "no {command} in the definition"
        );
    }
}

#[test]
fn every_missing_argument_is_named() {
    let mut required: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
    for arg in spec() {
        if arg["required"] == true {
            let display = arg["display"].as_str().expect("a name").to_owned();
            required.entry(path(&arg)).or_default().push(display);
        }
    }
    assert!(
        required.len() >= 5,
        "too few commands with required arguments: {required:?}"
    );
    for (words, names) in &required {
        let err = usage_error(words);
        for name in names {
            assert!(
                err.contains(name.as_str()),
                "tabletop {words:?} does not name {name}: {err}"
            );
        }
        let help = see_help(words);
        assert!(
            err.contains(&help),
            "tabletop {words:?} does not point to {help}: {err}"
        );
    }
}

#[test]
fn every_refused_value_names_its_argument_and_what_is_allowed() {
    let mut tried = 0;
    for arg in spec() {
        let display = arg["display"].as_str().expect("a name");
        let allowed: Vec<&str> = arg["possible_values"]
            .as_array()
            .expect("possible values")
            .iter()
            .map(|v| v.as_str().expect("a value"))
            .collect();
        for probe in arg["rejects"].as_array().expect("rejected probes") {
            let probe = probe.as_str().expect("a probe");
            let mut words = path(&arg);
            if arg["positional"] == true {
                words.push(probe.to_owned());
            } else {
                words.push(format!("{display}={probe}"));
            }
            let err = usage_error(&words);
            tried += 1;
            let help = see_help(&path(&arg));
            assert!(
                err.contains(&help),
                "{words:?} does not point to {help}: {err}"
            );
            assert!(err.contains(&format!("'{probe}'")), "{words:?}: {err}");
            assert!(
                err.contains(display),
                "{words:?} does not name {display}: {err}"
            );
            for value in &allowed {
                assert!(
                    err.contains(value),
                    "{words:?} does not list {value}: {err}"
                );
            }
            // After `invalid value 'x' for '--arg <N>'` comes what is allowed or wrong.
            let reason = err.split_once(&format!("for '{display}")).map(|(_, r)| r);
            let reason = reason.and_then(|r| r.split_once('\'')).map(|(_, r)| r);
            let reason = reason.map(|r| r.split(" (see '").next().unwrap_or("").trim());
            assert!(
                reason.is_some_and(|r| r.len() > 3),
                "{words:?} says nothing of what is allowed: {err}"
            );
        }
    }
    assert!(tried >= 20, "only {tried} refused values were tried");
}

#[test]
fn the_issue_commands_say_what_is_missing() {
    let cases: [(&[&str], &[&str]); 5] = [
        (&["reversi", "probcut"], &["--out"]),
        (&["nardy", "hint"], &["<POSITION>", "<DICE>"]),
        (&["nardy", "arena"], &["--white", "--black"]),
        (&["reversi", "bestmove"], &["<OBF>"]),
        (
            &["battleship", "place", "--rules", "foo"],
            &["'foo'", "russian", "classic"],
        ),
    ];
    for (args, names) in cases {
        let words: Vec<String> = args.iter().map(|w| (*w).to_owned()).collect();
        let err = usage_error(&words);
        for name in names {
            assert!(err.contains(name), "tabletop {args:?}: no {name} in {err}");
        }
    }
    let words: Vec<String> = ["battleship", "sim", "--shooter", "best", "--games", "0"]
        .map(str::to_owned)
        .to_vec();
    let err = usage_error(&words);
    assert!(
        err.contains("--games") && err.contains("0 is less than 1"),
        "{err}"
    );
}

/// Types a line of a million `x` into each game's line mode: the error names the line's
/// start and its size on one line, and neither output echoes it whole.
#[test]
fn a_megabyte_line_is_cut_in_every_game() {
    let line = "x".repeat(1_000_000);
    let cut = format!("{}… (1,000,000 bytes)", "x".repeat(32));
    for game in ["reversi", "nardy", "sudoku", "battleship"] {
        let out = tabletop(&[game, "play", "--plain"], &format!("{line}\nquit\n"));
        let err = stderr(&out);
        assert!(
            out.stdout.len() < 10_000 && out.stderr.len() < 1_000,
            "{game}: {} bytes on stdout, {} on stderr",
            out.stdout.len(),
            out.stderr.len()
        );
        assert_eq!(err.lines().count(), 1, "{game}: {err}");
        assert!(err.starts_with("error: "), "{game}: {err}");
        assert!(err.contains(&cut), "{game}: no {cut} in {err}");
    }
}

/// Runs a tool that writes a file, expecting it to refuse at once: one line naming the
/// file, and none of the lines its work prints on stderr before it saves.
fn refuses_before_working(args: &[&str], file: &str) {
    let out = tabletop(args, "");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?} worked before failing: {err}"
    );
    assert!(
        err.contains(&format!("cannot write {file}")),
        "{args:?}: {err}"
    );
}

#[test]
fn output_paths_are_checked_before_the_work() {
    let missing = "/nonexistent-tabletop-dir/out.bin";
    refuses_before_working(
        &["reversi", "probcut", "--positions", "2", "--out", missing],
        missing,
    );
    refuses_before_working(
        &[
            "reversi", "train", "--games", "2", "--epochs", "1", "--out", missing,
        ],
        missing,
    );
    let tmp = temp_dir("outputs");
    let dir = tmp.path();
    let checkpoint = dir.join("nardy.ckpt");
    let checkpoint = checkpoint.to_str().unwrap();
    let args = ["nardy", "train", "--games", "2", "--bench-every", "0"];
    let mut with_out = args.to_vec();
    with_out.extend(["--checkpoint", checkpoint, "--out", missing]);
    refuses_before_working(&with_out, missing);
    assert!(
        !dir.join("nardy.ckpt").exists(),
        "nardy train trained before failing"
    );
    let dir_name = dir.to_str().unwrap();
    refuses_before_working(
        &["reversi", "probcut", "--positions", "2", "--out", dir_name],
        dir_name,
    );
}

/// The tools without `--json`: interactive play, and the trainers that only write a file
/// (docs/json.md says so).
const NO_JSON: [&str; 3] = ["play", "train", "probcut"];

#[test]
fn every_tool_takes_json() {
    let spec = spec();
    let mut tools: BTreeMap<Vec<String>, bool> = BTreeMap::new();
    for arg in &spec {
        let path = path(arg);
        if path.len() == 2 && !NO_JSON.contains(&path[1].as_str()) {
            *tools.entry(path).or_default() |= arg["display"] == "--json";
        }
    }
    assert!(tools.len() >= 20, "too few tools: {tools:?}");
    let without: Vec<String> = tools
        .iter()
        .filter(|(_, json)| !**json)
        .map(|(path, _)| path.join(" "))
        .collect();
    assert!(without.is_empty(), "tools without --json: {without:?}");
}

const SUDOKU: &str =
    "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..";
const OBF: &str = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X";

/// Runs a tool with `--json` and returns every JSON value it printed on stdout (one per
/// line), after checking that it succeeded.
fn json_lines(args: &[&str], stdin: &str) -> Vec<Value> {
    let mut args = args.to_vec();
    args.push("--json");
    let out = tabletop(&args, stdin);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    support::stdout(&out)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{args:?}: {e}: {line}")))
        .collect()
}

/// Runs a tool with `--json` and returns its first value, checked to have every one of
/// `keys` (or, for an array, its first item to have them).
fn first_json(args: &[&str], keys: &[&str]) -> Value {
    let value = json_lines(args, "").remove(0);
    let object = if value.is_array() { &value[0] } else { &value };
    has_keys(&args.join(" "), object, keys);
    value
}

/// Checks that `value` is an object with every one of `keys`.
fn has_keys(what: &str, value: &Value, keys: &[&str]) {
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("{what}: not an object: {value}"));
    for key in keys {
        assert!(object.contains_key(*key), "{what}: no {key} in {value}");
    }
}

#[test]
fn sudoku_tools_print_their_documented_json() {
    let input = format!("{SUDOKU}\nnot a puzzle\n");
    let out = tabletop(&["sudoku", "solve", "--json", "-"], &input);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a malformed line fails the command"
    );
    let lines: Vec<Value> = support::stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    has_keys("solve", &lines[0], &["line", "result", "solution"]);
    assert_eq!(lines[0]["result"], "unique");
    assert_eq!(lines[1]["line"], 2);
    has_keys("solve error", &lines[1], &["error"]);
    let count = json_lines(&["sudoku", "count", "-"], SUDOKU);
    assert_eq!(count[0]["solutions"], 1);
    let rate = json_lines(&["sudoku", "rate", "-"], SUDOKU);
    has_keys(
        "rate",
        &rate[0],
        &["line", "result", "level", "rating", "hardest", "steps"],
    );
    let strat = json_lines(&["sudoku", "rate", "--strat", "-"], SUDOKU);
    assert_eq!(strat.len(), 2);
    has_keys(
        "rate --strat",
        &strat[0],
        &["input", "techniques", "puzzles", "solved"],
    );
    let generated = json_lines(&["sudoku", "generate", "--count", "2", "--seed", "1"], "");
    assert_eq!(generated.len(), 2);
    has_keys("generate", &generated[1], &["puzzle", "clues"]);
    let hint = first_json(
        &["sudoku", "hint", SUDOKU],
        &["kind", "text", "cell", "step"],
    );
    assert_eq!(hint["kind"], "step");
    has_keys(
        "hint step",
        &hint["step"],
        &["technique", "explanation", "placements"],
    );
    let explain = first_json(
        &["sudoku", "explain", SUDOKU],
        &["steps", "solved", "rating", "grid"],
    );
    assert_eq!(explain["solved"], true);
    let show = first_json(
        &["sudoku", "show", SUDOKU],
        &["puzzle", "size", "clues", "conflicts"],
    );
    assert_eq!(show["size"], 9);
    let tmp = temp_dir("json");
    let dir = tmp.path();
    let file = dir.join("one.txt");
    std::fs::write(&file, SUDOKU).unwrap();
    first_json(
        &["sudoku", "bench", file.to_str().unwrap()],
        &["puzzles", "seconds", "unique"],
    );
}

#[test]
fn reversi_tools_print_their_documented_json() {
    let perft = &json_lines(&["reversi", "perft", "2", "--divide"], "")[0];
    assert_eq!(perft["count"], 12);
    assert_eq!(perft["divide"].as_array().unwrap().len(), 4);
    let replay = &json_lines(&["reversi", "replay", "f5d6"], "")[0];
    let keys = [
        "board",
        "black",
        "white",
        "to_move",
        "legal_moves",
        "over",
        "result",
    ];
    has_keys("replay", replay, &keys);
    assert_eq!(replay["to_move"], "black");
    let show = &json_lines(&["reversi", "show", OBF], "")[0];
    has_keys("show", show, &keys);
    first_json(&["reversi", "solve", OBF], &["best", "score", "nodes"]);
    first_json(
        &["reversi", "bestmove", OBF, "--depth", "2"],
        &["best", "score", "exact", "depth"],
    );
    let arena = [
        "reversi", "arena", "--black", "bot:1", "--white", "bot:1", "--games", "2",
    ];
    first_json(&arena, &["games", "wins", "score"]);
}

#[test]
fn battleship_tools_print_their_documented_json() {
    let place = json_lines(&["battleship", "place", "--count", "2", "--seed", "1"], "");
    assert_eq!(place.len(), 2);
    has_keys("place", &place[0], &["ships", "grid"]);
    assert_eq!(place[0]["ships"].as_array().unwrap().len(), 10);
    assert_eq!(place[0]["grid"].as_array().unwrap().len(), 10);
    let sim = [
        "battleship",
        "sim",
        "--shooter",
        "random",
        "--games",
        "3",
        "--seed",
        "1",
    ];
    first_json(&sim, &["games", "mean", "median"]);
    first_json(&["battleship", "count-fleets"], &["fleets"]);
}

#[test]
fn nardy_tools_print_their_documented_json() {
    let opening = "24:15/12:15 w";
    first_json(&["nardy", "moves", opening, "65"], &["turn", "position"]);
    first_json(&["nardy", "perft", "1"], &["depth", "count", "divide"]);
    first_json(
        &["nardy", "hint", opening, "31"],
        &["rank", "turn", "equity", "loss", "win"],
    );
    first_json(
        &["nardy", "eval", "8:1,6:14/12:15 w", "--plies", "0"],
        &["race", "win", "equity", "pips"],
    );
    let arena = [
        "nardy", "arena", "--white", "random", "--black", "random", "--games", "2",
    ];
    first_json(&arena, &["games", "first_wins", "draws"]);
    // A whole game between two random bots, saved at its end, then analysed.
    let tmp = temp_dir("analyze");
    let dir = tmp.path();
    let save = dir.join("game.sav");
    let script = format!("save {}\nquit\n", save.display());
    let play = [
        "nardy", "play", "--plain", "--white", "bot:1", "--black", "bot:1", "--seed", "3",
    ];
    let out = tabletop(&play, &script);
    assert!(save.exists(), "no save: {}", stderr(&out));
    let analyze = [
        "nardy",
        "analyze",
        save.to_str().unwrap(),
        "--level",
        "greedy",
    ];
    let analysis = &json_lines(&analyze, "")[0];
    has_keys(
        "analyze",
        analysis,
        &["level", "turns", "lost", "decisions"],
    );
    let turns = analysis["turns"].as_array().unwrap();
    assert!(turns.len() > 10, "{analysis}");
    has_keys(
        "analyze turn",
        &turns[0],
        &["number", "side", "dice", "played", "best", "loss"],
    );
}
