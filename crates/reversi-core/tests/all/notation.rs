//! Notations (moves, records, OBF boards), games, undo/redo and saves.

use reversi_core::{
    Color, Game, LoadError, Move, ParseBoardError, PlayError, Position, Record, ReplayError, Rules,
    SAVE_FORMAT, Square,
};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn start_position_board_string_is_the_spec_one() {
    let start = Position::start();
    assert_eq!(
        start.to_string(),
        "---------------------------OX------XO--------------------------- X"
    );
    assert_eq!(
        "---------------------------OX------XO--------------------------- X"
            .parse::<Position>()
            .unwrap(),
        start
    );
}

#[test]
fn board_strings_accept_the_alternative_characters_and_annotations() {
    let pos: Position =
        "...........................O*......*O........................... x ; best: f5"
            .parse()
            .unwrap();
    assert_eq!(pos, Position::start());
    let white: Position = "---------------------------OX------XO--------------------------- O"
        .parse()
        .unwrap();
    assert_eq!(white.side_to_move(), Color::White);
    assert_eq!(white, Rules::with_first(Color::White).start_position());
}

#[test]
fn bad_board_strings_are_rejected_precisely() {
    let short = "----OX X";
    assert_eq!(
        short.parse::<Position>(),
        Err(ParseBoardError::WrongLength(6))
    );
    let bad = format!("{}Q{} X", "-".repeat(10), "-".repeat(53));
    assert_eq!(
        bad.parse::<Position>(),
        Err(ParseBoardError::BadSquare {
            square: sq("c2"),
            found: 'Q'
        })
    );
    let board = "-".repeat(64);
    assert_eq!(board.parse::<Position>(), Err(ParseBoardError::MissingSide));
    assert_eq!(
        format!("{board} Z").parse::<Position>(),
        Err(ParseBoardError::BadSide("Z".into()))
    );
    assert_eq!(
        format!("{board} X extra").parse::<Position>(),
        Err(ParseBoardError::Trailing("extra".into()))
    );
    assert!("".parse::<Position>().is_err());
    // Messages are readable sentences.
    let msg = bad.parse::<Position>().unwrap_err().to_string();
    assert!(msg.contains("c2"), "{msg}");
}

#[test]
fn moves_parse_case_insensitively_and_print_lowercase() {
    assert_eq!("F5".parse::<Move>().unwrap(), Move::Place(sq("f5")));
    assert_eq!(Move::Place(sq("f5")).to_string(), "f5");
    for pass in ["pass", "PASS", "pa", "ps", "--", " Pass "] {
        assert_eq!(pass.parse::<Move>().unwrap(), Move::Pass, "{pass}");
    }
    assert_eq!(Move::Pass.to_string(), "pass");
    for bad in ["", "z9", "f", "pas", "f55"] {
        assert!(bad.parse::<Move>().is_err(), "{bad}");
    }
}

#[test]
fn illegal_moves_say_why_and_change_nothing() {
    let mut pos = Position::start();
    let before = pos;
    assert_eq!(
        pos.play(Move::Place(sq("d4"))),
        Err(PlayError::Occupied(sq("d4")))
    );
    assert_eq!(
        pos.play(Move::Place(sq("a1"))),
        Err(PlayError::NoFlips(sq("a1")))
    );
    assert_eq!(pos.play(Move::Pass), Err(PlayError::PassNotAllowed));
    assert_eq!(pos, before);
}

#[test]
fn passes_and_game_over() {
    // White has no move, Black does: White must pass.
    let pos: Position = format!("XO{} O", "-".repeat(62)).parse().unwrap();
    assert!(pos.legal_squares().is_empty());
    // Black (opponent) has a move? X at a1, O at b1: Black plays c1.
    assert!(pos.must_pass());
    let mut p = pos;
    assert_eq!(p.play(Move::Place(sq("c1"))), Err(PlayError::MustPass));
    p.play(Move::Pass).unwrap();
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(pos.legal_moves().as_slice(), &[Move::Pass]);

    // A full board is over.
    let full: Position = format!("{}{} X", "X".repeat(40), "O".repeat(24))
        .parse()
        .unwrap();
    assert!(full.is_over());
    assert!(full.legal_moves().is_empty());
    let mut f = full;
    assert_eq!(f.play(Move::Pass), Err(PlayError::GameOver));
    assert_eq!(
        f.play(Move::Place(sq("a1"))),
        Err(PlayError::Occupied(sq("a1")))
    );
    let result = full.outcome().unwrap();
    assert_eq!(result.winner(), Some(Color::Black));
    assert_eq!(result.disc_difference(Color::Black), 16);
    assert_eq!(result.score(Color::White), -16);
    assert_eq!(result.to_string(), "Black wins 40-24 (+16)");
}

