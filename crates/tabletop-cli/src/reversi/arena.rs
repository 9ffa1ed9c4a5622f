//! `tabletop reversi arena`: bots against each other from varied openings, colours
//! swapped, on the shared parallel runner.

use std::str::FromStr;
use std::time::Instant;

use clap::Args;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reversi_core::ai::{self, Bot, Engine, Level, Limits};
use reversi_core::{Color, Game, Position, Rules};
use serde::Serialize;
use tabletop_play::reversi::{self, Reversi};
use tabletop_play::{Player, Table};

use crate::common::{CliError, CliResult, JsonArg, Progress, SeedArg, run_parallel};

/// Arguments of `tabletop reversi arena`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The first player: bot:N (level 1-10), search:DEPTH:EMPTIES or time:MS:EMPTIES
    /// (about MS milliseconds of wall time a move, with time management), optionally followed
    /// by :hand (the hand-tuned evaluation) and then by :nompc (no Multi-ProbCut) or
    /// :mpc=T (its margin, in hundredths of a deviation).
    #[arg(long, value_name = "PLAYER")]
    black: ArenaPlayer,
    /// The second player, like the first.
    #[arg(long, value_name = "PLAYER")]
    white: ArenaPlayer,
    /// Pattern weights file for the first player (default: the shipped weights).
    #[arg(long, value_name = "FILE")]
    black_weights: Option<std::path::PathBuf>,
    /// Pattern weights file for the second player.
    #[arg(long, value_name = "FILE")]
    white_weights: Option<std::path::PathBuf>,
    /// Multi-ProbCut table file for the first player (default: the shipped table; a file
    /// written by `tabletop reversi probcut`).
    #[arg(long, value_name = "FILE")]
    black_probcut: Option<std::path::PathBuf>,
    /// Multi-ProbCut table file for the second player.
    #[arg(long, value_name = "FILE")]
    white_probcut: Option<std::path::PathBuf>,
    /// Number of games, played in pairs from the same opening with colours swapped
    /// (rounded up to an even number).
    #[arg(long, value_name = "G", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Random plies of each opening before the bots take over.
    #[arg(long, value_name = "PLIES", default_value_t = 6)]
    opening_plies: u32,
    /// Pairs of games played at the same time (each thread has its own bots); the
    /// results do not depend on it.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::common::at_least_one())]
    threads: usize,
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    json: JsonArg,
}

/// A player of the arena: `bot:N` (a level), or `search:D:E` (a midgame search of `D`
/// plies, exact from `E` empty squares, no noise); either followed by `:hand` to use the
/// hand-tuned evaluation instead of the trained one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaPlayer {
    budget: Budget,
    hand: bool,
    /// `None`: the default Multi-ProbCut; `Some(None)`: off; `Some(Some(t))`: margin `t`.
    probcut: Option<Option<i32>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Budget {
    Level(Level),
    Search(u32, u32),
    Time(u32, u32),
}

/// An arena bot (bots on the clock manage their own time).
struct ArenaBot {
    engine: Engine,
}

impl ArenaPlayer {
    fn engine(
        self,
        weights: Option<&ai::pattern::PatternWeights>,
        cuts: Option<&ai::probcut::Table>,
    ) -> ArenaBot {
        let eval = if self.hand {
            ai::Evaluator::hand_tuned()
        } else if let Some(w) = weights {
            ai::Evaluator::with_patterns(w.clone())
        } else {
            ai::Evaluator::trained()
        };
        let mut engine = match self.budget {
            Budget::Level(level) => Engine::with_level_evaluator(level, eval),
            Budget::Search(depth, exact) => {
                Engine::with_evaluator(Limits::depth(depth, exact), eval)
            }
            Budget::Time(ms, exact) => {
                Engine::on_clock(u64::from(ms), exact, super::wall_clock(), eval)
            }
        };
        if let Some(probcut) = self.probcut {
            engine.searcher_mut().set_probcut(probcut);
        }
        if let Some(cuts) = cuts {
            engine.searcher_mut().set_probcut_table(*cuts);
        }
        ArenaBot { engine }
    }
}

impl FromStr for ArenaPlayer {
    type Err = String;

