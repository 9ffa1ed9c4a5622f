//! `tabletop nardy` bot tools: `hint`, `eval`, `analyze`, `arena` and `train`.
//!
//! Holds no rules or bot logic: it parses arguments, calls `nardy_core::ai` and prints.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Subcommand};
use nardy_core::ai::{
    BearoffDb, Bot, Evaluator, HandEval, INPUTS, INPUTS_V2, Level, Network, Resources, SearchBot,
    SearchConfig, TrainConfig, Trainer, analyse_game, is_race, play_game,
};
use nardy_core::{Color, Dice, Outcome, Position, Rules, WinKind};
use serde::Serialize;

use crate::common::{
    CliError, CliResult, JsonArg, Progress, at_least_one, check_output, load_file, run_parallel,
    write_atomic,
};

/// The bot commands of `tabletop nardy`.
#[derive(Subcommand, Debug)]
pub enum AiCommand {
    /// Rank every legal turn of a position and a roll by its equity.
    Hint {
        /// The position, e.g. "24:15/12:15 w".
        position: String,
        /// The dice, e.g. 65 or 6-5.
        dice: String,
        /// The level whose search ranks the turns (4 to 6 use the network at 0 to 2
        /// plies, 1 to 3 the hand-written evaluation).
        #[arg(long, default_value = "expert")]
        level: Level,
        #[command(flatten)]
        json: JsonArg,
    },
    /// The probabilities and the equity of a position for its side to move.
    Eval {
        /// The position, e.g. "24:15/12:15 w".
        position: String,
        /// Search depth of the learned evaluation (0 to 2).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=2))]
        plies: u8,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Analyse a saved game: the equity each turn lost against the best turn.
    Analyze {
        /// The save file.
        save: PathBuf,
        /// The level whose search judges the turns.
        #[arg(long, default_value = "strong")]
        level: Level,
        /// How many of the worst turns to list.
        #[arg(long, default_value_t = 10)]
        worst: usize,
        /// Where the search is unsure (a turn other than its best, losing less than
        /// `--unsure`), roll out the turn played and the best one with this many games
        /// each (0: no rollouts).
        #[arg(long, default_value_t = 0)]
        rollout: u64,
        /// The largest loss the search may be unsure of.
        #[arg(long, default_value_t = 0.1)]
        unsure: f32,
        /// The level that plays the rollouts out.
        #[arg(long, default_value = "learned")]
        rollout_level: Level,
        #[command(flatten)]
        json: JsonArg,
    },
    /// Play games between two levels in pairs with the same dice and colours swapped.
    Arena(ArenaArgs),
    /// Train the network by self-play (TD(λ)); resumes from the checkpoint if it exists.
    Train(TrainArgs),
    /// Play a position, or the best turns of a roll, out to the end many times with a
    /// bot: the equity of each with its 95% confidence interval.
    Rollout(super::rollout::RolloutArgs),
}

/// `tabletop nardy arena`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The first level (White in the first game of each pair), e.g. `expert` or `bot:6`.
    #[arg(long, value_parser = parse_bot)]
    white: Level,
    /// The second level.
    #[arg(long, value_parser = parse_bot)]
    black: Level,
    /// Number of games (rounded up to an even number).
    #[arg(long, default_value_t = 200, value_parser = at_least_one())]
    games: usize,
    /// Seed of the dice of the first pair (pair i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (the results do not depend on it).
    #[arg(long, value_parser = at_least_one())]
    threads: Option<usize>,
    /// The first level's network: a weights file written by `train` instead of the
    /// shipped weights.
    #[arg(long, value_name = "FILE")]
    white_weights: Option<PathBuf>,
    /// The second level's network (see --white-weights).
    #[arg(long, value_name = "FILE")]
    black_weights: Option<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
}

