//! Reversi benchmarks (criterion): square parsing, move generation, `play`, and perft(8)
//! from the start position.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop::reversi::{Move, Position, Square, bitboard, perft};

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

/// Midgame and endgame positions from the FFO suite (#1, #20, #40, #60).
const SAMPLES: [&str; 4] = [
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X",
    "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X",
    "---OOOO----OOO----XOXOXX--XOOXXX--XOOXXX--XOOOXX--OXXX-X--XXXX-- X",
];

fn positions() -> Vec<Position> {
    SAMPLES.iter().map(|s| s.parse().unwrap()).collect()
}

fn move_generation(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("reversi/legal_moves x4", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(bitboard::legal_moves(
                    black_box(p.player()),
                    black_box(p.opponent()),
                ));
            }
        })
    });
}

fn play(c: &mut Criterion) {
    let positions = positions();
    let total: usize = positions.iter().map(|p| p.legal_squares().len()).sum();
    c.bench_function(
        &format!("reversi/play every legal move ({total} moves)"),
        |b| {
            b.iter(|| {
                for p in &positions {
                    for sq in p.legal_squares() {
                        let mut next = *black_box(p);
                        black_box(next.play(Move::Place(sq)).ok());
                    }
                }
            })
        },
    );
}

fn perft_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("reversi/perft");
    group.sample_size(10);
    let start = Position::start();
    group.bench_function("perft 8 from the start (390216 leaves)", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 8), 390_216))
    });
    group.finish();
}

criterion_group!(benches, square_parsing, move_generation, play, perft_start);
criterion_main!(benches);
