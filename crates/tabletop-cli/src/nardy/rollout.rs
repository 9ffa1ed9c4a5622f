//! `tabletop nardy rollout`: a position, or the best turns of a roll, played out to the
//! end many times by a bot (`nardy_core::ai::rollout`), with a confidence interval each.

use clap::Args;
use nardy_core::ai::{GameAnalysis, Level, Resources, RolloutStats, rollout};
use nardy_core::{Color, Dice, Game, Position, Rules, WinKind, score};
use serde::Serialize;

use crate::common::{CliError, CliResult, JsonArg, Progress, at_least_one, run_parallel};

/// `tabletop nardy rollout`.
#[derive(Args, Debug)]
pub struct RolloutArgs {
    /// The position, e.g. "24:15/12:15 w".
    position: String,
    /// The roll to play: the best turns for it are rolled out (by the level's ranking).
    /// Without it, the position itself is rolled out for its side to move, before its roll.
    #[arg(long)]
    dice: Option<String>,
    /// Games per candidate; 1,296 throws every pair of first two rolls once.
    #[arg(long, default_value_t = 1296, value_parser = at_least_one())]
    games: usize,
    /// The level that plays the games out (and ranks the turns).
    #[arg(long, default_value = "learned")]
    level: Level,
    /// How many of the ranked turns to roll out.
    #[arg(long, default_value_t = 5, value_parser = at_least_one())]
    top: usize,
    /// Seed of the dice after the first two rolls (the same for every candidate).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (the results do not depend on it).
    #[arg(long, value_parser = at_least_one())]
    threads: Option<usize>,
    #[command(flatten)]
    json: JsonArg,
}

/// One rolled-out candidate, as printed.
#[derive(Serialize)]
struct Line {
    /// The turn (`None` for the position itself).
    turn: Option<String>,
    /// The static ranking's equity of the turn, for comparison.
    search_equity: Option<f32>,
    /// Mean points per game for the side that plays it.
    equity: f64,
    /// Half-width of the 95% confidence interval of `equity`.
    interval95: f64,
    win: f64,
    win_mars: f64,
    lose_mars: f64,
    games: u64,
}

/// What a candidate's value comes from.
enum Candidate {
    /// Games played out from this game (the opponent of the mover to roll, or the mover
    /// before its roll).
    Rollout(Box<Game>),
    /// The turn ends the game: the mover wins this way, for sure.
    Sure(WinKind),
}

/// Who plays the rollouts: bots of `level` under `rules`, sharing `resources`.
pub(super) struct Players<'a> {
    pub(super) level: Level,
    pub(super) rules: Rules,
    pub(super) resources: &'a Resources,
}

/// The machine's threads, the default of `--threads`.
pub(super) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `games` trials of a rollout of `game` for `viewpoint` with `seed`, on `threads`
/// worker threads, with a progress bar named after `label`.
pub(super) fn roll_out(
    game: &Game,
    viewpoint: Color,
    games: u64,
    seed: u64,
    players: &Players,
    threads: usize,
    label: &str,
) -> RolloutStats {
    let make = || players.level.bot_with(&players.rules, players.resources);
    let mut progress = Progress::new(format!("rollout {label}"), games);
    let parts = run_parallel(
        games.div_ceil(CHUNK) as usize,
        threads.max(1),
        &mut progress,
        CHUNK,
        || [make(), make()],
        |[w, b], i| {
            let from = i as u64 * CHUNK;
            let to = (from + CHUNK).min(games);
            rollout(game, from..to, seed, [w.as_mut(), b.as_mut()], viewpoint)
        },
    );
    progress.finish();
    let mut stats = RolloutStats::default();
    for part in &parts {
        stats.merge(part);
    }
    stats
}

/// Games per job handed to a worker (the rollout is a function of the trial numbers, so
/// the chunking changes nothing but the progress bar's steps).
const CHUNK: u64 = 36;

