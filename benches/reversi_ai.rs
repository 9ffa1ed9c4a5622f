//! Reversi AI benchmarks (criterion): exact endgame solves of FFO positions with 15 to 20
//! empty squares, and the midgame search node rate.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop::reversi::ai::{Limits, Searcher, Solver};
use tabletop::reversi::{Game, Position, Record, Rules};

/// FFO #21 (15 empties), #22 (17), #24 (19) and #27 (20), with their exact scores.
const ENDGAMES: [(&str, &str, i32); 4] = [
    (
        "ffo21-15e",
        "OOOOOOOOXOOXXX--XXOOXOO-XOXOOO--XOOOOX--XOOXOO--XOOOOO--XXXX---- O",
        0,
    ),
    (
        "ffo22-17e",
        "--OOOO--X-OOOOO-XXOOXOXXXOXOXXXXXXXOXXXX-XXOXOXX--OXXX-X----X--- O",
        2,
    ),
    (
        "ffo24-19e",
        "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O",
        0,
    ),
    (
        "ffo27-20e",
        "--XO-O----OOOO--OOXOXXO-OOOOXXOOOOOXXOX-OXOXXXXX--XXXX----X-O-X- X",
        -2,
    ),
];

fn endgame(c: &mut Criterion) {
    let mut group = c.benchmark_group("reversi_ai/solve");
    group.sample_size(10);
    for (name, board, score) in ENDGAMES {
        let pos: Position = board.parse().unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                // A fresh table each time: the solve starts cold, like the CLI.
                let mut solver = Solver::with_table_bits(20);
                let s = solver.solve(black_box(pos.player()), black_box(pos.opponent()));
                assert_eq!(s.score, score);
                s.nodes
            })
        });
    }
    group.finish();
}

fn midgame(c: &mut Criterion) {
    // After f5 (59 empties) and after a 20-move opening (40 empties).
    let opening: Position = "---------------------------OX------XXX-------------------------- O"
        .parse()
        .unwrap();
    let record: Record = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3c5".parse().unwrap();
    let pos = *Game::from_record(Rules::default(), &record)
        .unwrap()
        .position();
    let mut group = c.benchmark_group("reversi_ai/search");
    group.sample_size(10);
    for (name, pos, depth) in [("opening-d8", opening, 8), ("midgame-d7", pos, 7)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut searcher = Searcher::new();
                let limits = Limits::depth(depth, 0);
                let r = searcher.search(
                    black_box(pos.player()),
                    black_box(pos.opponent()),
                    &limits,
                    &mut || false,
                );
                r.nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, endgame, midgame);
criterion_main!(benches);