#[test]
fn empties_go_to_the_winner() {
    // Black wiped out White with 13 discs: no one can move.
    let pos: Position = format!("{}{} O", "X".repeat(13), "-".repeat(51))
        .parse()
        .unwrap();
    assert!(pos.is_over());
    let r = pos.outcome().unwrap();
    assert_eq!(r.disc_difference(Color::Black), 13);
    assert_eq!(r.score(Color::Black), 64);
    assert_eq!(r.score(Color::White), -64);
    assert_eq!(pos.final_score(), -64);
    let draw: Position = format!("{}{} X", "X".repeat(32), "O".repeat(32))
        .parse()
        .unwrap();
    assert_eq!(draw.outcome().unwrap().winner(), None);
    assert_eq!(draw.outcome().unwrap().score(Color::Black), 0);
    assert_eq!(draw.outcome().unwrap().to_string(), "Draw 32-32");
}

#[test]
fn records_round_trip_and_infer_passes() {
    let text = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3c5";
    let record: Record = text.parse().unwrap();
    assert_eq!(record.to_string(), text);
    let game = Game::from_record(Rules::default(), &record).unwrap();
    assert_eq!(game.record().to_string(), text);
    // Upper case, spaces and explicit passes are accepted on input.
    let spaced: Record = "F5 D6 c3".parse().unwrap();
    assert_eq!(spaced.to_string(), "f5d6c3");
    let with_pass: Record = "f5pass--pa".parse().unwrap();
    assert_eq!(
        with_pass.moves(),
        &[Move::Place(sq("f5")), Move::Pass, Move::Pass, Move::Pass]
    );
    let err = "f5d6x9".parse::<Record>().unwrap_err();
    assert_eq!(err.index, 3);
    assert_eq!(err.text, "x9");
    assert!("f5d".parse::<Record>().is_err());
}

#[test]
fn the_shortest_wipeout_replays_to_a_finished_game() {
    // The shortest possible game (Maruo, 1975): Black wipes White out in 9 moves.
    let game = Game::from_record(Rules::default(), &"e6f4e3f6g5d6e7f5c5".parse().unwrap()).unwrap();
    assert_eq!(game.moves().len(), 9);
    assert!(game.is_over());
    let result = game.outcome().unwrap();
    assert_eq!(result.white, 0);
    assert_eq!(result.score(Color::Black), 64);
}

#[test]
fn inferred_passes_appear_in_the_game() {
    // From a position where White must pass, a record of Black's moves replays.
    let start: Position = format!("XO{} O", "-".repeat(62)).parse().unwrap();
    let game = Game::from_record_at(Rules::default(), start, &"c1".parse().unwrap()).unwrap();
    assert_eq!(game.moves(), &[Move::Pass, Move::Place(sq("c1"))]);
    assert!(game.is_over());
    assert_eq!(game.outcome().unwrap().score(Color::Black), 64);
    // The printed record omits the pass.
    assert_eq!(game.record().to_string(), "c1");
}

#[test]
fn illegal_record_moves_name_their_index_and_reason() {
    let err = Game::from_record(Rules::default(), &"f5d6d6".parse().unwrap()).unwrap_err();
    assert_eq!(
        err,
        ReplayError {
            index: 3,
            mv: Move::Place(sq("d6")),
            reason: PlayError::Occupied(sq("d6"))
        }
    );
    assert_eq!(
        err.to_string(),
        "move 3 (d6) is illegal: d6 is already taken"
    );
    let err = Game::from_record(Rules::default(), &"a1".parse().unwrap()).unwrap_err();
    assert_eq!(err.reason, PlayError::NoFlips(sq("a1")));
}

