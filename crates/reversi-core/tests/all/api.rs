//! The shape every Tabletop engine shares (docs/architecture.md), exercised on Reversi:
//! legal moves, `play` leaving the value unchanged on error, undo/redo, a bot of every
//! level playing a whole game, saves and the committed fixture of an older release.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reversi_core::ai::pattern::{PatternWeights, WeightsError};
use reversi_core::ai::{Bot, Evaluator, Level};
use reversi_core::{Color, Game, LoadError, Move, PlayError, Position, Record, Rules, Square};

/// The trained evaluation from the weights file read at run time, as the browser app
/// gives it to the bots (the tests run with and without the `shipped-weights` feature).
fn trained() -> Evaluator {
    let bytes = include_bytes!("../../src/ai/patterns.bin");
    Evaluator::with_patterns(PatternWeights::from_bytes(bytes).expect("the shipped file"))
}

fn sq(name: &str) -> Move {
    Move::Place(name.parse::<Square>().unwrap())
}

#[test]
fn legal_moves_of_the_start() {
    let game = Game::default();
    let moves = game.legal_moves();
    assert_eq!(moves.as_slice(), &[sq("d3"), sq("c4"), sq("f5"), sq("e6")]);
    assert_eq!(game.position().legal_moves(), moves);
    assert_eq!(game.position().legal_squares().len(), 4);
    assert_eq!(game.side_to_move(), Color::Black);
    assert_eq!(game.side_to_move().other(), Color::White);
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_refused_move_changes_nothing() {
    let mut game = Game::default();
    game.play(sq("f5")).unwrap();
    for (mv, error) in [
        (sq("f5"), PlayError::Occupied("f5".parse().unwrap())),
        (sq("a1"), PlayError::NoFlips("a1".parse().unwrap())),
        (Move::Pass, PlayError::PassNotAllowed),
    ] {
        let before = game.clone();
        assert_eq!(game.play(mv), Err(error));
        assert_eq!(game, before);
        let mut pos = *game.position();
        assert_eq!(pos.play(mv), Err(error));
        assert_eq!(pos, *before.position());
    }
}

#[test]
fn undo_restores_and_redo_replays() {
    let mut game = Game::default();
    let start = game.clone();
    let flipped = game.play(sq("f5")).unwrap();
    assert_eq!(flipped.len(), 1);
    let after = game.clone();
    assert_eq!(game.undo(), Some(sq("f5")));
    assert_eq!(game.position(), start.position());
    assert_eq!(game.moves(), start.moves());
    assert_eq!(game.undo(), None);
    assert_eq!(game.redo(), Some(sq("f5")));
    assert_eq!(game, after);
    assert_eq!(game.redo(), None);
}

#[test]
fn a_bot_of_every_level_plays_a_whole_game() {
    let rules = Rules::default();
    let eval = trained();
    assert_eq!(Level::ALL.first(), Some(&Level::MIN));
    assert_eq!(Level::ALL.last(), Some(&Level::MAX));
    for (i, level) in Level::ALL.into_iter().enumerate() {
        assert_eq!(usize::from(level.get()), i + 1);
        assert_eq!(level.name().parse::<Level>(), Ok(level));
        assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        assert_eq!(level.name().to_uppercase().parse::<Level>(), Ok(level));
        // Strong levels against the weakest, so the game stays short in debug builds.
        let mut bots: [Box<dyn Bot>; 2] = [
            level.bot_with(&rules, eval.clone()),
            Level::MIN.bot_with(&rules, eval.clone()),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(u64::from(level.get()));
        let mut game = Game::new(rules);
        // Start a few moves in, so strong levels reach their endgame solver sooner.
        for mv in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3"] {
            game.play(sq(mv)).unwrap();
        }
        while game.outcome().is_none() {
            let bot = &mut bots[game.side_to_move() as usize];
            let mv = bot
                .choose_move(game.position(), &mut rng)
                .expect("not over");
            assert!(game.legal_moves().contains(&mv), "level {level}: {mv}");
            game.play(mv).unwrap();
        }
        assert!(bots[0].choose_move(game.position(), &mut rng).is_none());
        bots[0].new_game();
        let outcome = game.outcome().unwrap();
        assert_eq!(
            u32::from(outcome.black) + u32::from(outcome.white) + u32::from(outcome.empties()),
            64
        );
    }
    assert!("0".parse::<Level>().is_err());
    assert!("11".parse::<Level>().is_err());
    assert!("grandmaster".parse::<Level>().is_err());
}

#[test]
fn a_forced_pass_is_a_move() {
    // White has no move, Black has: White's only legal move is the pass.
    let pos: Position = format!("XO{} O", "-".repeat(62)).parse().unwrap();
    assert_eq!(pos.legal_moves().as_slice(), &[Move::Pass]);
    let mut bot = Level::new(5)
        .unwrap()
        .bot_with(&Rules::default(), trained());
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert_eq!(bot.choose_move(&pos, &mut rng), Some(Move::Pass));
}

#[test]
fn weights_given_at_run_time_play_as_the_shipped_ones_and_bad_files_are_refused() {
    let rules = Rules::default();
    let level = Level::new(7).unwrap();
    let mut given = level.bot_with(&rules, trained());
    let mut game = Game::new(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    #[cfg(feature = "shipped-weights")]
    let (mut shipped, mut shipped_rng) = (level.bot(&rules), ChaCha8Rng::seed_from_u64(5));
    for _ in 0..12 {
        let mv = given
            .choose_move(game.position(), &mut rng)
            .expect("not over");
        #[cfg(feature = "shipped-weights")]
        assert_eq!(
            shipped.choose_move(game.position(), &mut shipped_rng),
            Some(mv)
        );
        game.play(mv).unwrap();
    }
    let bytes = include_bytes!("../../src/ai/patterns.bin");
    assert_eq!(
        PatternWeights::from_bytes(&bytes[..1000]),
        Err(WeightsError::Corrupt)
    );
    assert_eq!(
        PatternWeights::from_bytes(b"<!doctype html>"),
        Err(WeightsError::BadMagic)
    );
}

fn mid_game() -> Game {
    let record: Record = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3c5".parse().unwrap();
    let mut game = Game::from_record(Rules::default(), &record).unwrap();
    game.undo();
    game.undo();
    game
}

#[test]
fn saves_round_trip_and_are_strict() {
    let game = mid_game();
    let bytes = game.to_bytes();
    assert_eq!(&bytes[..6], b"TTRV\x01\x00");
    assert_eq!(Game::from_bytes(&bytes), Ok(game.clone()));
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(Game::from_bytes(&longer), Err(LoadError::Corrupt));
    assert_eq!(
        Game::from_bytes(&bytes[..bytes.len() - 1]),
        Err(LoadError::Corrupt)
    );
    assert_eq!(
        Game::from_bytes(b"TTBS\x01\x00"),
        Err(LoadError::NotASave { game: "Reversi" })
    );
}

#[test]
fn a_save_whose_start_has_overlapping_discs_is_illegal() {
    let bytes = Game::default().to_bytes();
    // The body starts with the rules (one byte), then the start position's two
    // bitboards as varints; make the second equal to the first.
    let (head, body) = bytes.split_at(7);
    let (player, rest) = varint(body);
    assert_eq!(player, Position::start().player());
    let player_bytes = &body[..body.len() - rest.len()];
    let (_, tail) = varint(rest);
    let bad = [head, player_bytes, player_bytes, tail].concat();
    assert!(matches!(Game::from_bytes(&bad), Err(LoadError::Illegal(_))));
}

/// A postcard varint and the bytes after it.
fn varint(bytes: &[u8]) -> (u64, &[u8]) {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate() {
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return (value, &bytes[i + 1..]);
        }
    }
    panic!("unterminated varint");
}

#[test]
fn the_fixture_of_the_first_release_loads() {
    let bytes = include_bytes!("../fixtures/v1-midgame.ttrv");
    let game = Game::from_bytes(bytes).unwrap();
    assert_eq!(game, mid_game());
    assert_eq!(
        game.position().to_string(),
        "------------------XO-O----XXOOOX---XXXO----XXXOO---XXO-------X-- X"
    );
    assert_eq!(
        game.record().to_string(),
        "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4"
    );
    // Writing it again gives the same bytes: the format did not change.
    assert_eq!(game.to_bytes(), bytes);
}
