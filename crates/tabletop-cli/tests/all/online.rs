//! `tabletop GAME --connect`: real `tabletop serve` processes on loopback ports over
//! temporary SQLite files, and real `tabletop` clients fed through pipes, each driven by
//! what it prints ("Your move, …: legal …" lines). Every wait is bounded.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::support::temp_dir;

/// How long a client may stay silent before a test fails.
pub(crate) const WAIT: Duration = Duration::from_secs(30);

/// A `tabletop serve` process; killed when dropped.
pub(crate) struct Server {
    child: Child,
    pub(crate) url: String,
}

impl Server {
    /// Starts one over `db`, listening on `listen` (`127.0.0.1:0`: any free port).
    pub(crate) fn start(db: &Path, listen: &str) -> Server {
        let database = format!("sqlite://{}", db.display());
        let (child, addr) =
            crate::serve::start_serve(&["--listen", listen, "--database", &database]);
        Server {
            child,
            url: format!("ws://{addr}"),
        }
    }

    /// The `HOST:PORT` it listens on.
    pub(crate) fn addr(&self) -> &str {
        self.url.trim_start_matches("ws://")
    }

    /// Kills it without warning (SIGKILL).
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A `tabletop` client process: its stdin, and its output lines (stderr lines start with
/// `! `) as they come. Killed when dropped.
pub(crate) struct Player {
    name: &'static str,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far.
    transcript: Vec<String>,
}

impl Player {
    /// Runs `tabletop ARGS` with its own identity file in `dir`.
    pub(crate) fn start(name: &'static str, dir: &Path, args: &[&str]) -> Player {
        Player::start_with(name, dir, args, &[])
    }

    /// [`Player::start`] with these environment variables (`None`: removed).
    pub(crate) fn start_with(
        name: &'static str,
        dir: &Path,
        args: &[&str],
        env: &[(&str, Option<&Path>)],
    ) -> Player {
        let mut command = Command::new(env!("CARGO_BIN_EXE_tabletop"));
        for (key, value) in env {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        let mut child = command
            .args(args)
            .arg("--identity")
            .arg(dir.join(format!("{name}.json")))
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tabletop starts");
        let (tx, lines) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        let tx2 = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx2.send(format!("! {line}"));
            }
        });
        Player {
            name,
            stdin: child.stdin.take(),
            child,
            lines,
            transcript: Vec::new(),
        }
    }

