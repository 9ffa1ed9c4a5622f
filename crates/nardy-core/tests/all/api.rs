//! The shape every Tabletop engine shares: legal moves, play that changes nothing on error,
//! undo and redo, bots of every level, strict saves and the fixtures of older formats.

use nardy_core::ai::{Bot, Level, RandomBot};
use nardy_core::{Color, Dice, Game, LoadError, Move, Opening, Position, Rules, Scoring};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A fixture file; a missing one fails the test with its path.
fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("fixture {path} is missing: {e}"))
}

/// `game` after `turns` turns of a random bot drawing from `seed`.
fn random_turns(game: &mut Game, seed: u64, turns: usize) {
    let mut bot = RandomBot::new(*game.rules());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..turns {
        let Some(mv) = bot.choose_move(game.position(), game.dice(), &mut rng) else {
            break;
        };
        if game.outcome().is_some() {
            break;
        }
        game.play(&mv).unwrap();
    }
}

#[test]
fn legal_moves_of_position_and_game_agree() {
    let game = Game::new(Rules::default(), 5);
    let from_position = game.position().legal_moves(game.dice(), game.rules());
    assert_eq!(game.legal_moves(), from_position);
    assert!(!from_position.is_empty());
    let start = Position::start();
    assert_eq!(start.side_to_move(), Color::White);
    assert_eq!(Color::White.other(), Color::Black);
    let moves = start.legal_moves(Dice::new(6, 5).unwrap(), &Rules::default());
    let shown: Vec<String> = moves.iter().map(Move::to_string).collect();
    assert_eq!(shown, ["24/18 18/13"]);
}

#[test]
fn an_illegal_play_changes_nothing() {
    let rules = Rules::default();
    let mut position = Position::start();
    let before = position;
    let dice = Dice::new(6, 5).unwrap();
    for bad in ["24/18 24/19", "24/18", "12/6 12/7", "pass"] {
        let mv: Move = bad.parse().unwrap();
        assert!(position.play(dice, &mv, &rules).is_err(), "{bad}");
        assert_eq!(position, before, "{bad}");
    }
    let mut game = Game::new(rules, 9);
    let copy = game.clone();
    assert!(game.play(&"1/off".parse().unwrap()).is_err());
    assert_eq!(game, copy);
}

#[test]
fn undo_restores_the_position_the_dice_and_the_generator() {
    let mut game = Game::new(Rules::default(), 21);
    let mut snapshots = vec![game.clone()];
    for turn in 0..30 {
        let moves = game.legal_moves();
        let mv = moves[turn % moves.len()].clone();
        game.play(&mv).unwrap();
        snapshots.push(game.clone());
    }
    let end = game.clone();
    // Back to the start, one turn at a time: each state is the one before that turn.
    for k in (0..30).rev() {
        let mv = game.undo().expect("a turn to take back");
        assert_eq!(mv, end.history()[k].mv);
        assert_eq!(game.position(), snapshots[k].position(), "turn {k}");
        assert_eq!(game.dice(), snapshots[k].dice(), "turn {k}");
        assert_eq!(game.history(), snapshots[k].history());
        // Playing the same turn again throws the same next dice.
        let mut replay = game.clone();
        replay.play(&mv).unwrap();
        assert_eq!(replay.dice(), snapshots[k + 1].dice(), "turn {k}");
        assert_eq!(replay.position(), snapshots[k + 1].position());
    }
    assert_eq!(game.undo(), None);
    assert_eq!(game.redo_moves().len(), 30);
    // Redo replays everything, back to the same game.
    for k in 0..30 {
        assert_eq!(game.redo(), Some(end.history()[k].mv.clone()));
    }
    assert_eq!(game.redo(), None);
    assert_eq!(game, end);
    // A new turn after an undo drops the turns that could be redone.
    game.undo();
    let other = game.legal_moves().last().cloned().unwrap();
    game.play(&other).unwrap();
    assert!(game.redo_moves().is_empty());
    assert_eq!(game.redo(), None);
}

#[test]
fn undo_takes_back_the_end_of_the_game() {
    let mut game = Game::from_position(Rules::default(), "1:1/13:1 w".parse().unwrap(), 1).unwrap();
    let before = game.clone();
    let mv = game.legal_moves()[0].clone();
    game.play(&mv).unwrap();
    assert!(game.outcome().is_some());
    assert_eq!(game.undo(), Some(mv));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.position(), before.position());
    assert_eq!(game.dice(), before.dice());
}

