//! Games: roll-off and dice, illegal turns, results and scoring, saves.

use nardy_core::{
    Color, Game, LoadError, Move, Opening, Outcome, PlayError, Position, Rules, SAVE_FORMAT,
    Scoring, WinKind, score,
};

fn pos(s: &str) -> Position {
    s.parse().unwrap()
}

/// Plays the first legal turn until the game ends.
fn play_out(game: &mut Game) {
    while game.outcome().is_none() {
        let t = game.legal_moves()[0].clone();
        game.play(&t).unwrap();
    }
}

#[test]
fn federation_first_mover_plays_the_roll_off_dice() {
    for seed in 0..50 {
        let g = Game::new(Rules::default(), seed);
        let r = g.roll_off().unwrap();
        assert_eq!(g.dice(), r.dice());
        assert!(!g.dice().is_double());
        assert_eq!(g.position().side_to_move(), r.winner());
        assert_eq!(g.first_mover(), r.winner());
        assert_eq!(
            *g.initial_position(),
            Position::start().with_side_to_move(r.winner())
        );
    }
    // Under the reroll opening the first dice are thrown afresh: some are doubles.
    let reroll = Rules {
        opening: Opening::Reroll,
        ..Rules::default()
    };
    assert!((0..200).any(|s| Game::new(reroll, s).dice().is_double()));
}

#[test]
fn same_seed_same_game() {
    let mut a = Game::new(Rules::default(), 42);
    let mut b = Game::new(Rules::default(), 42);
    play_out(&mut a);
    play_out(&mut b);
    assert_eq!(a, b);
    assert!(a.history().len() > 20);
}

#[test]
fn illegal_turn_changes_nothing() {
    let mut g = Game::new(Rules::default(), 1);
    let before = g.clone();
    let bad: Move = "24/1".parse().unwrap();
    assert!(g.play(&bad).is_err());
    assert!(g.play(&Move::pass()).is_err());
    assert_eq!(g, before);
}

#[test]
fn builder_plays_a_turn() {
    let mut g = Game::new(Rules::default(), 3);
    let mut b = g.builder().unwrap();
    let turn = g.legal_moves()[0].clone();
    for s in turn.steps() {
        b.play(*s).unwrap();
    }
    g.play_builder(&b).unwrap();
    assert_eq!(g.history().len(), 1);
    assert_eq!(g.history()[0].mv, turn);
}

#[test]
fn scoring_oin_mars_koks() {
    let std = Rules::default();
    let koks = Rules {
        scoring: Scoring::WithKoks,
        ..std
    };
    // Black bore off one: oin.
    assert_eq!(score(&pos("-/13:14 b"), Color::White, &std), WinKind::Oin);
    // Black bore off none and has a checker on 12 (its starting quarter 7-12).
    assert_eq!(
        score(&pos("-/13:14,12:1 b"), Color::White, &std),
        WinKind::Mars
    );
    assert_eq!(
        score(&pos("-/13:14,12:1 b"), Color::White, &koks),
        WinKind::Koks
    );
    assert_eq!(
        score(&pos("-/13:14,6:1 b"), Color::White, &koks),
        WinKind::Mars
    );
    // White's starting quarter is 19-24.
    assert_eq!(
        score(&pos("19:1,1:14/- w"), Color::Black, &koks),
        WinKind::Koks
    );
    assert_eq!(WinKind::Koks.points(), 3);
    assert_eq!(WinKind::Mars.points(), 2);
    assert_eq!(WinKind::Oin.points(), 1);
}

#[test]
fn a_win_ends_the_game_with_its_points() {
    let koks = Rules {
        scoring: Scoring::WithKoks,
        ..Rules::default()
    };
    let mut g = Game::from_position(koks, pos("1:1/12:15 w"), 5).unwrap();
    play_out(&mut g);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            kind: WinKind::Koks
        })
    );
    assert_eq!(g.outcome().unwrap().points(), 3);
    assert_eq!(g.winner(), Some(Color::White));
    assert_eq!(g.points(), 3);
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.play(&Move::pass()), Err(PlayError::GameOver));
    assert!(Game::from_position(koks, pos("-/12:15 w"), 5).is_err());
}