    /// Reads lines until one satisfies `want`, and returns it; fails after [`WAIT`] of
    /// silence or when the output ends.
    pub(crate) fn expect(&mut self, want: impl Fn(&str) -> bool) -> String {
        loop {
            match self.lines.recv_timeout(WAIT) {
                Ok(line) => {
                    self.transcript.push(line.clone());
                    if want(&line) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "{} waited in vain; its output:\n{}",
                    self.name,
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// Types a line.
    pub(crate) fn type_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes stdin and waits (bounded) for the process to end; whether it succeeded.
    pub(crate) fn finish(&mut self) -> bool {
        self.stdin = None;
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
                    self.transcript.push(line);
                }
                return status.success();
            }
            assert!(Instant::now() < deadline, "{} does not end", self.name);
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub(crate) fn said(&self, text: &str) -> bool {
        self.transcript.iter().any(|l| l.contains(text))
    }

    pub(crate) fn output(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The invite code a creator printed.
pub(crate) fn invite(creator: &mut Player) -> String {
    let line = creator.expect(|l| l.starts_with("Invite code: "));
    line.trim_start_matches("Invite code: ").trim().to_owned()
}

/// The first legal move of a `Your move, …: a b c` line (after the last `legal steps` for
/// nardy).
pub(crate) fn first_legal(line: &str) -> String {
    let list = match line.rfind("legal steps ") {
        Some(i) => &line[i + "legal steps ".len()..],
        None => line.rsplit(": ").next().unwrap_or(""),
    };
    list.split_whitespace()
        .next()
        .unwrap_or_else(|| panic!("no legal move in {line:?}"))
        .to_owned()
}

/// Plays the first legal move at each `Your move` until the game is over (a pause of
/// `pause` before each move keeps under the server's message rate); returns the moves
/// played and the `Game over` line.
pub(crate) fn play_first_moves(
    player: &mut Player,
    pause: Duration,
    mut after: impl FnMut(usize),
) -> (usize, String) {
    let mut moves = 0;
    loop {
        let line = player.expect(|l| l.starts_with("Your move") || l.starts_with("Game over"));
        if line.starts_with("Game over") {
            return (moves, line);
        }
        std::thread::sleep(pause);
        player.type_line(&first_legal(&line));
        moves += 1;
        after(moves);
    }
}

/// A `Game over` line without the viewer's `(you win)` or `(you lose)`.
fn result(line: &str) -> &str {
    line.trim_end_matches(" (you win)")
        .trim_end_matches(" (you lose)")
}

/// Two clients of `game`: the first makes a table, the second joins it by invite code.
pub(crate) fn pair(dir: &Path, url: &str, game: &str) -> (Player, Player) {
    let mut a = Player::start("ann", dir, &[game, "--connect", url]);
    let code = invite(&mut a);
    let b = Player::start("bob", dir, &[game, "--connect", url, "--invite", &code]);
    (a, b)
}

#[test]
fn two_terminals_play_a_whole_reversi_game() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let (mut black, mut white) = pair(dir, &server.url, "reversi");
    let pause = Duration::from_millis(30);
    let bob = std::thread::spawn(move || {
        let result = play_first_moves(&mut white, pause, |_| {});
        (white, result)
    });
    let (black_moves, black_end) = play_first_moves(&mut black, pause, |_| {});
    let (mut white, (white_moves, white_end)) = bob.join().unwrap();
    assert_eq!(
        result(&black_end),
        result(&white_end),
        "both see the same result"
    );
    assert!(
        black_moves + white_moves >= 20,
        "{black_moves} + {white_moves} moves"
    );
    // Each side saw the other's moves as they came, and whose turn it was.
    assert!(black.said("White plays "), "{}", black.output());
    assert!(white.said("Black plays "), "{}", white.output());
    assert!(black.said("You play Black (X)."), "{}", black.output());
    assert!(white.said("You play White (O)."), "{}", white.output());
    assert!(black.finish() && white.finish());
    // The token stays in the identity file, never on the screen.
    let identity = std::fs::read_to_string(dir.join("ann.json")).unwrap();
    let token: serde_json::Value = serde_json::from_str(&identity).unwrap();
    let token = token[&server.url].as_str().unwrap().to_owned();
    assert_eq!(token.len(), 64);
    assert!(!black.output().contains(&token));
}

#[test]
fn a_reversi_client_is_told_what_the_server_refuses() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let (mut black, mut white) = pair(dir, &server.url, "reversi");
    black.expect(|l| l.starts_with("Your move, Black (X): "));
    white.expect(|l| l == "Waiting for Black (X).");
    // Out of turn, an illegal square, undo against a person, a wrong word: each refused
    // with a clear message, and the game goes on.
    white.type_line("d3");
    white.expect(|l| l.starts_with("! error: ") && l.contains("not your turn"));
    black.type_line("a1");
    black.expect(|l| l.starts_with("! error: "));
    black.type_line("undo");
    black.expect(|l| l.contains("undo and redo are off against a remote player"));
    black.type_line("castle");
    black.expect(|l| l.contains("unknown command 'castle'"));
    black.type_line("d3");
    white.expect(|l| l.starts_with("Black plays d3, flipping 1 disc."));
    white.expect(|l| l.starts_with("Your move, White (O): "));
    // Resigning ends the game for both.
    white.type_line("resign");
    let end = black.expect(|l| l.starts_with("Game over"));
    assert_eq!(end, "Game over by resignation: Black wins (you win)");
    white.expect(|l| l == "Game over by resignation: Black wins (you lose)");
    assert!(black.finish() && white.finish());
}

#[test]
fn a_bad_invite_code_is_an_error() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let mut bob = Player::start(
        "bob",
        dir,
        &[
            "reversi",
            "--connect",
            &server.url,
            "--invite",
            "NOSUCHCODE",
        ],
    );
    bob.expect(|l| l.starts_with("! error: "));
    assert!(!bob.finish());
    let mut nobody = Player::start("eve", dir, &["reversi", "--connect", "ws://127.0.0.1:9"]);
    nobody.expect(|l| l.starts_with("! error: cannot connect to ws://127.0.0.1:9"));
    assert!(!nobody.finish());
}

#[test]
fn a_nardy_game_goes_on_through_a_server_crash() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let db = dir.join("db.sqlite");
    let mut server = Server::start(&db, "127.0.0.1:0");
    let url = server.url.clone();
    let addr = server.addr().to_owned();
    let (mut white, mut black) = pair(dir, &url, "nardy");
    white.expect(|l| l == "You play White.");
    // Under the server's 20 messages a second.
    let pause = Duration::from_millis(70);
    let bob = std::thread::spawn(move || {
        let result = play_first_moves(&mut black, pause, |_| {});
        (black, result)
    });
    // After White's 12th move, the server dies at once and comes back on the same port
    // and database; the move in flight is resent and applied once.
    let mut crashed = false;
    let (white_moves, white_end) = play_first_moves(&mut white, pause, |moves| {
        if moves == 12 {
            server.kill();
            server = Server::start(&db, &addr);
            crashed = true;
        }
    });
    assert!(crashed, "the game lasted 12 moves of White");
    let (mut black, (_, black_end)) = bob.join().unwrap();
    assert_eq!(result(&white_end), result(&black_end));
    assert!(white_end.ends_with("(you win)") != black_end.ends_with("(you win)"));
    assert!(white_moves > 12);
    for p in [&mut white, &mut black] {
        assert!(p.said("Connection lost"), "{}", p.output());
        assert!(p.said("Connection back."), "{}", p.output());
        // Every roll of the game, before and after the crash, checks out against the
        // seeds both players gave and the seed the server revealed at the end.
        p.expect(|l| l.starts_with("Dice verified: the seed matches its commitment"));
    }
    assert!(white.said("Black rolls "), "{}", white.output());
    assert!(white.finish() && black.finish());
    drop(server);
}

#[test]
fn battleship_online_places_both_fleets_and_a_shot_goes_through() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let (mut first, mut second) = pair(dir, &server.url, "battleship");
    for p in [&mut first, &mut second] {
        p.expect(|l| l.starts_with("Place your fleet"));
    }
    // The fleet is arranged as offline and stays the player's own until `done`.
    first.type_line("clear");
    first.expect(|l| l == "still to place: 4 3 3 2 2 2 1 1 1 1");
    first.type_line("place a1 h 4");
    first.expect(|l| l == "still to place: 3 3 2 2 2 1 1 1 1");
    first.type_line("done");
    first.expect(|l| l.starts_with("! error: the fleet is not ready"));
    first.type_line("auto");
    first.expect(|l| l == "all ships placed: type done to start");
    first.type_line("done");
    second.expect(|l| l == "The other player (the first shooter) has placed the fleet.");
    second.type_line("done");
    first.expect(|l| l == "Both fleets are placed: the battle begins.");
    first.expect(|l| l.starts_with("Your shot, the first shooter"));
    second.expect(|l| l == "Waiting for the first shooter.");
    // Before the shot the second player's waters show no mark of it.
    second.type_line("e5");
    second.expect(|l| l.starts_with("! error: ") && l.contains("not your turn"));
    first.type_line("e5");
    let shot = second.expect(|l| l.starts_with("the other player shoots e5: "));
    first.expect(|l| l.starts_with("you shoot e5: "));
    assert!(
        ["miss", "hit", "sunk"].iter().any(|r| shot.contains(r)),
        "{shot}"
    );
    // The second player's fleet never reached the first player's screen.
    assert!(!first.said("enemy fleet"), "{}", first.output());
    first.type_line("quit");
    second.type_line("quit");
    assert!(first.finish() && second.finish());
    assert!(first.said("Left table t"), "{}", first.output());
}