#[test]
fn every_level_plays_a_whole_game() {
    assert_eq!(Level::ALL.first(), Some(&Level::MIN));
    assert_eq!(Level::ALL.last(), Some(&Level::MAX));
    for level in Level::ALL {
        assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        assert_eq!(level.name().to_uppercase().parse::<Level>(), Ok(level));
        assert_eq!(Level::new(level.get()), Some(level));
        let rules = Rules::default();
        let r = crate::resources();
        let mut bots: [Box<dyn Bot>; 2] = [level.bot_with(&rules, r), level.bot_with(&rules, r)];
        let mut rng = ChaCha8Rng::seed_from_u64(u64::from(level.get()));
        let mut game = Game::new(rules, 4);
        while game.outcome().is_none() {
            let bot = &mut bots[game.side_to_move().index()];
            let mv = bot
                .choose_move(game.position(), game.dice(), &mut rng)
                .expect("a move while the game is on");
            game.play(&mv).unwrap();
        }
        // Once the game is over the bot has nothing to play.
        let winner = game.winner().unwrap();
        assert_eq!(
            bots[0].choose_move(game.position(), game.dice(), &mut rng),
            None,
            "{winner} won"
        );
        for bot in &mut bots {
            bot.new_game();
        }
    }
    assert!(Level::new(0).is_none());
    assert!("0".parse::<Level>().is_err());
    assert!("hard".parse::<Level>().is_err());
}

#[test]
fn a_forced_pass_is_the_pass_move() {
    let p: Position = "24:1,1:14/23:1,22:1,21:1,20:1,19:1,18:1,12:9 w"
        .parse()
        .unwrap();
    let mut bot = RandomBot::new(Rules::default());
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mv = bot.choose_move(&p, Dice::new(6, 5).unwrap(), &mut rng);
    assert_eq!(mv, Some(Move::pass()));
}

#[test]
fn saves_round_trip_and_are_strict() {
    let mut game = Game::new(Rules::default(), 17);
    random_turns(&mut game, 3, 25);
    game.undo();
    game.undo();
    let bytes = game.to_bytes();
    assert_eq!(&bytes[..6], b"TTNA\x02\x00");
    let loaded = Game::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, game);
    assert_eq!(loaded.redo_moves().len(), 2);
    let mut extra = bytes.clone();
    extra.push(0);
    assert_eq!(Game::from_bytes(&extra), Err(LoadError::Corrupt));
    assert!(Game::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    // Dice that the generator does not throw are refused.
    let mut other = Game::new(Rules::default(), 17);
    random_turns(&mut other, 3, 25);
    assert!(matches!(
        Game::from_bytes(&tamper_last_dice(&other)),
        Err(LoadError::Illegal(_)) | Err(LoadError::Corrupt)
    ));
}

/// `game`'s save with the dice of its last turn changed (found by its encoding).
fn tamper_last_dice(game: &Game) -> Vec<u8> {
    let bytes = game.to_bytes();
    let last = game.history().last().unwrap();
    let (h, l) = (last.dice.high(), last.dice.low());
    let at = bytes
        .windows(2)
        .rposition(|w| w == [h, l])
        .expect("the dice are in the save");
    let mut out = bytes.clone();
    out[at] = if h == 6 { 5 } else { h + 1 };
    out[at + 1] = 1;
    out
}

