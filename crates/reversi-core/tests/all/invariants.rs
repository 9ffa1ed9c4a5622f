//! Property tests: move generation, flips, symmetries and notations on positions reached
//! by random play.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reversi_core::{
    Color, Game, Move, PlayError, Position, Record, Rules, Square, Symmetry, bitboard,
};

/// A game of up to `plies` random legal moves from the start of `rules`.
fn random_game(seed: u64, plies: usize, first: Color) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(Rules::with_first(first));
    for _ in 0..plies {
        let list = game.position().legal_moves();
        if list.is_empty() {
            break;
        }
        let mv = list[rng.random_range(0..list.len())];
        game.play(mv).unwrap();
    }
    game
}

fn any_color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_move_adds_one_disc_and_flips_only_on_its_rays(seed: u64, plies in 0usize..70, first in any_color()) {
        let game = random_game(seed, plies, first);
        let pos = *game.position();
        let mover = pos.side_to_move();
        for sq in pos.legal_squares() {
            let mut next = pos;
            let flipped = next.play(Move::Place(sq)).unwrap();
            let n = flipped.len() as u32;
            prop_assert!(n >= 1);
            prop_assert_eq!(next.count(mover), pos.count(mover) + 1 + n);
            prop_assert_eq!(next.count(!mover), pos.count(!mover) - n);
            prop_assert_eq!(next.side_to_move(), !mover);
            // Only opponent discs on the 8 rays of the square flip.
            prop_assert_eq!(flipped.bits() & !bitboard::rays(sq.index()), 0);
            prop_assert_eq!(flipped.bits() & !pos.opponent(), 0);
            prop_assert_eq!(next.piece_at(sq), Some(mover));
            // Nothing else changed.
            let unchanged = !(flipped.bits() | sq.bit());
            prop_assert_eq!(next.discs(mover) & unchanged, pos.discs(mover) & unchanged);
            prop_assert_eq!(next.discs(!mover) & unchanged, pos.discs(!mover) & unchanged);
        }
    }

    #[test]
    fn legal_moves_are_exactly_the_squares_where_play_succeeds(seed: u64, plies in 0usize..70) {
        let pos = *random_game(seed, plies, Color::Black).position();
        let legal = pos.legal_squares();
        for sq in Square::ALL {
            let mut p = pos;
            let result = p.play(Move::Place(sq));
            prop_assert_eq!(result.is_ok(), legal.contains(sq), "{} {}", pos, sq);
            if let Err(e) = result {
                prop_assert_eq!(p, pos);
                if pos.piece_at(sq).is_some() {
                    prop_assert_eq!(e, PlayError::Occupied(sq));
                }
            }
        }
        // The move list agrees, with a pass exactly when one is forced.
        let list = pos.legal_moves();
        if legal.is_empty() {
            prop_assert_eq!(list.is_empty(), pos.is_over());
            prop_assert_eq!(pos.after(Move::Pass).is_ok(), !pos.is_over());
        } else {
            prop_assert_eq!(list.len(), legal.len());
            prop_assert!(list.iter().all(|m| !m.is_pass()));
            prop_assert!(pos.after(Move::Pass).is_err());
        }
    }

    #[test]
    fn symmetries_commute_with_move_generation(seed: u64, plies in 0usize..70) {
        let pos = *random_game(seed, plies, Color::Black).position();
        for s in Symmetry::ALL {
            let image = pos.transformed(s);
            prop_assert_eq!(image.legal_squares().bits(), s.apply(pos.legal_squares().bits()));
            for sq in pos.legal_squares() {
                let mut a = pos;
                a.play(Move::Place(sq)).unwrap();
                let mut b = image;
                b.play(Move::Place(s.apply_square(sq))).unwrap();
                prop_assert_eq!(a.transformed(s), b);
            }
            prop_assert_eq!(image.transformed(s.inverse()), pos);
            prop_assert_eq!(image.canonical().0, pos.canonical().0);
            prop_assert_eq!(image.count(Color::Black), pos.count(Color::Black));
            prop_assert_eq!(image.count(Color::White), pos.count(Color::White));
        }
    }

    #[test]
    fn notations_and_saves_round_trip(seed: u64, plies in 0usize..70, first in any_color(), undos in 0usize..5) {
        let mut game = random_game(seed, plies, first);
        let pos = *game.position();
        let obf = pos.to_string();
        prop_assert_eq!(obf.parse::<Position>().unwrap(), pos);
        for mv in game.moves() {
            prop_assert_eq!(mv.to_string().parse::<Move>().unwrap(), *mv);
        }
        // The printed record omits passes; replaying it infers them.
        let text = game.record().to_string();
        let record: Record = text.parse().unwrap();
        let mut replayed = Game::from_record(game.rules(), &record).unwrap();
        // A pass at the very end is not in the text: nothing follows to infer it from.
        if game.moves().last() == Some(&Move::Pass) {
            replayed.play(Move::Pass).unwrap();
        }
        prop_assert_eq!(replayed.moves(), game.moves());
        prop_assert_eq!(replayed.position(), game.position());
        for _ in 0..undos {
            game.undo();
        }
        let loaded = Game::from_bytes(&game.to_bytes()).unwrap();
        prop_assert_eq!(&loaded, &game);
        let mut a = game.clone();
        let mut b = loaded;
        while let (Some(x), Some(y)) = (a.redo(), b.redo()) {
            prop_assert_eq!(x, y);
        }
        prop_assert_eq!(a, b);
    }

    #[test]
    fn undo_and_redo_retrace_the_same_positions(seed: u64, plies in 0usize..70, ops in proptest::collection::vec(0u8..3, 0..40)) {
        let mut game = random_game(seed, plies, Color::Black);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 1);
        for op in ops {
            let before = game.clone();
            match op {
                0 => {
                    if let Some(mv) = game.undo() {
                        // Replaying the undone move restores the game (but clears redo).
                        let mut again = game.clone();
                        again.play(mv).unwrap();
                        prop_assert_eq!(again.position(), before.position());
                        prop_assert_eq!(again.moves(), before.moves());
                    } else {
                        prop_assert_eq!(&game, &before);
                    }
                }
                1 => {
                    if game.redo().is_none() {
                        prop_assert_eq!(&game, &before);
                    }
                }
                _ => {
                    let list = game.position().legal_moves();
                    if !list.is_empty() {
                        game.play(list[rng.random_range(0..list.len())]).unwrap();
                        prop_assert!(!game.can_redo());
                    }
                }
            }
            // The history is always consistent: replaying the moves gives the positions.
            prop_assert_eq!(game.positions().len(), game.moves().len() + 1);
            let mut pos = *game.start();
            for (mv, next) in game.moves().iter().zip(&game.positions()[1..]) {
                pos.play(*mv).unwrap();
                prop_assert_eq!(&pos, next);
            }
        }
    }
}