#[test]
fn battleship_online_in_line_mode_checks_the_fleets_at_the_end() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let (mut first, mut second) = pair(dir, &server.url, "battleship");
    for p in [&mut first, &mut second] {
        p.expect(|l| l.starts_with("Place your fleet"));
        p.type_line("done");
    }
    first.expect(|l| l.starts_with("Your shot, the first shooter"));
    first.type_line("e5");
    second.expect(|l| l.starts_with("the other player shoots e5: "));
    // A resignation ends the game: both fleets are shown and each client checks them
    // against the commitments the server published before the first shot, then ends.
    second.type_line("resign");
    for p in [&mut first, &mut second] {
        p.expect(|l| l.starts_with("Game over by resignation"));
        p.expect(|l| l == "Fleets verified: both match the server's commitments.");
    }
    assert!(first.finish() && second.finish());
}

#[test]
fn a_sudoku_online_is_played_and_watched() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let mut solver = Player::start(
        "sol",
        dir,
        &["sudoku", "--connect", &server.url, "--size", "4"],
    );
    let line = solver.expect(|l| l.starts_with("Come back to it with: "));
    let table = line.rsplit(' ').next().unwrap().to_owned();
    assert!(!solver.said("Invite code"), "{}", solver.output());
    solver.expect(|l| l.starts_with("Your move"));
    // The first empty cell of the grid drawn (rows `  1 | . 2 |…`).
    let (row, col) = solver
        .transcript
        .iter()
        .filter_map(|l| {
            let (num, cells) = l.trim_start().split_once(" |")?;
            let row: usize = num.parse().ok()?;
            let cells: Vec<&str> = cells.split_whitespace().filter(|c| *c != "|").collect();
            let col = cells.iter().position(|c| *c == ".")?;
            Some((row, col + 1))
        })
        .next()
        .expect("an empty cell");
    let mut watcher = Player::start(
        "wat",
        dir,
        &["sudoku", "--connect", &server.url, "--table", &table],
    );
    watcher.expect(|l| l == "You watch this table.");
    watcher.type_line("r1c1 1");
    watcher.expect(|l| l.contains("you watch this table: you cannot play"));
    std::thread::sleep(Duration::from_millis(1100));
    solver.type_line(&format!("r{row}c{col} 1"));
    watcher.expect(|l| l.starts_with(&format!("played r{row}c{col}")));
    // The time spent went to the table before the entry.
    solver.expect(|l| l.contains(" to fill, ") && !l.ends_with(", time 0:00."));
    solver.type_line("hint");
    solver.expect(|l| l.contains("hint needs the solution"));
    solver.type_line("solve");
    solver.expect(|l| l == "Game over: the solution is shown.");
    watcher.expect(|l| l == "Game over: the solution is shown.");
    assert!(solver.finish() && watcher.finish());
}