/// `tabletop nardy train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Train until this many games have been played in total.
    #[arg(long)]
    games: u64,
    /// Seed of the initial weights and of the dice (a fresh run only).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Hidden units (a fresh run only).
    #[arg(long, default_value_t = 80)]
    hidden: u16,
    /// The learning rate [default: 0.02]; given when resuming, it replaces the rate of
    /// the checkpoint for the games still to come (a decreasing schedule is a sequence
    /// of runs, each to a larger --games with a smaller --alpha).
    #[arg(long, value_parser = parse_alpha)]
    alpha: Option<f32>,
    /// The network's input set (a fresh run only): 1, the shipped network's, or 2, which
    /// adds how each side's checkers are blocked.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    input_set: u8,
    /// How deep the values each target bootstraps from are searched [default: 0]: 0,
    /// the network's own value of the next position (TD(λ)); 1, its 1-ply search, which
    /// teaches the network what one more ply sees, at about six times the time per
    /// game. Given when resuming, it holds for the games still to come.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=1))]
    target_plies: Option<u8>,
    /// The λ of TD(λ) [default: 0.7]: 0 learns from the next position's value alone, 1
    /// from the game's result alone. Given when resuming, it holds for the games still
    /// to come.
    #[arg(long, value_parser = parse_lambda)]
    lambda: Option<f32>,
    /// The checkpoint file: read to resume when it exists, written every
    /// `--checkpoint-every` games and at the end.
    #[arg(long, default_value = "nardy-train.ckpt")]
    checkpoint: PathBuf,
    /// Games between checkpoints.
    #[arg(long, default_value_t = 2000)]
    checkpoint_every: u64,
    /// Where to write the weights at the end.
    #[arg(long, default_value = "nardy-weights.bin")]
    out: PathBuf,
    /// Games between strength checks against the greedy level (0: never).
    #[arg(long, default_value_t = 10_000)]
    bench_every: u64,
    /// Games of each strength check (pairs with duplicate dice).
    #[arg(long, default_value_t = 200, value_parser = at_least_one())]
    bench_games: usize,
    /// Check the strength against this network (a weights file, both at 0 plies)
    /// instead of the greedy level: an earlier network keeps telling strong networks
    /// apart after greedy stops.
    #[arg(long, value_name = "FILE")]
    bench_weights: Option<PathBuf>,
}

/// A λ: a number from 0 to 1.
fn parse_lambda(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(l) if (0.0..=1.0).contains(&l) => Ok(l),
        _ => Err(format!("'{text}' is not a λ: use a number from 0 to 1")),
    }
}

/// A learning rate: a number above 0 and at most 1.
fn parse_alpha(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(a) if a > 0.0 && a <= 1.0 => Ok(a),
        _ => Err(format!(
            "'{text}' is not a learning rate: use a number above 0 and at most 1"
        )),
    }
}

/// A level as `LEVEL` or `bot:LEVEL`.
fn parse_bot(text: &str) -> Result<Level, String> {
    let t = text.trim();
    let t = t.strip_prefix("bot:").unwrap_or(t);
    t.parse::<Level>().map_err(|e| e.to_string())
}

fn parse_position(text: &str) -> CliResult<Position> {
    text.parse::<Position>()
        .map_err(|e| CliError::new(format!("bad position `{text}`: {e}")))
}

/// Runs a bot command.
pub fn run(command: AiCommand, rules: Rules) -> CliResult {
    match command {
        AiCommand::Hint {
            position,
            dice,
            level,
            json,
        } => hint(&position, &dice, level, rules, json),
        AiCommand::Eval {
            position,
            plies,
            json,
        } => eval(&position, plies, rules, json),
        AiCommand::Analyze {
            save,
            level,
            worst,
            rollout,
            unsure,
            rollout_level,
            json,
        } => {
            let rollouts = super::rollout::CloseCalls {
                games: rollout,
                unsure,
                level: rollout_level,
            };
            analyze(&save, level, worst, &rollouts, json)
        }
        AiCommand::Arena(a) => arena(a, rules),
        AiCommand::Train(t) => train(t),
        AiCommand::Rollout(r) => super::rollout::run(r, rules),
    }
}

fn game_over(position: &Position) -> CliResult {
    match position.finished() {
        Some(c) => Err(CliError::new(format!(
            "the game is over: {c} has borne off all 15 checkers"
        ))),
        None => Ok(()),
    }
}

