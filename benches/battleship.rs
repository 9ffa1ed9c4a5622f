//! Battleship benchmarks (criterion): uniform fleet sampling (the exact sampler that draws
//! the first ships from a weighted table and the others with step-by-step rejection, its
//! construction, and the exact counting sampler on a smaller grid), one
//! decision of each shooter level in the middle of a game, and a whole game of the
//! strongest shooter.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::battleship::ai::{Bot, Level, shots_to_sink};
use tabletop::battleship::{FleetSampler, Game, Rules, UniformFleets};

fn sampling(c: &mut Criterion) {
    let mut group = c.benchmark_group("battleship/sample");
    for (name, rules) in [("russian", Rules::russian()), ("classic", Rules::classic())] {
        let sampler = UniformFleets::new(&rules);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut ships = Vec::new();
        group.bench_function(format!("uniform fleet {name}"), |b| {
            b.iter(|| {
                sampler.sample_into(&mut rng, &mut ships);
                black_box(ships.len())
            })
        });
    }
    group.sample_size(10);
    let russian = Rules::russian();
    group.bench_function("uniform sampler build russian", |b| {
        b.iter(|| black_box(UniformFleets::new(&russian).is_empty()))
    });
    group.sample_size(100);
    let small = Rules::custom(7, 7, &[3, 2, 2, 1, 1]).unwrap();
    let exact = FleetSampler::new(&small, 5_000_000).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    group.bench_function("exact counting sampler 7x7", |b| {
        b.iter(|| black_box(exact.sample(&mut rng)))
    });
    group.finish();
}

/// A game after 25 shots of the first player, with the second player to shoot.
fn midgame() -> Game {
    let rules = Rules::russian();
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let mut game = Game::new(
        rules.clone(),
        sampler.sample(&mut rng),
        sampler.sample(&mut rng),
    )
    .unwrap();
    let mut bot = Level::new(3).unwrap().shooter(&rules);
    while game.history().len() < 25 {
        let p = game.side_to_move();
        let cell = bot.choose_move(game.view(p).tracking(), &mut rng).unwrap();
        game.play(cell).unwrap();
    }
    game
}

fn decisions(c: &mut Criterion) {
    let game = midgame();
    let rules = game.rules().clone();
    let p = game.side_to_move();
    let tracking = game.view(p).tracking().clone();
    let mut group = c.benchmark_group("battleship/decision");
    for level in Level::ALL {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        group.bench_function(level.name(), |b| {
            b.iter(|| {
                // a fresh shooter each time: the posterior level pays for building its
                // population from scratch (in a game it keeps it between shots)
                let mut bot = level.shooter(&rules);
                black_box(bot.choose_move(&tracking, &mut rng))
            })
        });
    }
    group.finish();
}

fn whole_game(c: &mut Criterion) {
    let rules = Rules::russian();
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut group = c.benchmark_group("battleship/game");
    group.sample_size(20);
    group.bench_function("best shooter sinks a uniform fleet", |b| {
        b.iter(|| {
            let fleet = sampler.sample(&mut rng);
            let mut bot = Level::MAX.shooter(&rules);
            black_box(shots_to_sink(&mut bot, &rules, &fleet, &mut rng))
        })
    });
    group.finish();
}

criterion_group!(benches, sampling, decisions, whole_game);
criterion_main!(benches);
