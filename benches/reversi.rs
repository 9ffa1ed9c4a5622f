//! Reversi benchmarks (criterion). The reversi issues add move generation, `play`,
//! perft and solver benches here.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop::reversi::Square;

fn square_parsing(c: &mut Criterion) {
    let names: Vec<String> = Square::ALL.iter().map(|sq| sq.to_string()).collect();
    c.bench_function("reversi/parse 64 squares", |b| {
        b.iter(|| {
            for name in &names {
                black_box(black_box(name.as_str()).parse::<Square>().ok());
            }
        })
    });
}

criterion_group!(benches, square_parsing);
criterion_main!(benches);
