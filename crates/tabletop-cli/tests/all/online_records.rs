//! After an online game: the rematch (sides swapped, both players on the new table),
//! `tabletop online history` and `tabletop online download`, whose save `--load` opens and
//! `nardy analyze` reads. A real `tabletop serve` on loopback and real clients.

use std::path::Path;
use std::time::Duration;

use crate::online::{Player, Server, first_legal, pair};
use crate::support::{stderr, stdout, tabletop, temp_dir};

/// `tabletop online ARGS --connect URL --identity DIR/WHO.json`.
fn online(dir: &Path, who: &str, url: &str, args: &[&str]) -> std::process::Output {
    let identity = dir.join(format!("{who}.json"));
    let mut all = vec!["online"];
    all.extend_from_slice(args);
    all.extend(["--connect", url, "--identity", identity.to_str().unwrap()]);
    tabletop(&all, "")
}

/// The table id of a `Rematch: table ID, …` line.
fn rematch_table(line: &str) -> String {
    line.trim_start_matches("Rematch: table ")
        .split(',')
        .next()
        .unwrap()
        .to_owned()
}

#[test]
fn a_rematch_swaps_the_sides_and_history_lists_both_games() {
    let tmp = temp_dir("online-records");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let (mut ann, mut bob) = pair(dir, &server.url, "reversi");
    // The `Table ID made.` line came before the invite code `pair` read.
    let output = ann.output();
    let made = output.lines().find(|l| l.starts_with("Table ")).unwrap();
    let first = made
        .trim_start_matches("Table ")
        .trim_end_matches(" made.")
        .to_owned();
    let first = first.as_str();
    let line = ann.expect(|l| l.starts_with("Your move, Black (X): "));
    ann.type_line(&first_legal(&line));
    bob.expect(|l| l.starts_with("Your move, White (O): "));
    bob.type_line("resign");
    ann.expect(|l| l == "Game over by resignation: Black wins (you win)");
    bob.expect(|l| l == "Game over by resignation: Black wins (you lose)");
    // Both are offered a rematch; Bob asks first, Ann hears of it and joins it.
    bob.expect(|l| l.starts_with("Rematch? type rematch"));
    bob.type_line("rematch");
    let made = bob.expect(|l| l.starts_with("Rematch: table "));
    let second = rematch_table(&made);
    assert_ne!(second, first);
    bob.expect(|l| l == "You play Black (X).");
    ann.expect(|l| {
        l.starts_with(&format!(
            "The other player asks for a rematch (table {second})"
        ))
    });
    ann.type_line("rematch");
    let joined = ann.expect(|l| l.starts_with("Rematch: table "));
    assert_eq!(rematch_table(&joined), second);
    ann.expect(|l| l == "You play White (O).");
    // Bob moves first now; Ann resigns the rematch.
    let line = bob.expect(|l| l.starts_with("Your move, Black (X): "));
    bob.type_line(&first_legal(&line));
    ann.expect(|l| l.starts_with("Black plays "));
    ann.expect(|l| l.starts_with("Your move, White (O): "));
    ann.type_line("resign");
    bob.expect(|l| l == "Game over by resignation: Black wins (you win)");
    ann.expect(|l| l == "Game over by resignation: Black wins (you lose)");
    assert!(ann.finish() && bob.finish());

    // Ann's history: the rematch first, then the first game, each from her seat.
    let out = online(dir, "ann", &server.url, &["history"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows[0].starts_with(&second), "{text}");
    assert!(
        rows[0].contains("reversi") && rows[0].contains("White (O)"),
        "{text}"
    );
    assert!(rows[0].contains("lost by resignation"), "{text}");
    assert!(rows[1].starts_with(first) && rows[1].contains("Black (X)"));
    assert!(rows[1].contains("won by resignation") && rows[1].contains(" UTC"));
    let json = online(dir, "bob", &server.url, &["history", "--json"]);
    let games: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(games[0]["table"], second.as_str());
    assert_eq!(
        (games[0]["seat"].as_u64(), games[1]["seat"].as_u64()),
        (Some(0), Some(1))
    );

    // The first game's save: written, and opened by `tabletop reversi --load`.
    let save = dir.join("first.ttpl");
    let out = online(
        dir,
        "ann",
        &server.url,
        &["download", first, "-o", save.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("tabletop reversi --load"),
        "{}",
        stdout(&out)
    );
    let bytes = std::fs::read(&save).unwrap();
    assert!(bytes.starts_with(b"TTPL"));
    let again = dir.join("again.ttpl");
    let json = online(
        dir,
        "bob",
        &server.url,
        &["download", first, "-o", again.to_str().unwrap(), "--json"],
    );
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        (json["game"].as_str(), json["bytes"].as_u64()),
        (Some("reversi"), Some(bytes.len() as u64))
    );
    assert_eq!(
        std::fs::read(&again).unwrap(),
        bytes,
        "both players get the same save"
    );
    let loaded = tabletop(
        &[
            "reversi",
            "play",
            "--plain",
            "--load",
            save.to_str().unwrap(),
        ],
        "quit\n",
    );
    assert!(loaded.status.success(), "{}", stderr(&loaded));
    // Errors: an unknown table, and an identity file that holds none for this server.
    let out = online(dir, "ann", &server.url, &["download", "nosuchtable"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no_such_table"), "{}", stderr(&out));
    let out = online(dir, "nobody", &server.url, &["history"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("holds no identity"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_battleship_rematch_checks_its_own_fleets_at_its_end() {
    let tmp = temp_dir("online-records");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let (mut ann, mut bob) = pair(dir, &server.url, "battleship");
    // Two games: Ann shoots first in the first, Bob in the rematch; each ends by the
    // other's resignation, and both clients check that game's fleets.
    for game in 0..2 {
        for p in [&mut ann, &mut bob] {
            p.expect(|l| l.starts_with("Place your fleet"));
            p.type_line("done");
        }
        let (shooter, other) = if game == 0 {
            (&mut ann, &mut bob)
        } else {
            (&mut bob, &mut ann)
        };
        shooter.expect(|l| l.starts_with("Your shot, the first shooter"));
        shooter.type_line("e5");
        other.expect(|l| l.starts_with("the other player shoots e5: "));
        other.type_line("resign");
        for p in [&mut ann, &mut bob] {
            p.expect(|l| l.starts_with("Game over by resignation"));
            p.expect(|l| l == "Fleets verified: both match the server's commitments.");
        }
        if game == 0 {
            bob.expect(|l| l.starts_with("Rematch? type rematch"));
            bob.type_line("rematch");
            bob.expect(|l| l.starts_with("Rematch: table "));
            ann.expect(|l| l.starts_with("The other player asks for a rematch"));
            ann.type_line("rematch");
            ann.expect(|l| l.starts_with("Rematch: table "));
        }
    }
    assert!(ann.finish() && bob.finish());
}

#[test]
fn a_nardy_game_is_downloaded_loaded_and_analyzed() {
    let tmp = temp_dir("online-records");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let args = ["nardy", "--connect", &server.url, "--black", "bot:1"];
    let mut ann = Player::start("ann", dir, &args);
    let made = ann.expect(|l| l.starts_with("Table ") && l.ends_with(" made."));
    let table = made.trim_start_matches("Table ").trim_end_matches(" made.");
    // A few steps, then resign.
    for _ in 0..4 {
        let line = ann.expect(|l| l.starts_with("Your move"));
        std::thread::sleep(Duration::from_millis(60));
        ann.type_line(&first_legal(&line));
    }
    ann.expect(|l| l.starts_with("Your move"));
    ann.type_line("resign");
    ann.expect(|l| l.starts_with("Game over by resignation"));
    ann.expect(|l| l.starts_with("Dice verified"));
    assert!(ann.finish());
    let save = dir.join("nardy.ttpl");
    let out = online(
        dir,
        "ann",
        &server.url,
        &["download", table, "--output", save.to_str().unwrap()],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let path = save.to_str().unwrap();
    let analyzed = tabletop(&["nardy", "analyze", path, "--level", "greedy"], "");
    assert!(analyzed.status.success(), "{}", stderr(&analyzed));
    assert!(stdout(&analyzed).contains("White"), "{}", stdout(&analyzed));
    let loaded = tabletop(&["nardy", "play", "--plain", "--load", path], "quit\n");
    assert!(loaded.status.success(), "{}", stderr(&loaded));
    let verified = tabletop(&["nardy", "verify", path], "");
    assert!(verified.status.success(), "{}", stdout(&verified));
}
