//! How far the shooters are from perfect play, on grids small enough to solve exactly.
//!
//! For a small Russian-style rule set (no touching; cells around a sunk ship revealed) it
//! prints the exact optimal expected number of shots, the exact value of the greedy
//! shooter (always the likeliest cell), and the mean of each shooter level over uniformly
//! random fleets.
//!
//! ```text
//! cargo run --release --example battleship_exact -- [WIDTH] [HEIGHT] [FLEET] [GAMES] [SEED]
//! cargo run --release --example battleship_exact -- 5 5 3,2,1,1 20000
//! ```
//!
//! 4×4 with ships 2, 1, 1 (the default) solves in a moment; 5×5 grids take minutes and
//! about 1.5 GB. Fewer than 2 games skip the shooters.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::battleship::ai::{ExactSearch, Level, shots_to_sink};
use tabletop::battleship::{Rules, UniformFleets};

fn main() {
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let width: u8 = arg(0, "4").parse()?;
    let height: u8 = arg(1, "4").parse()?;
    let fleet: Vec<u8> = arg(2, "2,1,1")
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let games: u32 = arg(3, "20000").parse()?;
    let seed: u64 = arg(4, "1").parse()?;
    let rules = Rules::custom(width, height, &fleet)?;

    let mut search = ExactSearch::new(&rules, 1_000_000)?;
    println!(
        "{width}×{height}, ships {fleet:?}: {} fleets",
        search.fleets()
    );
    if search.fleets() == 0 {
        println!("no fleet fits: nothing to shoot");
        return Ok(());
    }
    let start = std::time::Instant::now();
    let greedy = search.greedy_shots(200_000_000)?;
    let optimal = search.optimal_shots(200_000_000)?;
    println!(
        "optimal {optimal:.4}  greedy {greedy:.4}  (greedy +{:.2}%; solved in {:.1} s)",
        100.0 * (greedy - optimal) / optimal,
        start.elapsed().as_secs_f64()
    );

    if games < 2 {
        return Ok(());
    }
    let sampler = UniformFleets::new(&rules);
    for level in Level::ALL {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut sum, mut squares) = (0.0f64, 0.0f64);
        for _ in 0..games {
            let fleet = sampler.sample(&mut rng);
            let mut bot = level.shooter(&rules);
            let shots = f64::from(shots_to_sink(&mut bot, &rules, &fleet, &mut rng));
            sum += shots;
            squares += shots * shots;
        }
        let n = f64::from(games);
        let mean = sum / n;
        let error = ((squares / n - mean * mean) / (n - 1.0)).max(0.0).sqrt();
        println!(
            "{:>9}: mean {mean:.4} ± {error:.4} over {games} games (+{:.2}% over optimal)",
            level.name(),
            100.0 * (mean - optimal) / optimal
        );
    }
    Ok(())
}
