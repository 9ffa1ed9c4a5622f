//! Long Nardy benchmarks: turn generation for all 21 rolls on opening, middle-game (blocks
//! nearby) and bear-off positions, and perft(3) from the start.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop::nardy::{Dice, Generator, Opening, Position, Rules, perft};

const POSITIONS: [(&str, &str); 4] = [
    ("opening", "24:13,21:1,18:1/12:14,8:1 w"),
    (
        "middle-blocks",
        "24:3,20:2,19:2,18:2,17:2,16:1,13:2,9:1/12:4,11:2,10:2,8:2,23:2,22:2,6:1 w",
    ),
    (
        "middle-spread",
        "24:1,23:2,21:2,19:1,15:2,14:2,10:2,7:2,4:1/12:2,9:2,6:2,3:2,1:2,22:1,18:2,16:2 b",
    ),
    (
        "bear-off",
        "6:3,5:3,4:2,3:3,2:2,1:1/18:2,17:3,16:3,15:2,14:2,13:1 w",
    ),
];

fn generation(c: &mut Criterion) {
    let rules = Rules::default();
    let mut group = c.benchmark_group("nardy/turns-21-rolls");
    for (name, text) in POSITIONS {
        let p: Position = text.parse().expect("valid benchmark position");
        let mut g = Generator::new();
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut n = 0;
                for dice in Dice::ALL {
                    n += g.count_moves(black_box(&p), dice, &rules);
                }
                n
            })
        });
    }
    group.finish();
}

fn perft3(c: &mut Criterion) {
    let reroll = Rules {
        opening: Opening::Reroll,
        ..Rules::default()
    };
    let mut group = c.benchmark_group("nardy/perft");
    group.sample_size(20);
    group.bench_function("perft3-reroll", |b| {
        b.iter(|| perft(black_box(&Position::start()), 3, &reroll))
    });
    group.finish();
}

criterion_group!(benches, generation, perft3);
criterion_main!(benches);
