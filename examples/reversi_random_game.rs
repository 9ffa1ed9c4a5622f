//! A seeded random game of Reversi, printed move by move.
//!
//! ```sh
//! cargo run --example reversi_random_game -- 42
//! ```
//!
//! The optional argument is the seed (default 1): the same seed gives the same game.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabletop::reversi::{Game, Move, Rules};

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1u64);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(Rules::default());
    println!("seed {seed}");
    println!("start  {}", game.position());
    let mut number = 0;
    while !game.is_over() {
        let moves = game.position().legal_moves();
        let mv: Move = moves[rng.random_range(0..moves.len())];
        let side = game.side_to_move();
        let flipped = game.play(mv).expect("a move from the legal list");
        number += 1;
        println!(
            "{number:>2}. {side:<5} {mv:<4} flips {:>2}  {}",
            flipped.len(),
            game.position()
        );
    }
    println!("record {}", game.record());
    if let Some(result) = game.outcome() {
        println!("result {result}");
    }
}