    fn from_str(s: &str) -> Result<ArenaPlayer, String> {
        let bad = || {
            format!(
                "'{s}' is not an arena player: use bot:N (N from 1 to 10) or search:DEPTH:EMPTIES, optionally followed by :hand"
            )
        };
        let (rest, probcut) = if let Some(rest) = s.strip_suffix(":nompc") {
            (rest, Some(None))
        } else if let Some((rest, t)) = s.rsplit_once(":mpc=") {
            let t: i32 = t.parse().map_err(|_| bad())?;
            if !(1..=1000).contains(&t) {
                return Err(format!("'{s}': the ProbCut margin goes from 1 to 1000"));
            }
            (rest, Some(Some(t)))
        } else {
            (s, None)
        };
        let (rest, hand) = match rest.strip_suffix(":hand") {
            Some(rest) => (rest, true),
            None => (rest, false),
        };
        let budget = if let Some(level) = rest.strip_prefix("bot:") {
            Budget::Level(level.parse::<Level>().map_err(|e| e.to_string())?)
        } else if let Some(search) = rest.strip_prefix("search:") {
            let (depth, exact) = search.split_once(':').ok_or_else(bad)?;
            let depth: u32 = depth.parse().map_err(|_| bad())?;
            let exact: u32 = exact.parse().map_err(|_| bad())?;
            if !(1..=30).contains(&depth) || exact > 30 {
                return Err(format!(
                    "'{s}': the search depth goes from 1 to 30 plies and the exact solve from 0 to 30 empty squares"
                ));
            }
            Budget::Search(depth, exact)
        } else if let Some(time) = rest.strip_prefix("time:") {
            let (ms, exact) = time.split_once(':').ok_or_else(bad)?;
            let ms: u32 = ms.parse().map_err(|_| bad())?;
            let exact: u32 = exact.parse().map_err(|_| bad())?;
            if !(1..=600_000).contains(&ms) || exact > 30 {
                return Err(format!(
                    "'{s}': the time goes from 1 to 600000 ms and the exact solve from 0 to 30 empty squares"
                ));
            }
            Budget::Time(ms, exact)
        } else {
            return Err(bad());
        };
        Ok(ArenaPlayer {
            budget,
            hand,
            probcut,
        })
    }
}

impl std::fmt::Display for ArenaPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.budget {
            Budget::Level(level) => write!(f, "bot:{level}")?,
            Budget::Search(depth, exact) => write!(f, "search:{depth}:{exact}")?,
            Budget::Time(ms, exact) => write!(f, "time:{ms}:{exact}")?,
        }
        if self.hand {
            write!(f, ":hand")?;
        }
        match self.probcut {
            None => {}
            Some(None) => write!(f, ":nompc")?,
            Some(Some(t)) => write!(f, ":mpc={t}")?,
        }
        Ok(())
    }
}

/// The outcome of one arena game from the first player's view.
struct GameOutcome {
    first_discs: u32,
    second_discs: u32,
}

/// A random opening of `plies` moves (stopping early at a dead end).
fn opening(rng: &mut ChaCha8Rng, plies: u32) -> Position {
    let mut pos = Position::start();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_over() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        if pos.play(mv).is_err() {
            break;
        }
    }
    pos
}

/// One game from `pos` between two bots at a `tabletop_play` table (which plays the forced
/// passes), `first` playing `first_color`.
fn play_out(
    pos: Position,
    first: &mut ArenaBot,
    second: &mut ArenaBot,
    first_color: Color,
    rng: &mut dyn Rng,
) -> CliResult<GameOutcome> {
    first.engine.new_game();
    second.engine.new_game();
    let game = Reversi::new(Game::from_position(Rules::default(), pos));
    // The seats' level numbers are not used: the arena's own bots answer for them.
    let mut table = Table::new(game, &[Player::Bot(0), Player::Bot(0)]);
    table
        .run_bots(|state, seat, _| {
            let bot = if reversi::color_of(seat) == first_color {
                &mut *first
            } else {
                &mut *second
            };
            reversi::bot_action(state, &mut bot.engine, rng)
        })
        .map_err(|e| CliError::new(format!("internal error: a bot's move was refused: {e}")))?;
    let pos = table.game().game().position();
    Ok(GameOutcome {
        first_discs: pos.count(first_color),
        second_discs: pos.count(first_color.other()),
    })
}

/// The two games of a pair from `pos`, the first player taking Black, then White.
fn play_pair(
    pos: Position,
    first: &mut ArenaBot,
    second: &mut ArenaBot,
    rng: &mut dyn Rng,
) -> CliResult<[GameOutcome; 2]> {
    Ok([
        play_out(pos, first, second, Color::Black, rng)?,
        play_out(pos, first, second, Color::White, rng)?,
    ])
}

#[derive(Serialize)]
struct ArenaSummary {
    first: String,
    second: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    first_discs: u32,
    second_discs: u32,
    score: f64,
    ci95: f64,
    seconds: f64,
}