#[test]
fn white_first_rules_change_the_first_mover() {
    let rules = Rules::with_first(Color::White);
    let game = Game::from_record(rules, &"e6".parse().unwrap()).unwrap_err();
    // e6 is not a legal move for White at the start.
    assert_eq!(game.index, 1);
    let game = Game::from_record(rules, &"f4".parse().unwrap()).unwrap();
    assert_eq!(game.position().count(Color::White), 4);
}

#[test]
fn undo_and_redo_walk_the_history() {
    let mut game = Game::new(Rules::default());
    assert_eq!(game.undo(), None);
    game.play(Move::Place(sq("f5"))).unwrap();
    game.play(Move::Place(sq("d6"))).unwrap();
    let after_two = *game.position();
    assert_eq!(game.undo(), Some(Move::Place(sq("d6"))));
    assert_eq!(game.undo(), Some(Move::Place(sq("f5"))));
    assert_eq!(*game.position(), Position::start());
    assert!(game.can_redo());
    assert_eq!(game.redo(), Some(Move::Place(sq("f5"))));
    assert_eq!(game.redo(), Some(Move::Place(sq("d6"))));
    assert_eq!(*game.position(), after_two);
    assert_eq!(game.redo(), None);
    // A new move clears the redo list.
    game.undo();
    game.play(Move::Place(sq("f6"))).unwrap();
    assert!(!game.can_redo());
    // An illegal move leaves the game untouched.
    let before = game.clone();
    assert!(game.play(Move::Place(sq("a1"))).is_err());
    assert_eq!(game, before);
}

fn sample_game() -> Game {
    let mut game =
        Game::from_record(Rules::with_first(Color::White), &"f4f3e3".parse().unwrap()).unwrap();
    game.undo();
    game
}

#[test]
fn saves_round_trip() {
    let game = sample_game();
    let bytes = game.to_bytes();
    assert_eq!(&bytes[..6], b"TTRV\x01\x00");
    assert_eq!(SAVE_FORMAT.magic(), *b"TTRV");
    assert_eq!(SAVE_FORMAT.version(), 1);
    let loaded = Game::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, game);
    assert_eq!(loaded.can_redo(), game.can_redo());
}

#[test]
fn bad_saves_are_errors_not_panics() {
    let game = sample_game();
    let bytes = game.to_bytes();
    assert_eq!(
        Game::from_bytes(b""),
        Err(LoadError::NotASave { game: "Reversi" })
    );
    assert_eq!(
        Game::from_bytes(b"hello world"),
        Err(LoadError::NotASave { game: "Reversi" })
    );
    assert_eq!(Game::from_bytes(&bytes[..5]), Err(LoadError::Corrupt));
    for cut in 6..bytes.len() {
        assert!(
            Game::from_bytes(&bytes[..cut]).is_err(),
            "truncated at {cut}"
        );
    }
    let mut newer = bytes.clone();
    newer[4..6].copy_from_slice(&2u16.to_le_bytes());
    assert_eq!(
        Game::from_bytes(&newer),
        Err(LoadError::NewerVersion {
            game: "Reversi",
            found: 2,
            supported: 1
        })
    );
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(Game::from_bytes(&longer), Err(LoadError::Corrupt));
    // Flipping any byte never panics.
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut damaged = bytes.clone();
            damaged[i] ^= 1 << bit;
            let _ = Game::from_bytes(&damaged);
        }
    }
}

#[test]
fn a_save_with_an_illegal_move_is_rejected() {
    // Build a valid save, then overwrite the first move's square index with a1 (index 0),
    // which is not legal at the start.
    let mut game = Game::new(Rules::default());
    game.play(Move::Place(sq("f5"))).unwrap();
    let bytes = game.to_bytes();
    let pos = bytes.iter().rposition(|&b| b == sq("f5").index()).unwrap();
    let mut bad = bytes.clone();
    bad[pos] = 0;
    assert!(matches!(Game::from_bytes(&bad), Err(LoadError::Illegal(_))));
}
