//! The shape every Tabletop engine shares, on Battleship: legal moves, `play` errors that
//! change nothing, `undo`/`redo`, bots behind `Box<dyn Bot>` for every level, strict saves
//! and the committed fixtures of save format version 1.

use battleship_core::ai::{Bot, Level};
use battleship_core::{
    Coord, Game, LoadError, Outcome, PlayError, Player, Rules, SAVE_FORMAT, ShotResult,
    UniformFleets,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn new_game(rules: &Rules, seed: u64) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let fleets = UniformFleets::new(rules);
    Game::new(
        rules.clone(),
        fleets.sample(&mut rng),
        fleets.sample(&mut rng),
    )
    .unwrap()
}

fn c(s: &str) -> Coord {
    s.parse().unwrap()
}

#[test]
fn legal_moves_are_the_cells_not_shot_yet() {
    let mut g = new_game(&Rules::russian(), 1);
    assert_eq!(g.legal_moves().len(), 100);
    let first = g.side_to_move();
    g.play(c("e5")).unwrap();
    let after = g.legal_moves();
    if g.side_to_move() == first {
        assert_eq!(after.len(), 99);
        assert!(!after.contains(&c("e5")));
    } else {
        assert_eq!(after.len(), 100, "the other player has shot nothing yet");
    }
    assert_eq!(first.other(), Player::Second);
}

#[test]
fn a_refused_shot_changes_nothing() {
    let mut g = new_game(&Rules::russian(), 2);
    // stay on the first player's turn: find a hit
    let hit = g
        .fleet(Player::Second)
        .ships()
        .iter()
        .find(|s| s.len() > 1)
        .unwrap()
        .bow();
    assert!(g.play(hit).unwrap().is_hit());
    let before = g.clone();
    assert_eq!(g.play(hit), Err(PlayError::AlreadyShot(hit)));
    assert_eq!(g, before);
    // a coordinate off a smaller grid
    let mut small = new_game(&Rules::custom(6, 6, &[3, 2, 1]).unwrap(), 3);
    let before = small.clone();
    assert_eq!(small.play(c("j10")), Err(PlayError::OffGrid(c("j10"))));
    assert_eq!(small, before);
}

#[test]
fn undo_restores_and_redo_replays() {
    let rules = Rules::russian();
    let mut g = new_game(&rules, 4);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut bot = Level::new(2).unwrap().bot(&rules);
    let mut states = vec![g.clone()];
    for _ in 0..30 {
        let me = g.side_to_move();
        let cell = bot.choose_move(g.view(me).tracking(), &mut rng).unwrap();
        g.play(cell).unwrap();
        states.push(g.clone());
    }
    let end = g.clone();
    let mut undone = Vec::new();
    for k in (0..30).rev() {
        undone.push(g.undo().unwrap());
        // (the game also remembers the shots taken back, so compare what it shows)
        assert_eq!(g.history(), states[k].history());
        assert_eq!(g.side_to_move(), states[k].side_to_move());
        assert_eq!(
            g.view(Player::First).tracking(),
            states[k].view(Player::First).tracking()
        );
        assert_eq!(
            g.view(Player::Second).tracking(),
            states[k].view(Player::Second).tracking()
        );
    }
    assert_eq!(g.undo(), None);
    for cell in undone.iter().rev() {
        assert_eq!(g.redo(), Some(*cell));
    }
    assert_eq!(g.redo(), None);
    assert_eq!(g, end);
    // a new shot forgets what was taken back
    g.undo().unwrap();
    let legal = g.legal_moves()[0];
    g.play(legal).unwrap();
    assert_eq!(g.redo(), None);
}

#[test]
fn every_level_plays_whole_games_behind_dyn_bot() {
    for rules in [Rules::russian(), Rules::classic()] {
        for level in Level::ALL {
            let mut g = new_game(&rules, u64::from(level.get()));
            let mut bots: Vec<Box<dyn Bot>> = vec![level.bot(&rules), level.bot(&rules)];
            let mut rng = ChaCha8Rng::seed_from_u64(9);
            while g.outcome().is_none() {
                let me = g.side_to_move();
                let cell = bots[me.index()]
                    .choose_move(g.view(me).tracking(), &mut rng)
                    .expect("a cell is left while the game goes on");
                g.play(cell).expect("bots shoot legal cells");
            }
            let Outcome { winner, shots } = g.outcome().unwrap();
            assert_eq!(shots, g.view(winner).tracking().shots_fired());
            assert!(matches!(
                g.history().last(),
                Some((p, _, ShotResult::GameOver(_))) if *p == winner
            ));
            assert!(g.legal_moves().is_empty());
            // a finished game refuses more shots, and a new game is a fresh start
            assert_eq!(g.play(c("a1")), Err(PlayError::GameOver));
            for bot in &mut bots {
                bot.new_game();
            }
        }
    }
}

