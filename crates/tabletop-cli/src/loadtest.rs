//! `tabletop loadtest`: the load generator of `tabletop-server` against a server on this
//! machine, or several on one PostgreSQL database (players spread over them in turn);
//! ends with one line of results.

use std::time::Duration;

use clap::Args;
use tabletop_server::loadtest::{self, LoadConfig};

use crate::common::{CliError, CliResult};

/// Arguments of `tabletop loadtest`.
#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// The server: ws://127.0.0.1:PORT/ (this machine only). Several servers on one
    /// PostgreSQL database: their URLs, and the two players of each game connect to
    /// different ones (round-robin).
    #[arg(value_name = "URL", required = true, num_args = 1..)]
    urls: Vec<String>,
    /// Games played at once (pairs of clients).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u16).range(1..=5000))]
    games: u16,
    /// How long to play, in seconds.
    #[arg(long, value_name = "S", default_value_t = 30,
          value_parser = clap::value_parser!(u16).range(1..=600))]
    seconds: u16,
    /// Think time before each move, in milliseconds: MIN-MAX, or one number (0: as fast
    /// as the server answers, which measures its most actions a second).
    #[arg(long, value_name = "MIN-MAX", default_value = "200-1000", value_parser = think_range)]
    think_ms: (u64, u64),
    /// Chance, in percent, that a client drops its connection right after an action and
    /// comes back (catching up and resending it).
    #[arg(long, value_name = "PERCENT", default_value_t = 2.0, value_parser = percent)]
    drops: f64,
}

fn percent(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err("a percentage from 0 to 100".into()),
    }
}

fn think_range(text: &str) -> Result<(u64, u64), String> {
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: u64 = lo
        .trim()
        .parse()
        .map_err(|_| "MIN is a number".to_owned())?;
    let hi: u64 = hi
        .trim()
        .parse()
        .map_err(|_| "MAX is a number".to_owned())?;
    if lo > hi || hi > 60_000 {
        return Err("MIN ≤ MAX ≤ 60000".into());
    }
    Ok((lo, hi))
}

/// Runs the load and prints its line.
pub fn run(args: LoadtestArgs) -> CliResult {
    let servers = args.urls.len();
    let config = LoadConfig {
        urls: args.urls,
        games: usize::from(args.games),
        duration: Duration::from_secs(u64::from(args.seconds)),
        think_ms: args.think_ms,
        drop_percent: args.drops,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::new(format!("cannot start the runtime: {e}")))?;
    let report = runtime
        .block_on(loadtest::run(config))
        .map_err(CliError::usage)?;
    if servers > 1 {
        println!("loadtest: players spread over {servers} servers, round-robin");
    }
    println!(
        "loadtest: connections dropped and made again: {}",
        report.drops
    );
    for (kind, n) in &report.error_kinds {
        println!("loadtest: errors {kind}: {n}");
    }
    println!("{report}");
    Ok(())
}