#[derive(Serialize)]
struct HintLine {
    rank: usize,
    turn: String,
    equity: f32,
    loss: f32,
    plies: u8,
    win: f32,
    win_mars: f32,
    lose_mars: f32,
}

fn hint(position: &str, dice: &str, level: Level, rules: Rules, json: JsonArg) -> CliResult {
    let position = parse_position(position)?;
    let dice: Dice = dice
        .parse()
        .map_err(|e: nardy_core::ParseDiceError| CliError::new(e.to_string()))?;
    game_over(&position)?;
    let resources = Resources::new();
    let mut search = level.search(&rules, &resources);
    let start = std::time::Instant::now();
    let ranked = search.rank(&position, dice);
    eprintln!(
        "searched {} evaluations in {:.3} s",
        search.nodes(),
        start.elapsed().as_secs_f64()
    );
    let lines: Vec<HintLine> = ranked
        .into_iter()
        .enumerate()
        .map(|(i, r)| HintLine {
            rank: i + 1,
            turn: r.mv.to_string(),
            equity: r.equity,
            loss: r.loss,
            plies: r.plies,
            win: r.probabilities.win,
            win_mars: r.probabilities.win_mars,
            lose_mars: r.probabilities.lose_mars,
        })
        .collect();
    if json.json {
        return json.print(&lines);
    }
    println!(
        "{} to play {dice}, level {level} ({}):",
        position.side_to_move(),
        level.name()
    );
    for l in &lines {
        let loss = if l.rank == 1 {
            String::new()
        } else {
            format!("({:+.3})", -l.loss)
        };
        println!(
            "{:>3}. {:<24} {:+.3} {:<9} {}-ply  win {:.1}%  mars {:.1}%/{:.1}%",
            l.rank,
            l.turn,
            l.equity,
            loss,
            l.plies,
            100.0 * l.win,
            100.0 * l.win_mars,
            100.0 * l.lose_mars
        );
    }
    Ok(())
}

#[derive(Serialize)]
struct EvalReport {
    position: String,
    race: bool,
    plies: u8,
    win: f32,
    win_mars: f32,
    win_koks: f32,
    lose: f32,
    lose_mars: f32,
    lose_koks: f32,
    equity: f32,
    hand_equity: f32,
    pips: [u32; 2],
}

fn eval(position: &str, plies: u8, rules: Rules, json: JsonArg) -> CliResult {
    let position = parse_position(position)?;
    let resources = Resources::new();
    let mut search = Level::MAX.search(&rules, &resources);
    let p = search.value_of_position(&position, plies);
    let me = position.side_to_move();
    let report = EvalReport {
        position: position.to_string(),
        race: is_race(&position),
        plies,
        win: p.win,
        win_mars: p.win_mars,
        win_koks: p.win_koks,
        lose: p.lose(),
        lose_mars: p.lose_mars,
        lose_koks: p.lose_koks,
        equity: p.equity(&rules),
        hand_equity: HandEval.evaluate(&position).equity(&rules),
        pips: [position.pip_count(me), position.pip_count(me.other())],
    };
    if json.json {
        return json.print(&report);
    }
    println!(
        "{} to move ({}), {plies}-ply:",
        me,
        if report.race { "race" } else { "contact" }
    );
    println!("  {p}");
    println!(
        "  equity {:+.3} (hand-written evaluation {:+.3})",
        report.equity, report.hand_equity
    );
    println!("  pips {} to {}", report.pips[0], report.pips[1]);
    Ok(())
}

/// One turn of `analyze --json`.
#[derive(Serialize)]
struct TurnJson {
    number: usize,
    side: &'static str,
    dice: String,
    played: String,
    best: String,
    loss: f32,
}