#[test]
fn format_1_fixtures_load_and_undo_to_the_start() {
    let cases = [
        (
            "v1-federation-seed2024-40turns.nardy",
            Rules::default(),
            2024,
            40,
            "24:3,20:3,15:4,2:2,1:3/18:1,17:1,14:2,13:2,12:7,9:1,7:1 b",
            "65",
        ),
        (
            "v1-reroll-koks-tie-seed7-25turns.nardy",
            Rules {
                opening: Opening::Reroll,
                scoring: Scoring::WithKoks,
                last_roll_tie: true,
                ..Rules::default()
            },
            7,
            25,
            "24:8,18:2,16:1,9:1,3:1,1:2/23:1,20:1,17:1,14:1,13:1,12:9,7:1 b",
            "43",
        ),
    ];
    for (name, rules, seed, turns, position, dice) in cases {
        let mut loaded = Game::from_bytes(&fixture(name)).unwrap();
        assert_eq!(loaded.position().to_string(), position, "{name}");
        assert_eq!(loaded.dice().to_string(), dice, "{name}");
        assert_eq!(loaded.history().len(), turns);
        // Today's code plays the same game from the same seeds.
        let mut fresh = Game::new(rules, seed);
        random_turns(&mut fresh, seed, turns);
        assert_eq!(loaded, fresh, "{name}");
        // Saved again in format 2, it loads back the same.
        assert_eq!(Game::from_bytes(&loaded.to_bytes()), Ok(loaded.clone()));
        // The generator was traced back to its start: every turn can be taken back, to
        // the game as it began, and redone.
        let end = loaded.clone();
        for _ in 0..turns {
            assert!(loaded.undo().is_some());
        }
        assert_eq!(loaded.undo(), None);
        let start = Game::new(rules, seed);
        assert_eq!(loaded.position(), start.position());
        assert_eq!(loaded.dice(), start.dice());
        while loaded.redo().is_some() {}
        assert_eq!(loaded, end, "{name}");
    }
}

#[test]
fn the_finished_format_1_fixture_is_the_same_game_today() {
    let loaded = Game::from_bytes(&fixture("v1-federation-seed1-finished.nardy")).unwrap();
    let mut fresh = Game::new(Rules::default(), 1);
    random_turns(&mut fresh, 101, usize::MAX);
    assert_eq!(loaded, fresh);
    assert_eq!(loaded.history().len(), 100);
    assert_eq!(loaded.position().to_string(), "2:3,1:9/- w");
    assert_eq!(
        loaded.outcome().unwrap().to_string(),
        "Black wins: oin, 1 point"
    );
}

/// The body of a format-1 save, to build one whose generator is not traced back.
#[derive(serde::Serialize, serde::Deserialize)]
struct SaveV1 {
    rules: Rules,
    roll_off: Option<nardy_core::RollOff>,
    initial: Position,
    position: Position,
    dice: Dice,
    rng: ChaCha8Rng,
    history: Vec<nardy_core::TurnRecord>,
    outcome: Option<nardy_core::Outcome>,
}

#[test]
fn a_format_1_save_with_an_unknown_generator_start_loads_without_undo() {
    let v1 = fixture("v1-federation-seed2024-40turns.nardy");
    assert_eq!(&v1[..7], b"NARDY\x1a\x01");
    let mut save: SaveV1 = postcard::from_bytes(&v1[7..]).unwrap();
    // A generator that did not start at word 0: the saved turns load, but are final.
    let word = save.rng.get_word_pos();
    save.rng.set_word_pos(word + 1000);
    let mut bytes = v1[..7].to_vec();
    bytes.extend(postcard::to_allocvec(&save).unwrap());
    let mut game = Game::from_bytes(&bytes).unwrap();
    assert_eq!(game.history().len(), 40);
    assert_eq!(game.dice().to_string(), "65");
    assert_eq!(game.undo(), None);
    // It plays on with the saved generator, and undoes what is played after the load.
    let before = game.clone();
    random_turns(&mut game, 1, 3);
    assert_eq!(Game::from_bytes(&game.to_bytes()), Ok(game.clone()));
    for _ in 0..3 {
        assert!(game.undo().is_some());
    }
    assert_eq!(game.undo(), None);
    assert_eq!(game.position(), before.position());
    assert_eq!(game.dice(), before.dice());
    // A position that does not follow from the history is refused.
    save.position = Position::start();
    let mut bad = v1[..7].to_vec();
    bad.extend(postcard::to_allocvec(&save).unwrap());
    assert!(matches!(Game::from_bytes(&bad), Err(LoadError::Illegal(_))));
    // Header and length checks.
    let mut newer = v1.clone();
    newer[6] = 2;
    assert!(matches!(
        Game::from_bytes(&newer),
        Err(LoadError::NewerVersion { found: 2, .. })
    ));
    let mut extra = v1.clone();
    extra.push(0);
    assert_eq!(Game::from_bytes(&extra), Err(LoadError::Corrupt));
    assert!(Game::from_bytes(&v1[..v1.len() - 1]).is_err());
}
