//! Long Nardy bot benchmarks: one evaluation per evaluator, one decision per level in a
//! middle-game position, and a bear-off database lookup.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::nardy::ai::{Evaluator, HandEval, Level, Resources};
use tabletop::nardy::{Color, Dice, Position, Rules};

const MIDDLE: &str = "24:3,20:2,19:2,18:2,17:2,16:1,13:2,9:1/12:4,11:2,10:2,8:2,23:2,22:2,6:1 w";
const BEAR_OFF: &str = "6:3,5:3,4:2,3:3,2:2,1:1/18:2,17:3,16:3,15:2,14:2,13:1 w";

fn evaluations(c: &mut Criterion) {
    let resources = Resources::new();
    let p: Position = MIDDLE.parse().expect("valid position");
    let learned = resources.learned();
    let mut group = c.benchmark_group("nardy-ai/evaluate");
    group.bench_function("hand", |b| b.iter(|| HandEval.evaluate(black_box(&p))));
    group.bench_function("network", |b| {
        b.iter(|| resources.network.evaluate(black_box(&p)))
    });
    group.bench_function("network+bearoff", |b| {
        b.iter(|| learned.evaluate(black_box(&p)))
    });
    group.finish();
    let race: Position = BEAR_OFF.parse().expect("valid position");
    c.bench_function("nardy-ai/bearoff-race-probabilities", |b| {
        b.iter(|| resources.db.race_probabilities(black_box(&race)))
    });
    c.bench_function("nardy-ai/bearoff-expected-rolls", |b| {
        b.iter(|| resources.db.expected_rolls(black_box(&race), Color::White))
    });
}

fn decisions(c: &mut Criterion) {
    let rules = Rules::default();
    let resources = Resources::new();
    let p: Position = MIDDLE.parse().expect("valid position");
    let dice = Dice::new(5, 3).expect("valid dice");
    let mut group = c.benchmark_group("nardy-ai/decision");
    group.sample_size(10);
    for level in Level::ALL {
        let mut bot = level.bot_with(&rules, &resources);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        group.bench_function(level.name(), |b| {
            b.iter(|| bot.choose_move(black_box(&p), dice, &mut rng))
        });
    }
    group.finish();
}

criterion_group!(benches, evaluations, decisions);
criterion_main!(benches);
