//! A fixed set of Long Nardy middle-game decisions, and what the strong (1-ply) and
//! expert (2-ply) levels choose in each, with the time each decision takes.
//!
//! ```text
//! cargo run --release --example nardy_decisions -- [FROM] [TO] [LEVELS]
//! cargo run --release --example nardy_decisions -- 0 200 56   # both levels, all 200
//! cargo run --release --example nardy_decisions -- 17 18 6    # one expert decision
//! ```
//!
//! The decisions come from seeded self-play of the learned level (0 plies): from each
//! game, every third turn from the 6th while the game is not yet a race and the turn
//! has a choice. Each output line is: index, position, dice, then per level its chosen
//! turn, the bits of its best equity and its time in seconds: the CPU time of the thread
//! (from `/proc/thread-self/schedstat`, so other programs on a loaded machine count
//! less), or the wall time where that file is missing. Comparing the lines minus the
//! times tells whether a change of the search altered any choice.

use std::process::ExitCode;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::nardy::ai::{Level, Resources, SearchBot, SearchConfig, is_race};
use tabletop::nardy::{Dice, Game, Position, Rules};

/// Decisions in the set.
const DECISIONS: usize = 200;

/// Seconds of CPU this thread has run (Linux), else of wall time since `wall`.
fn clock(wall: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| wall.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}

/// The fixed decision set: seeded self-play of the learned level.
fn decisions(rules: &Rules, resources: &Resources) -> Vec<(Position, Dice)> {
    let mut bot = Level::new(4).expect("level 4").bot_with(rules, resources);
    let mut out = Vec::new();
    let mut seed = 1000;
    while out.len() < DECISIONS {
        let mut game = Game::new(*rules, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        seed += 1;
        let mut turn = 0;
        while game.outcome().is_none() && out.len() < DECISIONS {
            let (p, dice) = (*game.position(), game.dice());
            if is_race(&p) {
                break;
            }
            if turn >= 6 && turn % 3 == 0 && p.legal_moves(dice, rules).len() > 1 {
                out.push((p, dice));
            }
            let Some(mv) = bot.choose_move(&p, dice, &mut rng) else {
                break;
            };
            if game.play(&mv).is_err() {
                break;
            }
            turn += 1;
        }
    }
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: usize| -> Result<usize, String> {
        args.get(i).map_or(Ok(default), |t| {
            t.parse().map_err(|_| format!("not a number: {t}"))
        })
    };
    let (from, to) = match (num(0, 0), num(1, DECISIONS)) {
        (Ok(a), Ok(b)) if a <= b => (a, b.min(DECISIONS)),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
        _ => {
            eprintln!("error: FROM is after TO");
            return ExitCode::from(2);
        }
    };
    let levels = args.get(2).map_or("56", String::as_str);
    let rules = Rules::default();
    let resources = Resources::new();
    let set = decisions(&rules, &resources);
    let mut bots: Vec<(u8, SearchBot<_>)> = levels
        .bytes()
        .filter_map(|b| match b {
            b'5' => Some(1),
            b'6' => Some(2),
            _ => None,
        })
        .map(|plies| {
            let config = SearchConfig::plies(plies);
            (
                plies,
                SearchBot::new(resources.learned(), rules, config, 0.0),
            )
        })
        .collect();
    for (i, (p, dice)) in set.iter().enumerate().take(to).skip(from) {
        let mut line = format!("{i}\t{p}\t{dice}");
        for (plies, bot) in &mut bots {
            let wall = Instant::now();
            let start = clock(wall);
            let ranked = bot.search.rank(p, *dice);
            let secs = clock(wall) - start;
            let best = &ranked[0];
            line += &format!(
                "\t{}-ply {}\t{:08x}\t{secs:.4}",
                plies,
                best.mv,
                best.equity.to_bits()
            );
        }
        println!("{line}");
    }
    ExitCode::SUCCESS
}