pub fn run(a: RolloutArgs, rules: Rules) -> CliResult {
    let position: Position = a
        .position
        .parse()
        .map_err(|e| CliError::new(format!("bad position `{}`: {e}", a.position)))?;
    if let Some(c) = position.finished() {
        return Err(CliError::new(format!(
            "the game is over: {c} has borne off all 15 checkers"
        )));
    }
    // the database is built on first use and the network is small: share one set
    let resources = Resources::new();
    let mover = position.side_to_move();
    // (turn, the ranking's equity, the game to roll out or a turn's sure points)
    let mut candidates: Vec<(Option<String>, Option<f32>, Candidate)> = Vec::new();
    match &a.dice {
        None => {
            let game = Game::from_position(rules, position, 0)?;
            candidates.push((None, None, Candidate::Rollout(Box::new(game))));
        }
        Some(text) => {
            let dice: Dice = text
                .parse()
                .map_err(|e: nardy_core::ParseDiceError| CliError::new(e.to_string()))?;
            let ranked = a.level.search(&rules, &resources).rank(&position, dice);
            for r in ranked.into_iter().take(a.top) {
                // a turn that bears off the last checker is worth its result exactly
                let candidate = match r.position.finished() {
                    Some(_) => Candidate::Sure(score(&r.position, mover, &rules)),
                    None => {
                        Candidate::Rollout(Box::new(Game::from_position(rules, r.position, 0)?))
                    }
                };
                candidates.push((Some(r.mv.to_string()), Some(r.equity), candidate));
            }
        }
    }
    let threads = a.threads.unwrap_or_else(default_threads);
    let games = a.games as u64;
    let start = std::time::Instant::now();
    let mut lines = Vec::new();
    let players = Players {
        level: a.level,
        rules,
        resources: &resources,
    };
    for (turn, search_equity, candidate) in &candidates {
        let game = match candidate {
            Candidate::Rollout(game) => game,
            Candidate::Sure(kind) => {
                lines.push(Line {
                    turn: turn.clone(),
                    search_equity: *search_equity,
                    equity: f64::from(kind.points()),
                    interval95: 0.0,
                    win: 1.0,
                    win_mars: f64::from(u8::from(*kind != WinKind::Oin)),
                    lose_mars: 0.0,
                    games: 0,
                });
                continue;
            }
        };
        let label = turn.clone().unwrap_or_else(|| "the position".into());
        let stats = roll_out(game, mover, games, a.seed, &players, threads, &label);
        let n = stats.trials.max(1) as f64;
        lines.push(Line {
            turn: turn.clone(),
            search_equity: *search_equity,
            equity: stats.mean(),
            interval95: stats.interval95(),
            win: stats.win_rate(),
            win_mars: stats.mars_wins as f64 / n,
            lose_mars: stats.mars_losses as f64 / n,
            games: stats.trials,
        });
    }
    let seconds = start.elapsed().as_secs_f64();
    lines.sort_by(|x, y| y.equity.total_cmp(&x.equity));
    if a.json.json {
        return a.json.print(&lines);
    }
    let side = match mover {
        Color::White => "White",
        Color::Black => "Black",
    };
    println!(
        "rollout by level {} for {side}: {} games each, seed {}",
        a.level.name(),
        games,
        a.seed
    );
    for (i, l) in lines.iter().enumerate() {
        let what = l.turn.as_deref().unwrap_or("position (before the roll)");
        let search = l
            .search_equity
            .map_or(String::new(), |e| format!(", search {e:+.3}"));
        println!(
            "{:>2}. {what:<24} equity {:+.3} ± {:.3}, win {:.1}%, mars {:.1}% / {:.1}%{search}",
            i + 1,
            l.equity,
            l.interval95,
            100.0 * l.win,
            100.0 * l.win_mars,
            100.0 * l.lose_mars,
        );
    }
    let played: u64 = lines.iter().map(|l| l.games).sum();
    eprintln!("{played} games in {seconds:.1} s");
    Ok(())
}