fn analyze(
    save: &Path,
    level: Level,
    worst: usize,
    rollouts: &super::rollout::CloseCalls,
    json: JsonArg,
) -> CliResult {
    let bytes = load_file(save)?;
    let game = super::decode_game(&bytes)
        .map_err(|e| CliError::new(format!("cannot load {}: {e}", save.display())))?;
    let resources = Resources::new();
    let mut search = level.search(game.rules(), &resources);
    let analysis = analyse_game(&game, &mut search);
    let close = rollouts.run(&analysis, game.rules(), &resources)?;
    if json.json {
        let side = |c: Color| if c == Color::White { "white" } else { "black" };
        let turns: Vec<TurnJson> = analysis
            .turns
            .iter()
            .map(|t| TurnJson {
                number: t.number,
                side: side(t.color),
                dice: t.dice.to_string(),
                played: t.played.to_string(),
                best: t.best.to_string(),
                loss: t.loss,
            })
            .collect();
        let per_side = |f: &dyn Fn(Color) -> serde_json::Value| serde_json::json!({ "white": f(Color::White), "black": f(Color::Black) });
        return json.print(&serde_json::json!({
            "level": level.name(),
            "turns": turns,
            "lost": per_side(&|c| serde_json::json!(analysis.lost(c))),
            "decisions": per_side(&|c| serde_json::json!(analysis.decisions(c))),
            "rollouts": close,
        }));
    }
    println!("turn  side   dice  played                    best                      lost");
    for t in &analysis.turns {
        let side = if t.color == Color::White {
            "White"
        } else {
            "Black"
        };
        let best = if t.loss > 0.0 {
            t.best.to_string()
        } else {
            String::from("=")
        };
        println!(
            "{:>4}  {side:<5}  {:<4}  {:<24}  {:<24}  {:.3}",
            t.number,
            t.dice.to_string(),
            t.played.to_string(),
            best,
            t.loss
        );
    }
    println!();
    for c in [Color::White, Color::Black] {
        println!(
            "{c}: lost {:.3} equity over {} decisions",
            analysis.lost(c),
            analysis.decisions(c)
        );
    }
    super::rollout::print_close_calls(&close, rollouts);
    let bad = analysis.worst();
    if !bad.is_empty() {
        println!();
        println!("worst turns:");
        for t in bad.iter().take(worst) {
            println!(
                "  turn {} ({}, {}): played {}, best {} (-{:.3})",
                t.number, t.color, t.dice, t.played, t.best, t.loss
            );
        }
    }
    Ok(())
}

/// One side's results over an arena run.
#[derive(Serialize, Default, Clone, Copy)]
struct SideTally {
    wins: u32,
    mars: u32,
    koks: u32,
}

#[derive(Serialize)]
struct ArenaReport {
    first: String,
    second: String,
    games: usize,
    seed: u64,
    first_wins: SideTally,
    second_wins: SideTally,
    draws: u32,
    /// The first level's points per game (won minus lost) and its 95% interval.
    points_per_game: f64,
    interval: f64,
    first_score_share: f64,
}

/// Points for `bot_color`'s owner in a finished game (won minus lost), with its tally.
fn tally(outcome: Option<Outcome>, mine: Color, me: &mut SideTally, them: &mut SideTally) -> i32 {
    match outcome {
        Some(Outcome::Win { winner, kind }) => {
            let t = if winner == mine { &mut *me } else { &mut *them };
            t.wins += 1;
            match kind {
                WinKind::Mars => t.mars += 1,
                WinKind::Koks => t.koks += 1,
                WinKind::Oin => {}
            }
            let pts = i32::from(kind.points());
            if winner == mine { pts } else { -pts }
        }
        _ => 0,
    }
}