/// Runs `tabletop reversi arena`.
pub fn arena(args: ArenaArgs) -> CliResult {
    let pairs = args.games.div_ceil(2);
    let games = pairs * 2;
    let load =
        |path: &Option<std::path::PathBuf>| -> CliResult<Option<ai::pattern::PatternWeights>> {
            match path {
                Some(p) => ai::pattern::PatternWeights::from_bytes(&crate::common::load_file(p)?)
                    .map(Some)
                    .map_err(|e| CliError::new(format!("{}: {e}", p.display()))),
                None => Ok(None),
            }
        };
    let (black_weights, white_weights) = (load(&args.black_weights)?, load(&args.white_weights)?);
    let (black_cuts, white_cuts) = (
        super::tools::load_probcut(args.black_probcut.as_deref())?,
        super::tools::load_probcut(args.white_probcut.as_deref())?,
    );
    let seed = args.seed.seed();
    // The openings come from one generator, in order; each pair then has its own
    // tie-breaking generator, so the games do not depend on how they are spread over
    // threads.
    let mut openings = ChaCha8Rng::seed_from_u64(seed);
    let starts: Vec<Position> = (0..pairs)
        .map(|_| opening(&mut openings, args.opening_plies))
        .collect();
    let mut progress = Progress::new(
        format!("{} vs {}", args.black, args.white),
        u64::from(games),
    );
    let start = Instant::now();
    // Each thread has its own pair of bots (reset before every game); each pair of games
    // has its own tie-breaking generator, so the results do not depend on the threads.
    let results = run_parallel(
        starts.len(),
        args.threads,
        &mut progress,
        2,
        || {
            (
                args.black
                    .engine(black_weights.as_ref(), black_cuts.as_ref()),
                args.white
                    .engine(white_weights.as_ref(), white_cuts.as_ref()),
            )
        },
        |(first, second), pair| {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seed ^ 0x5DEE_CE66_D1CE_5EED ^ (pair as u64) << 32);
            play_pair(starts[pair], first, second, &mut rng)
        },
    )
    .into_iter()
    .collect::<CliResult<Vec<[GameOutcome; 2]>>>()?;
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let (mut first_discs, mut second_discs) = (0u32, 0u32);
    let mut scores: Vec<f64> = Vec::with_capacity(games as usize);
    for out in results.into_iter().flatten() {
        first_discs += out.first_discs;
        second_discs += out.second_discs;
        let s = match out.first_discs.cmp(&out.second_discs) {
            std::cmp::Ordering::Greater => {
                wins += 1;
                1.0
            }
            std::cmp::Ordering::Equal => {
                draws += 1;
                0.5
            }
            std::cmp::Ordering::Less => {
                losses += 1;
                0.0
            }
        };
        scores.push(s);
    }
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    let ci95 = 1.96 * (var / n).sqrt();
    let seconds = start.elapsed().as_secs_f64();
    let summary = ArenaSummary {
        first: args.black.to_string(),
        second: args.white.to_string(),
        games,
        wins,
        draws,
        losses,
        first_discs,
        second_discs,
        score: mean,
        ci95,
        seconds,
    };
    if args.json.json {
        return args.json.print(&summary);
    }
    println!(
        "{} vs {}: {games} games ({pairs} openings of {} random plies, colours swapped), seed {seed}",
        summary.first, summary.second, args.opening_plies
    );
    println!(
        "{}: wins {wins} draws {draws} losses {losses}, discs {first_discs}-{second_discs}",
        summary.first
    );
    println!(
        "score {:.1}% ± {:.1}% (95% confidence), {seconds:.1} s",
        mean * 100.0,
        ci95 * 100.0
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arena_players_parse() {
        assert_eq!("bot:3".parse::<ArenaPlayer>().unwrap().to_string(), "bot:3");
        assert!("bot:11".parse::<ArenaPlayer>().is_err());
        assert!("human".parse::<ArenaPlayer>().is_err());
        for ok in [
            "bot:10:hand",
            "search:12:20",
            "search:4:0:hand",
            "time:100:18",
            "bot:9:nompc",
            "search:8:14:hand:mpc=200",
        ] {
            assert_eq!(ok.parse::<ArenaPlayer>().unwrap().to_string(), ok);
        }
        for bad in [
            "search:12",
            "search:0:10",
            "search:5:31",
            "search:x:1",
            "bot:3:hard",
            ":hand",
            "time:0:10",
            "bot:9:mpc=0",
            "bot:9:mpc=x",
        ] {
            assert!(bad.parse::<ArenaPlayer>().is_err(), "{bad}");
        }
    }
}