/// `analyze --rollout N`: which turns to roll out and how.
pub(super) struct CloseCalls {
    /// Games per turn (0: none).
    pub(super) games: u64,
    /// Turns that lost less than this (and more than nothing) are the search's close calls.
    pub(super) unsure: f32,
    /// The level that plays the games out.
    pub(super) level: Level,
}

/// A close call rolled out: the turn played and the best turn of the search.
#[derive(Serialize)]
pub(super) struct CloseCall {
    number: usize,
    side: &'static str,
    dice: String,
    played: String,
    best: String,
    search_loss: f32,
    played_equity: f64,
    best_equity: f64,
    /// The rollouts' loss of the turn played (negative: the rollouts prefer it).
    rollout_loss: f64,
    /// Half-width of the 95% interval of `rollout_loss` (as if the two rollouts were
    /// independent: their common dice make the true interval narrower).
    interval95: f64,
}

impl CloseCalls {
    /// Rolls out the close calls of `analysis`, in game order.
    pub(super) fn run(
        &self,
        analysis: &GameAnalysis,
        rules: &Rules,
        resources: &Resources,
    ) -> CliResult<Vec<CloseCall>> {
        if self.games == 0 {
            return Ok(Vec::new());
        }
        let players = Players {
            level: self.level,
            rules: *rules,
            resources,
        };
        let threads = default_threads();
        let mut out = Vec::new();
        for t in &analysis.turns {
            if t.choices < 2 || t.loss <= 0.0 || t.loss >= self.unsure {
                continue;
            }
            let value = |mv: &nardy_core::Move| -> CliResult<RolloutStats> {
                let mut after = t.position;
                after
                    .play(t.dice, mv, rules)
                    .map_err(|e| CliError::new(format!("turn {}: {e}", t.number)))?;
                if after.finished().is_some() {
                    let points = f64::from(score(&after, t.color, rules).points());
                    return Ok(RolloutStats {
                        trials: 1,
                        sum: points,
                        sum_squares: points * points,
                        wins: 1,
                        ..RolloutStats::default()
                    });
                }
                let game = Game::from_position(*rules, after, 0)?;
                let label = format!("turn {}: {mv}", t.number);
                Ok(roll_out(
                    &game,
                    t.color,
                    self.games,
                    t.number as u64,
                    &players,
                    threads,
                    &label,
                ))
            };
            let played = value(&t.played)?;
            let best = value(&t.best)?;
            let se = |s: &RolloutStats| if s.trials < 2 { 0.0 } else { s.std_error() };
            out.push(CloseCall {
                number: t.number,
                side: if t.color == Color::White {
                    "white"
                } else {
                    "black"
                },
                dice: t.dice.to_string(),
                played: t.played.to_string(),
                best: t.best.to_string(),
                search_loss: t.loss,
                played_equity: played.mean(),
                best_equity: best.mean(),
                rollout_loss: best.mean() - played.mean(),
                interval95: 1.96 * (se(&played).powi(2) + se(&best).powi(2)).sqrt(),
            });
        }
        Ok(out)
    }
}

/// The close calls as `analyze` prints them.
pub(super) fn print_close_calls(close: &[CloseCall], how: &CloseCalls) {
    if how.games == 0 {
        return;
    }
    println!();
    println!(
        "rollouts of the close calls (turns losing under {:.3}; {} games each, level {}):",
        how.unsure,
        how.games,
        how.level.name()
    );
    if close.is_empty() {
        println!("  none");
    }
    for c in close {
        println!(
            "  turn {} ({}, {}): played {} {:+.3}, best {} {:+.3}: lost {:+.3} ± {:.3} (search {:.3})",
            c.number,
            c.side,
            c.dice,
            c.played,
            c.played_equity,
            c.best,
            c.best_equity,
            c.rollout_loss,
            c.interval95,
            c.search_loss
        );
    }
}
