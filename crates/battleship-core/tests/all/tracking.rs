//! A `Tracking` fed from outside the engine: recorded results are checked, stored trackings
//! are checked on load, and the bots cope with whatever a valid tracking holds.

use battleship_core::ai::{Bot, Level};
use battleship_core::{
    Coord, Game, Orientation, Player, RecordError, Rules, Ship, ShotResult, Tracking, UniformFleets,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn c(s: &str) -> Coord {
    s.parse().unwrap()
}

fn ship(s: &str) -> Ship {
    s.parse().unwrap()
}

#[test]
fn record_rejects_results_that_contradict_what_is_known() {
    let rules = Rules::russian();
    let mut t = Tracking::new(rules.clone());
    t.record(c("e5"), ShotResult::Miss).unwrap();
    assert_eq!(
        t.record(c("e5"), ShotResult::Hit),
        Err(RecordError::AlreadyShot(c("e5")))
    );
    t.record(c("a1"), ShotResult::Sunk(ship("a1 h 1"))).unwrap();
    // next to a sunk ship: known water, and under Russian rules no ship may touch it
    assert_eq!(
        t.record(c("b2"), ShotResult::Hit),
        Err(RecordError::KnownWater(c("b2")))
    );
    // but a shot there is allowed and is a miss
    t.record(c("b2"), ShotResult::Miss).unwrap();
    // the sunk ship must cover the cell and its other cells must be hits
    assert_eq!(
        t.record(c("d8"), ShotResult::Sunk(ship("g8 h 2"))),
        Err(RecordError::NotOnShip {
            ship: c("g8"),
            cell: c("d8")
        })
    );
    assert_eq!(
        t.record(c("d8"), ShotResult::Sunk(ship("c8 h 2"))),
        Err(RecordError::NotHit(c("c8")))
    );
    // four 1-cell ships: after four of them, no fifth
    for (cell, s) in [("c10", "c10 h 1"), ("e10", "e10 h 1"), ("g10", "g10 h 1")] {
        t.record(c(cell), ShotResult::Sunk(ship(s))).unwrap();
    }
    assert_eq!(
        t.record(c("j1"), ShotResult::Sunk(ship("j1 h 1"))),
        Err(RecordError::NotAfloat(1))
    );
    assert!(matches!(
        t.record(c("j1"), ShotResult::GameOver(ship("j1 h 1"))),
        Err(RecordError::NotAfloat(1))
    ));
    // a sunk ship must fit on the grid
    t.record(c("j5"), ShotResult::Hit).unwrap();
    let off = Ship::new(c("j5"), Orientation::Horizontal, 2);
    assert_eq!(
        t.record(c("j6"), ShotResult::Sunk(off)),
        Err(RecordError::ShipOffGrid(c("j5")))
    );
    // a hit of another ship right next to the one being sunk would make them touch
    t.record(c("h3"), ShotResult::Hit).unwrap();
    t.record(c("h4"), ShotResult::Hit).unwrap();
    assert_eq!(
        t.record(c("h5"), ShotResult::Sunk(ship("h4 v 2"))),
        Err(RecordError::KnownWater(c("h3")))
    );
    // 'game over' only for the last ship
    assert!(matches!(
        t.record(c("h5"), ShotResult::GameOver(ship("h3 v 3"))),
        Err(RecordError::WrongEnd(_))
    ));
    // nothing changed by the refused results
    assert_eq!(t.shots_fired(), 9);
    t.record(c("h5"), ShotResult::Sunk(ship("h3 v 3"))).unwrap();
    assert_eq!(t.afloat(), vec![4, 3, 2, 2, 2]);
}

#[test]
fn a_sunk_fleet_takes_no_more_results_and_the_last_ship_ends_the_game() {
    let rules = Rules::custom(5, 5, &[2, 1]).unwrap();
    let mut t = Tracking::new(rules);
    assert_eq!(
        t.record(c("f1"), ShotResult::Miss),
        Err(RecordError::OffGrid(c("f1")))
    );
    t.record(c("a1"), ShotResult::Sunk(ship("a1 h 1"))).unwrap();
    t.record(c("c3"), ShotResult::Hit).unwrap();
    assert!(matches!(
        t.record(c("d3"), ShotResult::Sunk(ship("c3 h 2"))),
        Err(RecordError::WrongEnd(_))
    ));
    t.record(c("d3"), ShotResult::GameOver(ship("c3 h 2")))
        .unwrap();
    assert_eq!(
        t.record(c("e5"), ShotResult::Miss),
        Err(RecordError::Finished)
    );
}

/// Plays a seeded game between two bots; returns it.
fn bot_game(rules: &Rules, seed: u64) -> Game {
    let sampler = UniformFleets::new(rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = Game::new(
        rules.clone(),
        sampler.sample(&mut rng),
        sampler.sample(&mut rng),
    )
    .unwrap();
    let mut bots = [
        Level::new(2).unwrap().shooter(rules),
        Level::new(3).unwrap().shooter(rules),
    ];
    while !g.is_over() {
        let p = g.side_to_move();
        let cell = bots[p.index()]
            .choose_move(g.view(p).tracking(), &mut rng)
            .unwrap();
        g.play(cell).unwrap();
    }
    g
}

#[test]
fn the_referee_results_replay_through_record_and_trackings_round_trip() {
    for (rules, seed) in [(Rules::russian(), 1), (Rules::classic(), 2)] {
        let g = bot_game(&rules, seed);
        for player in [Player::First, Player::Second] {
            let mut t = Tracking::new(rules.clone());
            for &(p, cell, outcome) in g.history() {
                if p == player {
                    t.record(cell, outcome).unwrap();
                }
            }
            let theirs = g.view(player).tracking();
            assert_eq!(&t, theirs);
            let bytes = postcard::to_allocvec(theirs).unwrap();
            let back: Tracking = postcard::from_bytes(&bytes).unwrap();
            assert_eq!(&back, theirs);
        }
    }
}

#[test]
fn stored_trackings_are_checked_on_load() {
    let rules = Rules::russian();
    let mut t = Tracking::new(rules);
    t.record(c("a1"), ShotResult::Sunk(ship("a1 h 1"))).unwrap();
    t.record(c("c1"), ShotResult::Hit).unwrap();
    let good = postcard::to_allocvec(&t).unwrap();
    // every truncation is an error, never a panic
    for n in 0..good.len() {
        assert!(postcard::from_bytes::<Tracking>(&good[..n]).is_err());
    }
    // data laid out as a tracking is stored, but impossible: refused with the reason
    #[derive(serde::Serialize)]
    struct Stored {
        rules: Rules,
        shots: Vec<(Coord, bool)>,
        sunk: Vec<Ship>,
    }
    let stored = |shots: &[(&str, bool)], sunk: &[&str]| {
        let s = Stored {
            rules: Rules::russian(),
            shots: shots.iter().map(|&(x, h)| (c(x), h)).collect(),
            sunk: sunk.iter().map(|&x| ship(x)).collect(),
        };
        postcard::from_bytes::<Tracking>(&postcard::to_allocvec(&s).unwrap())
    };
    assert_eq!(
        stored(&[("a1", true), ("c1", true)], &["a1 h 1"]).unwrap(),
        t
    );
    // a hit touching the sunk ship
    assert!(stored(&[("a1", true), ("b1", true)], &["a1 h 1"]).is_err());
    // a sunk ship that was not hit
    assert!(stored(&[("a1", true)], &["c1 h 1"]).is_err());
    // the same cell twice
    assert!(stored(&[("a1", false), ("a1", false)], &[]).is_err());
    // a ship sunk twice
    assert!(stored(&[("a1", true)], &["a1 h 1", "a1 h 1"]).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random announced results, some impossible: refused ones change nothing, accepted
    /// ones keep the tracking coherent, and every bot still picks a cell it may shoot.
    #[test]
    fn bots_cope_with_any_recorded_results(
        classic in any::<bool>(),
        seed in any::<u64>(),
        steps in proptest::collection::vec((0u8..10, 0u8..10, 0u8..4, 0u8..4, any::<bool>()), 0..60),
    ) {
        let rules = if classic { Rules::classic() } else { Rules::russian() };
        let mut t = Tracking::new(rules.clone());
        for (col, row, kind, len, vertical) in steps {
            let cell = Coord::new(col, row).unwrap();
            let o = if vertical { Orientation::Vertical } else { Orientation::Horizontal };
            let back = u8::from(len > 0) * (len % 2);
            let bow = if vertical {
                Coord::new(col, row.saturating_sub(back))
            } else {
                Coord::new(col.saturating_sub(back), row)
            }
            .unwrap();
            let s = Ship::new(bow, o, len + 1);
            let outcome = match kind {
                0 => ShotResult::Miss,
                1 => ShotResult::Hit,
                2 => ShotResult::Sunk(s),
                _ => ShotResult::GameOver(s),
            };
            let before = t.clone();
            match t.record(cell, outcome) {
                Ok(()) => {
                    prop_assert!(t.shots().has(cell.index(10)));
                    prop_assert_eq!(t.hits().0 & !t.shots().0, 0);
                    for s in t.sunk() {
                        prop_assert_eq!(s.mask(10).0 & !t.hits().0, 0);
                    }
                }
                Err(_) => prop_assert_eq!(&t, &before),
            }
        }
        let bytes = postcard::to_allocvec(&t).unwrap();
        prop_assert_eq!(&postcard::from_bytes::<Tracking>(&bytes).unwrap(), &t);
        if !t.unshot().is_empty() {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for level in Level::ALL {
                let mut bot = level.shooter(&rules);
                let cell = bot.choose_move(&t, &mut rng);
                prop_assert!(cell.is_some_and(|x| t.can_shoot(x)), "{} chose {:?}", level, cell);
            }
        }
    }
}