#[test]
fn levels_parse_print_and_order() {
    assert_eq!(Level::ALL.len(), 5);
    assert_eq!((Level::MIN.get(), Level::MAX.get()), (1, 5));
    assert!(Level::ALL.windows(2).all(|w| w[0] < w[1]));
    let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
    assert_eq!(
        names,
        ["random", "hunt", "density", "posterior", "lookahead"]
    );
    for level in Level::ALL {
        assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        assert_eq!(level.name().to_uppercase().parse::<Level>(), Ok(level));
        assert_eq!(level.shooter(&Rules::russian()).level(), level);
    }
    assert_eq!("best".parse::<Level>(), Ok(Level::MAX));
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(6), None);
    let err = "uniform".parse::<Level>().unwrap_err().to_string();
    assert!(
        err.contains("lookahead") && !err.contains("border"),
        "{err}"
    );
    let err = "frobnicate"
        .parse::<battleship_core::ai::PlacementStrategy>()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("border") && !err.contains("lookahead"),
        "{err}"
    );
}

#[test]
fn saves_round_trip_and_are_strict() {
    let rules = Rules::russian();
    let mut g = new_game(&rules, 5);
    for cell in ["a1", "b2", "c3", "d4", "e5", "f6", "g7"] {
        if g.play(c(cell)).is_err() {
            break;
        }
    }
    let bytes = g.to_bytes();
    assert_eq!(&bytes[..6], b"TTBS\x01\x00");
    assert_eq!(SAVE_FORMAT.magic(), *b"TTBS");
    assert_eq!(Game::from_bytes(&bytes), Ok(g));
    let mut extra = bytes.clone();
    extra.push(0);
    assert_eq!(Game::from_bytes(&extra), Err(LoadError::Corrupt));
    assert_eq!(
        Game::from_bytes(&bytes[..bytes.len() - 1]),
        Err(LoadError::Corrupt)
    );
    assert!(matches!(
        Game::from_bytes(b"TTRV\x01\x00"),
        Err(LoadError::NotASave { .. })
    ));
}

#[test]
fn a_save_with_an_impossible_shot_is_illegal() {
    // the same cell shot twice by the same player cannot be replayed
    let rules = Rules::russian();
    let g = new_game(&rules, 6);
    let mut bytes = g.to_bytes();
    // the body ends with the shot list, empty here: write a hit (the shooter keeps the
    // turn) twice
    let hit = g.fleet(Player::Second).ships()[0].bow();
    bytes.pop();
    bytes.extend_from_slice(&[2, hit.col(), hit.row(), hit.col(), hit.row()]);
    match Game::from_bytes(&bytes) {
        Err(LoadError::Illegal(why)) => assert!(why.contains("already shot"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// Loads a fixture written by the code before the shared save format and checks it
/// against the shot list written next to it.
fn check_fixture(name: &str) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");
    let bytes = std::fs::read(format!("{dir}{name}.ttbs"))
        .unwrap_or_else(|e| panic!("fixture {name}.ttbs is missing: {e}"));
    let text = std::fs::read_to_string(format!("{dir}{name}.txt"))
        .unwrap_or_else(|e| panic!("fixture {name}.txt is missing: {e}"));
    let game = Game::from_bytes(&bytes).expect("a version 1 save loads");
    let listed: Vec<String> = text.lines().map(str::to_owned).collect();
    let replayed: Vec<String> = game
        .history()
        .iter()
        .map(|(p, c, r)| format!("{} {c} {r}", p.index()))
        .collect();
    assert_eq!(replayed, listed);
    assert_eq!(listed.len(), 60);
    assert!(game.outcome().is_none());
    // and it saves to the very same bytes
    assert_eq!(game.to_bytes(), bytes);
}

#[test]
fn the_committed_version_1_fixtures_load() {
    check_fixture("russian-v1-mid-game");
    check_fixture("classic-v1-mid-game");
}
