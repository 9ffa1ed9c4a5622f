//! Plays a whole game of Long Nardy between two random players and prints every turn.
//!
//! `cargo run --example nardy_random_game -- [SEED]`

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::nardy::ai::{Bot, RandomBot};
use tabletop::nardy::{Game, Outcome, Rules};

fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2024);
    let rules = Rules::default();
    let mut game = Game::new(rules, seed);
    let mut bot = RandomBot::new(rules);
    let mut bot_rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(1));
    if let Some(r) = game.roll_off() {
        let (w, b) = r.decisive();
        println!("roll-off: White {w}, Black {b}; {} starts", r.winner());
    }
    while game.outcome().is_none() {
        let color = game.side_to_move();
        let dice = game.dice();
        let turn = bot
            .choose_move(game.position(), dice, &mut bot_rng)
            .expect("the game is on");
        game.play(&turn).expect("the bot plays a legal turn");
        println!(
            "{:>3}. {color} {dice}: {turn:<24} {}",
            game.history().len(),
            game.position()
        );
    }
    match game.outcome() {
        Some(Outcome::Win { winner, kind }) => {
            println!("{winner} wins ({kind:?}, {} points)", kind.points())
        }
        Some(Outcome::Draw) => println!("draw"),
        None => unreachable!("the loop ends with the game"),
    }
    println!("save size: {} bytes", game.to_bytes().len());
}