#[test]
fn last_roll_tie() {
    let tie = Rules {
        last_roll_tie: true,
        ..Rules::default()
    };
    // White finishes; Black gets one more turn and finishes too: a draw.
    let mut g = Game::from_position(tie, pos("1:1/13:1 w"), 1).unwrap();
    let t = g.legal_moves()[0].clone();
    g.play(&t).unwrap();
    assert_eq!(g.outcome(), None);
    assert_eq!(g.side_to_move(), Color::Black);
    play_out(&mut g);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.outcome().unwrap().points(), 0);
    // Black, with everything still on the board, gets its extra turn but cannot finish:
    // White wins a mars.
    let mut g = Game::from_position(tie, pos("1:1/12:15 w"), 1).unwrap();
    play_out(&mut g);
    assert_eq!(g.history().len(), 2);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            kind: WinKind::Mars
        })
    );
    // Without the rule the game ends at once.
    let mut g = Game::from_position(Rules::default(), pos("1:1/13:1 w"), 1).unwrap();
    play_out(&mut g);
    assert_eq!(g.history().len(), 1);
    assert_eq!(g.outcome().unwrap().winner(), Some(Color::White));
    assert_eq!(g.outcome().unwrap().points(), 1, "Black bore off 14: oin");
}

#[test]
fn saves_keep_the_dice_and_the_generator() {
    let mut g = Game::new(Rules::default(), 11);
    for _ in 0..10 {
        let t = g.legal_moves()[0].clone();
        g.play(&t).unwrap();
    }
    let bytes = g.to_bytes();
    assert!(bytes.starts_with(b"TTNA\x02\x00"));
    assert_eq!(SAVE_FORMAT.version(), 2);
    let mut loaded = Game::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, g);
    assert_eq!(loaded.dice(), g.dice());
    // The same turns give the same next dice: the generator state was saved.
    for _ in 0..10 {
        let t = g.legal_moves()[0].clone();
        g.play(&t).unwrap();
        loaded.play(&t).unwrap();
        assert_eq!(loaded.dice(), g.dice());
    }
    // A set-up game saves too.
    let s = Game::from_position(Rules::default(), pos("6:3,1:2/18:2 b"), 2).unwrap();
    assert_eq!(Game::from_bytes(&s.to_bytes()), Ok(s));
}

#[test]
fn bad_saves_are_errors_never_panics() {
    let mut g = Game::new(Rules::default(), 12);
    for _ in 0..6 {
        let t = g.legal_moves()[0].clone();
        g.play(&t).unwrap();
    }
    let bytes = g.to_bytes();
    let not_a_save = Err(LoadError::NotASave { game: "Long Nardy" });
    assert_eq!(Game::from_bytes(b"hello"), not_a_save);
    assert_eq!(Game::from_bytes(&[]), not_a_save);
    let mut newer = bytes.clone();
    newer[4] = 3;
    assert_eq!(
        Game::from_bytes(&newer),
        Err(LoadError::NewerVersion {
            game: "Long Nardy",
            found: 3,
            supported: 2
        })
    );
    for len in 0..bytes.len() {
        assert!(
            Game::from_bytes(&bytes[..len]).is_err(),
            "truncated at {len}"
        );
    }
    // Flipping any byte gives an error or a consistent game, never a panic.
    for i in 0..bytes.len() {
        for flip in [1u8, 0x80, 0xFF] {
            let mut b = bytes.clone();
            b[i] ^= flip;
            if let Ok(loaded) = Game::from_bytes(&b) {
                assert_eq!(Game::from_bytes(&loaded.to_bytes()), Ok(loaded.clone()));
            }
        }
    }
}

#[test]
fn forced_passes_are_played_as_passes() {
    let p = pos("24:1,1:14/23:1,22:1,21:1,20:1,19:1,18:1,12:9 w");
    // Every die from 24 lands on a Black point, and 1 cannot bear off while 24 is out.
    for seed in 0..20 {
        let mut g = Game::from_position(Rules::default(), p, seed).unwrap();
        assert!(g.must_pass(), "{}", g.dice());
        g.play(&Move::pass()).unwrap();
        assert_eq!(g.position().side_to_move(), Color::Black);
        assert_eq!(g.history()[0].mv, Move::pass());
    }
}
