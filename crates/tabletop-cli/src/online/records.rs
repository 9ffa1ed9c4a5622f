//! `tabletop online history|download`: the player's finished games at a server (the
//! protocol's `history`) and the save of one of them (`download`), which `tabletop GAME
//! --load FILE` opens and `tabletop nardy analyze FILE` reads. One short connection each,
//! under the identity the games were played with.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use serde::Deserialize;
use serde_json::{Value, json};
use tabletop_play::{EndReason, Ending};
use tungstenite::Message;

use super::identity;
use super::link::{self, Failure};
use super::remote::Remote;
use super::tls;
use crate::common::{CliError, CliResult, JsonArg, write_atomic};

/// `tabletop online …`.
#[derive(Args, Debug)]
pub struct OnlineArgs {
    #[command(subcommand)]
    command: OnlineCommand,
}

#[derive(Subcommand, Debug)]
enum OnlineCommand {
    /// Your finished games at the server, newest first: table, game, seat, result, date.
    History {
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Writes the save of a finished game (`tabletop GAME --load FILE` opens it).
    Download {
        /// The table's id (from `history`, or printed when it started).
        table: String,
        /// The file to write [default: TABLE.ttpl].
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        server: ServerArgs,
        #[command(flatten)]
        json: JsonArg,
    },
}

/// Which server, as whom.
#[derive(Args, Debug)]
struct ServerArgs {
    /// The server: ws://HOST:PORT, or wss://HOST behind a TLS proxy.
    #[arg(long, value_name = "URL")]
    connect: String,
    /// The file that keeps your identity [default: as for --connect in the games].
    #[arg(long, value_name = "FILE")]
    identity: Option<PathBuf>,
    /// Also trust the CA certificates of this PEM file [default: $SSL_CERT_FILE].
    #[arg(long, value_name = "FILE")]
    ca_cert: Option<PathBuf>,
}

/// How long the server may take to answer.
const ANSWER_WAIT: Duration = Duration::from_secs(15);

/// Runs `tabletop online …`.
pub fn run(args: OnlineArgs) -> CliResult {
    match args.command {
        OnlineCommand::History { server, json } => history(&server, json),
        OnlineCommand::Download {
            table,
            output,
            server,
            json,
        } => download(&server, &table, output.as_deref(), json),
    }
}

/// One finished game of `history`.
#[derive(Deserialize)]
struct Record {
    table: String,
    game: String,
    seat: u8,
    ending: Ending<Value>,
    ended_ms: i64,
}

fn history(server: &ServerArgs, json: JsonArg) -> CliResult {
    let answer = ask(server, json!({"type": "history"}))?;
    let games = answer.get("games").cloned().unwrap_or(json!([]));
    if json.json {
        return json.print(&games);
    }
    let records: Vec<Record> = serde_json::from_value(games)
        .map_err(|e| CliError::new(format!("the server's history does not read: {e}")))?;
    if records.is_empty() {
        println!("No finished games at {} yet.", server.connect);
        return Ok(());
    }
    println!(
        "{:<18} {:<10} {:<18} {:<32} ended",
        "table", "game", "you played", "result"
    );
    for r in &records {
        println!(
            "{:<18} {:<10} {:<18} {:<32} {}",
            r.table,
            r.game,
            side(&r.game, r.seat),
            result(r),
            date(r.ended_ms)
        );
    }
    Ok(())
}

fn download(server: &ServerArgs, table: &str, output: Option<&Path>, json: JsonArg) -> CliResult {
    let answer = ask(server, json!({"type": "download", "table": table}))?;
    let bytes = tabletop_server::identity::unhex(answer["hex"].as_str().unwrap_or(""))
        .ok_or_else(|| CliError::new("the server's save is not hex"))?;
    let default = PathBuf::from(format!("{table}.ttpl"));
    let path = output.unwrap_or(&default);
    write_atomic(path, &bytes)
        .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))?;
    let game = answer["game"].as_str().unwrap_or("GAME");
    if json.json {
        let file = path.display().to_string();
        return json.print(&json!({"file": file, "game": game, "bytes": bytes.len()}));
    }
    println!(
        "Wrote {} ({} bytes): open it with tabletop {game} --load {}",
        path.display(),
        bytes.len(),
        path.display()
    );
    Ok(())
}

/// Sends `command` (an id added) as the kept identity and returns the server's answer;
/// an `error` answer is the command's error.
fn ask(server: &ServerArgs, mut command: Value) -> CliResult<Value> {
    let url = server.connect.as_str();
    let tls = tls::for_url(url, server.ca_cert.as_deref())?;
    let file = identity::path(server.identity.as_deref());
    let Some(token) = identity::token(&file, url.trim_end_matches('/'))? else {
        return Err(CliError::new(format!(
            "{} holds no identity for {url}: your games there are those of the identity \
             you played with (--identity FILE)",
            file.display()
        )));
    };
    let (mut socket, _) = link::connect(url, &tls, Some(&token)).map_err(|e| match e {
        Failure::Retry(why) | Failure::Fatal(why) => CliError::new(why),
    })?;
    let id = format!("q{:x}", crate::common::clock_seed());
    command["id"] = json!(id);
    socket
        .send(Message::text(command.to_string()))
        .map_err(|e| CliError::new(format!("{url}: {e}")))?;
    let deadline = Instant::now() + ANSWER_WAIT;
    while Instant::now() < deadline {
        let text = match socket.read() {
            Ok(Message::Text(text)) => text,
            Ok(Message::Close(_)) => break,
            Ok(_) => continue,
            Err(e) if link::read_timed_out(&e) => continue,
            Err(e) => return Err(CliError::new(format!("{url}: {e}"))),
        };
        let Ok(answer) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        if answer["id"] != json!(id) {
            continue;
        }
        let _ = socket.close(None);
        if answer["type"] == "error" {
            let code = answer["code"].as_str().unwrap_or("");
            let words = answer["message"].as_str().unwrap_or("");
            return Err(CliError::new(format!("{words} ({code})")));
        }
        return Ok(answer);
    }
    Err(CliError::new(format!("{url} did not answer")))
}

/// A seat's name in `game`.
fn side(game: &str, seat: u8) -> String {
    match game {
        "nardy" => super::nardy::Nardy::side(seat),
        "reversi" => super::reversi::Reversi::side(seat),
        "battleship" => super::battleship::Battleship::side(seat),
        "sudoku" => super::sudoku::Sudoku::side(seat),
        _ => format!("seat {seat}"),
    }
}

/// The result for the player of the record, e.g. `won by resignation`.
fn result(r: &Record) -> String {
    let how = match r.ending.reason {
        EndReason::Resigned => " by resignation",
        EndReason::Timeout => " on time",
        EndReason::Abandoned => " (the other left)",
        EndReason::Rules => "",
    };
    match r.ending.winner {
        Some(w) if w.0 == r.seat => format!("won{how}"),
        Some(_) => format!("lost{how}"),
        None if r.game == "sudoku" => format!("finished{how}"),
        None => format!("draw{how}"),
    }
}

/// `2026-12-05 08:30 UTC` for milliseconds since the Unix epoch.
fn date(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days to a civil date (H. Hinnant's algorithm, proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::date;

    #[test]
    fn dates_read_in_utc() {
        assert_eq!(date(0), "1970-01-01 00:00 UTC");
        assert_eq!(date(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(date(1_796_459_400_000), "2026-12-05 08:30 UTC");
    }
}
