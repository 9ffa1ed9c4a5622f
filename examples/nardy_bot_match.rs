//! Two Long Nardy levels play a short match with duplicate dice and the result is printed.
//!
//! ```text
//! cargo run --release --example nardy_bot_match -- [FIRST] [SECOND] [PAIRS]
//! cargo run --release --example nardy_bot_match -- learned greedy 10
//! ```
//!
//! Each pair of games throws the same dice with the colours swapped, so luck mostly
//! cancels out.

use std::process::ExitCode;

use tabletop::nardy::ai::{Level, Resources, play_game};
use tabletop::nardy::{Color, Outcome, Rules};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level = |i: usize, default: &str| -> Result<Level, String> {
        let text = args.get(i).map_or(default, String::as_str);
        text.parse::<Level>().map_err(|e| e.to_string())
    };
    let (first, second) = match (level(0, "learned"), level(1, "greedy")) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let pairs: u64 = match args.get(2).map_or(Ok(5), |t| t.parse()) {
        Ok(n) if n > 0 => n,
        _ => {
            eprintln!("error: the number of pairs is a positive whole number");
            return ExitCode::from(2);
        }
    };
    let rules = Rules::default();
    let resources = Resources::new();
    let mut a = first.bot_with(&rules, &resources);
    let mut b = second.bot_with(&rules, &resources);
    let mut points = 0i64;
    let mut wins = 0;
    for seed in 0..pairs {
        for first_is_white in [true, false] {
            let game = if first_is_white {
                play_game(&rules, seed, a.as_mut(), b.as_mut())
            } else {
                play_game(&rules, seed, b.as_mut(), a.as_mut())
            };
            let mine = if first_is_white {
                Color::White
            } else {
                Color::Black
            };
            if let Some(Outcome::Win { winner, kind }) = game.outcome() {
                let p = i64::from(kind.points());
                if winner == mine {
                    wins += 1;
                    points += p;
                } else {
                    points -= p;
                }
            }
        }
    }
    let games = 2 * pairs;
    println!(
        "{} ({}) against {} ({}): {wins} of {games} games won, {:+.2} points per game",
        first,
        first.name(),
        second,
        second.name(),
        points as f64 / games as f64
    );
    ExitCode::SUCCESS
}
