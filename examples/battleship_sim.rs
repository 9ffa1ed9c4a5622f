//! Plays every shooter level against uniformly random Russian fleets and prints the
//! average number of shots each needs to sink a whole fleet.
//!
//! ```text
//! cargo run --release --example battleship_sim -- [GAMES] [SEED]
//! ```

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::battleship::ai::{Level, PlacementStrategy, shots_to_sink};
use tabletop::battleship::{Rules, UniformFleets};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = Rules::russian();
    let sampler = UniformFleets::new(&rules);
    println!("{games} games per shooter, Russian rules, seed {seed}");
    for placement in [PlacementStrategy::Uniform, PlacementStrategy::Border] {
        for level in Level::ALL {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let start = std::time::Instant::now();
            let mut total = 0u64;
            for _ in 0..games {
                let fleet = placement.place(&rules, &sampler, &mut rng);
                let mut bot = level.shooter(&rules);
                total += u64::from(shots_to_sink(&mut bot, &rules, &fleet, &mut rng));
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{:>9} vs {:<7} mean {:6.2} shots  ({:.0} games/s)",
                level.name(),
                placement.name(),
                total as f64 / f64::from(games.max(1)),
                f64::from(games) / secs.max(1e-9)
            );
        }
    }
}