#[test]
fn a_reversi_game_against_a_server_bot_and_back_with_table() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let mut ann = Player::start(
        "ann",
        dir,
        &[
            "reversi",
            "--connect",
            &server.url,
            "--white",
            "bot:1",
            "--clock",
            "5+3",
        ],
    );
    let line = ann.expect(|l| l.starts_with("Come back to it with: "));
    let table = line.rsplit(' ').next().unwrap().to_owned();
    ann.expect(|l| l == "Clocks: Black (X) 5:00, White (O) 5:00");
    let first = ann.expect(|l| l.starts_with("Your move"));
    ann.type_line(&first_legal(&first));
    ann.expect(|l| l.starts_with("White plays "));
    ann.expect(|l| l.starts_with("Your move"));
    ann.type_line("quit");
    assert!(ann.finish());
    // The same identity comes back to the table where it was left.
    let mut again = Player::start(
        "ann",
        dir,
        &["reversi", "--connect", &server.url, "--table", &table],
    );
    again.expect(|l| l == "You play Black (X).");
    again.expect(|l| l.starts_with("Black (X) 4  White (O) 4") || l.starts_with("Black (X) "));
    again.expect(|l| l.starts_with("Your move"));
    again.type_line("resign");
    again.expect(|l| l == "Game over by resignation: White wins (you lose)");
    assert!(again.finish());
}

#[test]
fn a_whole_nardy_game_against_a_server_bot() {
    let tmp = temp_dir("online");
    let dir = tmp.path();
    let server = Server::start(&dir.join("db.sqlite"), "127.0.0.1:0");
    let mut ann = Player::start(
        "ann",
        dir,
        &[
            "nardy",
            "--connect",
            &server.url,
            "--black",
            "bot:1",
            "--scoring",
            "koks",
        ],
    );
    assert!(!ann.said("Invite code"));
    let (moves, end) = play_first_moves(&mut ann, Duration::from_millis(60), |_| {});
    assert!(moves > 20, "{moves} steps");
    assert!(end.starts_with("Game over: "), "{end}");
    assert!(ann.said("Black rolls "), "{}", ann.output());
    assert!(ann.finish());
}