fn arena(a: ArenaArgs, rules: Rules) -> CliResult {
    let pairs = a.games.div_ceil(2);
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let resources = (a.white.needs_resources() || a.black.needs_resources()).then(Resources::new);
    // each side's resources: the shared ones, with its own network if it was given one
    let with_weights = |file: &Option<PathBuf>| -> CliResult<Option<Resources>> {
        let (Some(file), Some(shared)) = (file, &resources) else {
            return Ok(resources.clone());
        };
        Ok(Some(Resources {
            db: shared.db.clone(),
            network: Arc::new(load_weights(file)?),
        }))
    };
    let (white_res, black_res) = (
        with_weights(&a.white_weights)?,
        with_weights(&a.black_weights)?,
    );
    let make = |level: Level, res: &Option<Resources>| match res {
        Some(r) => level.bot_with(&rules, r),
        None => level.bot(&rules),
    };
    let mut progress = Progress::new(
        format!("{} vs {}", a.white.name(), a.black.name()),
        (2 * pairs) as u64,
    );
    let results = run_parallel(
        pairs,
        threads,
        &mut progress,
        2,
        || (make(a.white, &white_res), make(a.black, &black_res)),
        |(x, y), i| {
            let seed = a.seed.wrapping_add(i as u64);
            let g1 = play_game(&rules, seed, x.as_mut(), y.as_mut());
            let g2 = play_game(&rules, seed, y.as_mut(), x.as_mut());
            (g1.outcome(), g2.outcome())
        },
    );
    let (mut me, mut them) = (SideTally::default(), SideTally::default());
    let mut draws = 0;
    let mut pair_points = Vec::with_capacity(pairs);
    for (o1, o2) in &results {
        let p1 = tally(*o1, Color::White, &mut me, &mut them);
        let p2 = tally(*o2, Color::Black, &mut me, &mut them);
        draws += u32::from(matches!(o1, Some(Outcome::Draw) | None))
            + u32::from(matches!(o2, Some(Outcome::Draw) | None));
        pair_points.push(f64::from(p1 + p2));
    }
    let n = pair_points.len() as f64;
    let mean_pair = pair_points.iter().sum::<f64>() / n;
    let var = pair_points
        .iter()
        .map(|x| (x - mean_pair).powi(2))
        .sum::<f64>()
        / (n - 1.0).max(1.0);
    let report = ArenaReport {
        first: format!("{} ({})", a.white, a.white.name()),
        second: format!("{} ({})", a.black, a.black.name()),
        games: 2 * pairs,
        seed: a.seed,
        first_wins: me,
        second_wins: them,
        draws,
        points_per_game: mean_pair / 2.0,
        interval: 1.96 * (var / n).sqrt() / 2.0,
        first_score_share: f64::from(me.wins) / (2 * pairs) as f64,
    };
    if a.json.json {
        return a.json.print(&report);
    }
    println!(
        "{} against {}: {} games in duplicate pairs (seed {})",
        report.first, report.second, report.games, report.seed
    );
    println!(
        "  {} wins {} ({:.1}%; mars {}, koks {}), {} wins {} (mars {}, koks {}), draws {}",
        report.first,
        me.wins,
        100.0 * report.first_score_share,
        me.mars,
        me.koks,
        report.second,
        them.wins,
        them.mars,
        them.koks,
        draws
    );
    println!(
        "  {} scores {:+.3} points per game, 95% interval {:+.3} to {:+.3}",
        report.first,
        report.points_per_game,
        report.points_per_game - report.interval,
        report.points_per_game + report.interval
    );
    Ok(())
}

/// Points per game of the network at 0 plies against the greedy level, over `games`
/// games in duplicate pairs with fixed seeds.
/// Points per game of the trainer's network at 0 plies against `against` (a network at 0
/// plies) or else the greedy level, over `games` games in duplicate pairs.
fn benchmark(
    trainer: &Trainer,
    db: &Arc<BearoffDb>,
    games: usize,
    against: Option<&Network>,
) -> f64 {
    let rules = Rules::default();
    let learned = |net: &Network| nardy_core::ai::WithBearoff {
        db: db.clone(),
        inner: net.clone(),
    };
    let mut net = SearchBot::new(
        learned(trainer.network()),
        rules,
        SearchConfig::plies(0),
        0.0,
    );
    let mut greedy: Box<dyn Bot> = match against {
        Some(other) => Box::new(SearchBot::new(
            learned(other),
            rules,
            SearchConfig::plies(0),
            0.0,
        )),
        None => Box::new(SearchBot::new(HandEval, rules, SearchConfig::plies(0), 0.0)),
    };
    let greedy = greedy.as_mut();
    let mut points = 0i64;
    let (mut a, mut b) = (SideTally::default(), SideTally::default());
    for i in 0..games.div_ceil(2) {
        let seed = 0xBE7C_0000 + i as u64;
        let g1 = play_game(&rules, seed, &mut net, greedy);
        points += i64::from(tally(g1.outcome(), Color::White, &mut a, &mut b));
        let g2 = play_game(&rules, seed, greedy, &mut net);
        points += i64::from(tally(g2.outcome(), Color::Black, &mut a, &mut b));
    }
    points as f64 / (2 * games.div_ceil(2)) as f64
}

