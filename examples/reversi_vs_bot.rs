//! Play Reversi against the computer in the terminal: you are Black, the bot is White.
//!
//! ```sh
//! cargo run --release --example reversi_vs_bot -- [LEVEL 1-10] [SEED]
//! ```
//!
//! Type a move like `f5`, `hint` for the scored moves, or `quit`. With input that is not
//! a terminal the game is scripted, e.g. `printf 'f5\nd3\n' | cargo run --example
//! reversi_vs_bot -- 3 7`; when the input ends, the bot plays both sides to the end.

use std::io::{self, BufRead, Write};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabletop::reversi::ai::{Bot, Engine, Level, Limits, Searcher, hints};
use tabletop::reversi::{Color, Move, Position, Square};

fn draw(pos: &Position) {
    let moves = pos.legal_squares().0;
    println!("  a b c d e f g h");
    for rank in 0..8u8 {
        let mut line = format!("{}", rank + 1);
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let c = match pos.piece_at(sq) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if moves & sq.bit() != 0 => '*',
                None => '.',
            };
            line.push(' ');
            line.push(c);
        }
        println!("{line}");
    }
    println!(
        "Black {} - White {}, {} to move",
        pos.count(Color::Black),
        pos.count(Color::White),
        pos.side_to_move()
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let level = args
        .next()
        .and_then(|s| s.parse::<Level>().ok())
        .unwrap_or(Level::new(6).expect("a valid level"));
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bot = Engine::new(level);
    let mut helper = Engine::new(level);
    let mut pos = Position::start();
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    println!("You are Black (X) against the level-{level} bot (O).");
    draw(&pos);
    while !pos.is_over() {
        let mv = if pos.side_to_move() == Color::White {
            bot.choose_move(&pos, &mut rng)
                .expect("the game is not over")
        } else if pos.legal_squares().0 == 0 {
            Move::Pass
        } else {
            print!("your move> ");
            io::stdout().flush().ok();
            match lines.next() {
                Some(Ok(line)) => {
                    let line = line.trim().to_ascii_lowercase();
                    if line == "quit" {
                        return;
                    }
                    if line == "hint" {
                        let mut searcher = Searcher::new();
                        for m in hints(&mut searcher, &pos, &Limits::depth(5, 12)) {
                            println!("  {m}");
                        }
                        continue;
                    }
                    match line.parse::<Square>() {
                        Ok(sq) if pos.is_legal(Move::Place(sq)) => Move::Place(sq),
                        _ => {
                            println!("'{line}' is not a legal move here.");
                            continue;
                        }
                    }
                }
                // No more input: let a bot finish the game for you.
                _ => helper
                    .choose_move(&pos, &mut rng)
                    .expect("the game is not over"),
            }
        };
        println!("{} plays {mv}", pos.side_to_move());
        pos.play(mv).expect("only legal moves are played");
        draw(&pos);
    }
    let (black, white) = (pos.count(Color::Black), pos.count(Color::White));
    let verdict = match black.cmp(&white) {
        std::cmp::Ordering::Greater => "you win",
        std::cmp::Ordering::Less => "the bot wins",
        std::cmp::Ordering::Equal => "a draw",
    };
    println!("Game over: {black}-{white}, {verdict}.");
}
