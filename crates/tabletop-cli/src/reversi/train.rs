//! `tabletop reversi train`: rebuild the evaluation's pattern weights from self-play.
//!
//! The games are played in chunks of [`CHUNK`] games, each from its own seed, so the data
//! do not depend on `--threads`; with `--data DIR` every chunk is kept in `DIR` and a
//! later run with the same settings reads it back instead of playing it again (a long run
//! resumes where it stopped).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reversi_core::ai::{self, Engine, Evaluator, Limits};

use crate::common::{
    CliError, CliResult, Progress, SeedArg, at_least_one, check_output, load_file, run_parallel,
    save_file,
};

/// Games per chunk of self-play.
const CHUNK: usize = 500;

/// Arguments of `tabletop reversi train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Number of self-play games to learn from.
    #[arg(long, value_name = "N", default_value_t = 60_000, value_parser = at_least_one())]
    games: usize,
    /// Midgame depth of the self-play bots.
    #[arg(long, value_name = "PLIES", default_value_t = 2)]
    depth: u32,
    /// The self-play bots solve exactly from this many empty squares.
    #[arg(long, value_name = "EMPTIES", default_value_t = 10)]
    exact: u32,
    /// Percentage of random moves in the self-play games.
    #[arg(long, value_name = "PERCENT", default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=100))]
    random: u32,
    /// Passes of gradient descent over the positions.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = at_least_one())]
    epochs: usize,
    /// Initial learning rate.
    #[arg(long, value_name = "RATE", default_value_t = 0.003)]
    rate: f32,
    /// Where to write the weights file.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The self-play bots use these pattern weights (a file written by an earlier `train`)
    /// instead of the hand-tuned evaluation; then no random move is played after the
    /// opening of 8 to 16 random plies, only the positions after it are learnt from, and
    /// the fit starts from these weights.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Keep each chunk of self-play positions in this folder and reuse the chunks found
    /// there (resumable runs).
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,
    /// Threads playing the self-play games (the data do not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_one())]
    threads: usize,
    #[command(flatten)]
    seed: SeedArg,
}