/// A weights file written by `train`.
fn load_weights(file: &Path) -> CliResult<Network> {
    Network::from_bytes(&load_file(file)?)
        .map_err(|e| CliError::new(format!("{}: not a network's weights: {e}", file.display())))
}

fn train(t: TrainArgs) -> CliResult {
    check_output(&t.checkpoint)?;
    check_output(&t.out)?;
    let db = Arc::new(BearoffDb::new());
    let mut trainer = if t.checkpoint.exists() {
        let bytes = load_file(&t.checkpoint)?;
        let trainer = Trainer::from_bytes(&bytes, db.clone()).map_err(|e| {
            CliError::new(format!(
                "cannot resume from {}: {e}",
                t.checkpoint.display()
            ))
        })?;
        eprintln!(
            "resuming {} at game {} (seed {}, {} hidden units)",
            t.checkpoint.display(),
            trainer.games(),
            trainer.config().seed,
            trainer.config().hidden
        );
        trainer
    } else {
        let config = TrainConfig {
            seed: t.seed,
            hidden: t.hidden.clamp(1, nardy_core::ai::MAX_HIDDEN as u16),
            inputs: if t.input_set == 2 { INPUTS_V2 } else { INPUTS } as u16,
            ..TrainConfig::default()
        };
        Trainer::new(config, db.clone())
    };
    if let Some(alpha) = t.alpha {
        if alpha != trainer.config().alpha {
            eprintln!("learning rate {} from game {}", alpha, trainer.games());
        }
        trainer.set_alpha(alpha);
    }
    if t.target_plies.is_some() || t.lambda.is_some() {
        let plies = t.target_plies.unwrap_or(trainer.config().target_plies);
        let lambda = t.lambda.unwrap_or(trainer.config().lambda);
        if (plies, lambda) != (trainer.config().target_plies, trainer.config().lambda) {
            eprintln!(
                "targets from {plies}-ply values with λ {lambda} from game {}",
                trainer.games()
            );
        }
        trainer.set_targets(plies, lambda);
    }
    let save = |trainer: &Trainer| -> CliResult {
        write_atomic(&t.checkpoint, &trainer.to_bytes())
            .map_err(|e| CliError::new(format!("cannot write {}: {e}", t.checkpoint.display())))
    };
    let against = t.bench_weights.as_deref().map(load_weights).transpose()?;
    let against_name = match &t.bench_weights {
        Some(file) => format!("{}", file.display()),
        None => "greedy".into(),
    };
    let start = trainer.games();
    let mut progress = Progress::new("training", t.games.saturating_sub(start));
    while trainer.games() < t.games {
        trainer.train_game();
        progress.advance(1);
        let g = trainer.games();
        if t.checkpoint_every > 0 && g % t.checkpoint_every == 0 {
            save(&trainer)?;
        }
        if t.bench_every > 0 && g % t.bench_every == 0 {
            let ppg = benchmark(&trainer, &db, t.bench_games, against.as_ref());
            eprintln!(
                "game {g}: {ppg:+.3} points per game against {against_name} ({} games)",
                t.bench_games
            );
        }
    }
    progress.finish();
    save(&trainer)?;
    write_atomic(&t.out, &trainer.network().to_bytes())
        .map_err(|e| CliError::new(format!("cannot write {}: {e}", t.out.display())))?;
    eprintln!(
        "{} games; weights written to {}",
        trainer.games(),
        t.out.display()
    );
    Ok(())
}
