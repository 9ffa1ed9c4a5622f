//! `tabletop reversi train`: rebuild the evaluation's pattern weights from self-play.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reversi_core::ai;

use crate::common::{CliError, CliResult, Progress, SeedArg};

/// Arguments of `tabletop reversi train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Number of self-play games to learn from.
    #[arg(long, value_name = "N", default_value_t = 60_000)]
    games: usize,
    /// Midgame depth of the self-play bots.
    #[arg(long, value_name = "PLIES", default_value_t = 2)]
    depth: u32,
    /// The self-play bots solve exactly from this many empty squares.
    #[arg(long, value_name = "EMPTIES", default_value_t = 10)]
    exact: u32,
    /// Percentage of random moves in the self-play games.
    #[arg(long, value_name = "PERCENT", default_value_t = 5)]
    random: u32,
    /// Passes of gradient descent over the positions.
    #[arg(long, value_name = "N", default_value_t = 8)]
    epochs: usize,
    /// Initial learning rate.
    #[arg(long, value_name = "RATE", default_value_t = 0.003)]
    rate: f32,
    /// Where to write the weights file.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    seed: SeedArg,
}

/// Runs `tabletop reversi train`: self-play games, least-squares fit, weights file.
pub fn train(args: TrainArgs) -> CliResult {
    if args.games == 0 || args.epochs == 0 || args.random > 100 {
        return Err(CliError::usage(
            "--games and --epochs must be at least 1 and --random at most 100",
        ));
    }
    if !(args.rate.is_finite() && args.rate > 0.0) {
        return Err(CliError::usage("--rate must be a positive number"));
    }
    let seed = args.seed.seed();
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples = Vec::new();
    let chunk = 1000;
    let mut progress = Progress::new("self-play", args.games as u64);
    let mut left = args.games;
    while left > 0 {
        let n = left.min(chunk);
        samples.extend(ai::pattern::self_play(
            &mut rng,
            n,
            args.depth,
            args.exact,
            args.random,
        ));
        left -= n;
        progress.advance(n as u64);
    }
    progress.finish();
    eprintln!(
        "{} games, {} positions in {:.1} s",
        args.games,
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    let mut trainer = ai::pattern::Trainer::new();
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