/// Runs `tabletop reversi train`: self-play games, least-squares fit, weights file.
pub fn train(args: TrainArgs) -> CliResult {
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return Err(CliError::usage("--rate must be a positive number"));
    }
    check_output(&args.out)?;
    let seed = args.seed.seed();
    let start = Instant::now();
    let from = match &args.from {
        Some(path) => Some(
            ai::pattern::PatternWeights::from_bytes(&load_file(path)?)
                .map_err(|e| CliError::new(format!("{}: {e}", path.display())))?,
        ),
        None => None,
    };
    if let Some(dir) = &args.data {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::new(format!("cannot create {}: {e}", dir.display())))?;
    }
    let chunks = args.games.div_ceil(CHUNK);
    // Chunk files are named after everything that shapes their games.
    let tag = format!(
        "{}-d{}-e{}-r{}-s{seed}",
        if from.is_some() { "from" } else { "hand" },
        args.depth,
        args.exact,
        args.random
    );
    let mut progress = Progress::new("self-play", chunks as u64);
    let limits = Limits::depth(args.depth, args.exact);
    let chunk_data = run_parallel(
        chunks,
        args.threads,
        &mut progress,
        1,
        || {
            // No ProbCut: the data then do not depend on the shipped ProbCut table. No
            // aspiration window either: the weights were made without one.
            from.clone().map(|w| {
                let mut engine = Engine::with_evaluator(limits, Evaluator::with_patterns(w));
                engine.searcher_mut().set_probcut(None);
                engine.searcher_mut().set_aspiration(None);
                engine
            })
        },
        |engine, chunk| -> CliResult<Vec<ai::pattern::Sample>> {
            let games = CHUNK.min(args.games - chunk * CHUNK);
            let file = args
                .data
                .as_ref()
                .map(|dir| dir.join(format!("{tag}-c{chunk}-g{games}.bin")));
            if let Some(file) = file.as_deref().filter(|f| f.exists()) {
                return read_chunk(file);
            }
            let mut rng = ChaCha8Rng::seed_from_u64(
                seed ^ (chunk as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            let samples = match engine {
                Some(engine) => ai::pattern::self_play_engine(&mut rng, games, engine, 8..=16),
                None => {
                    ai::pattern::self_play(&mut rng, games, args.depth, args.exact, args.random)
                }
            };
            if let Some(file) = &file {
                let mut bytes = Vec::with_capacity(samples.len() * ai::pattern::Sample::BYTES);
                for s in &samples {
                    s.write(&mut bytes);
                }
                save_file(file, &bytes)?;
            }
            Ok(samples)
        },
    );
    progress.finish();
    let mut samples = Vec::new();
    for chunk in chunk_data {
        samples.extend(chunk?);
    }
    eprintln!(
        "{} games, {} positions in {:.1} s",
        args.games,
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    // Weights learnt from the bots' games refine the bots' own weights.
    let mut trainer = match &from {
        Some(w) => ai::pattern::Trainer::from_weights(w),
        None => ai::pattern::Trainer::new(),
    };
    let mut order_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7EA1_7EA1);
    for (epoch, error) in trainer
        .train(&samples, args.epochs, args.rate, &mut order_rng)
        .iter()
        .enumerate()
    {
        eprintln!("epoch {}: rms error {:.2} discs", epoch + 1, error.sqrt());
    }
    let bytes = trainer.finish().to_bytes();
    crate::common::save_file(&args.out, &bytes)?;
    println!(
        "wrote {} ({} bytes) in {:.1} s",
        args.out.display(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Reads a chunk of samples kept by an earlier run.
fn read_chunk(file: &Path) -> CliResult<Vec<ai::pattern::Sample>> {
    ai::pattern::Sample::read_all(&load_file(file)?).ok_or_else(|| {
        CliError::new(format!(
            "{} is not a file of self-play positions; delete it to play its games again",
            file.display()
        ))
    })
}

/// Arguments of `tabletop reversi probcut`.
#[derive(Args, Debug)]
pub struct ProbcutArgs {
    /// Positions to measure, spread evenly over 18 to 57 empty squares.
    #[arg(long, value_name = "N", default_value_t = 1200, value_parser = at_least_one())]
    positions: usize,
    /// Deepest search measured (deeper searches use its row of the table).
    #[arg(
        long,
        value_name = "PLIES",
        default_value_t = ai::probcut::MAX_DEPTH,
        value_parser = clap::value_parser!(u32)
            .range(i64::from(ai::probcut::MIN_DEPTH)..=i64::from(ai::probcut::MAX_DEPTH))
    )]
    depth: u32,
    /// Threads (the result does not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = at_least_one())]
    threads: usize,
    /// Where to write the table.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Search with these pattern weights instead of the shipped ones.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
}

/// Runs `tabletop reversi probcut`: measure, fit, write the table.
pub fn probcut(args: ProbcutArgs) -> CliResult {
    check_output(&args.out)?;
    let eval = match &args.weights {
        Some(path) => Evaluator::with_patterns(
            ai::pattern::PatternWeights::from_bytes(&load_file(path)?)
                .map_err(|e| CliError::new(format!("{}: {e}", path.display())))?,
        ),
        None => Evaluator::trained(),
    };
    let seed = args.seed.seed();
    let start = Instant::now();
    let mut progress = Progress::new("probcut", args.positions as u64);
    let pairs: Vec<ai::probcut::Pair> = run_parallel(
        args.positions,
        args.threads,
        &mut progress,
        1,
        || {
            (
                {
                    // A 2-ply bot, never cut by ProbCut: the positions do not depend on
                    // the shipped table.
                    let mut bot = Engine::with_level_evaluator(
                        ai::Level::new(5).unwrap_or(ai::Level::MIN),
                        eval.clone(),
                    );
                    bot.searcher_mut().set_probcut(None);
                    bot
                },
                ai::Searcher::with_evaluator(eval.clone()),
            )
        },
        |(bot, searcher), i| {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let empties = 18 + (i % 40) as u32;
            for _ in 0..20 {
                if let Some(pos) = ai::probcut::random_position(&mut rng, bot, empties) {
                    return ai::probcut::measure(
                        searcher,
                        pos.player(),
                        pos.opponent(),
                        args.depth,
                    );
                }
            }
            Vec::new()
        },
    )
    .into_iter()
    .flatten()
    .collect();
    progress.finish();
    let table = ai::probcut::fit(&pairs);
    for (bucket, row) in table.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .map(|c| format!("{:.2}/{:+}/{}", f64::from(c.a) / 1024.0, c.b, c.sigma))
            .collect();
        eprintln!(
            "empties {:2}-{:2}: {}",
            bucket as u32 * ai::probcut::BUCKET,
            bucket as u32 * ai::probcut::BUCKET + ai::probcut::BUCKET - 1,
            cells.join(" ")
        );
    }
    let bytes = ai::probcut::to_bytes(&table);
    save_file(&args.out, &bytes)?;
    println!(
        "wrote {} ({} pairs, {} bytes) in {:.1} s",
        args.out.display(),
        pairs.len(),
        bytes.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
