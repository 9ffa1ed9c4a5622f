//! Rules, notation, placement, shooting, views, saves and bots.

use battleship_core::ai::{Bot, Level, PlacementStrategy, shots_to_sink};
use battleship_core::{
    Coord, Fleet, Game, LoadError, Mark, Orientation, Placement, PlayError, Player, Problem, Rules,
    Ship, ShotResult, UniformFleets,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn c(s: &str) -> Coord {
    s.parse().unwrap()
}

fn ships(list: &[&str]) -> Vec<Ship> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

/// A valid Russian fleet.
const RUSSIAN_A: [&str; 10] = [
    "a1 h 4", "a3 h 3", "e3 h 3", "a5 h 2", "d5 h 2", "g5 h 2", "a7 h 1", "c7 h 1", "e7 h 1",
    "g7 h 1",
];
/// Another valid Russian fleet, with no ship in rows 1–2.
const RUSSIAN_B: [&str; 10] = [
    "a10 h 4", "a8 h 3", "e8 h 3", "a6 h 2", "d6 h 2", "g6 h 2", "a4 h 1", "c4 h 1", "e4 h 1",
    "g4 h 1",
];

fn fleet(rules: &Rules, list: &[&str]) -> Fleet {
    Fleet::new(rules, ships(list)).unwrap()
}

#[test]
fn coordinates_parse_latin_and_russian_letters() {
    assert_eq!(c("e5"), Coord::new(4, 4).unwrap());
    assert_eq!(c("J10"), Coord::new(9, 9).unwrap());
    assert_eq!(c("а1"), c("a1"));
    assert_eq!(c("к10"), c("j10"));
    assert_eq!(c("Д5"), c("e5"));
    for (russian, latin) in "абвгдежзик".chars().zip("abcdefghij".chars()) {
        assert_eq!(c(&format!("{russian}3")), c(&format!("{latin}3")));
    }
    for bad in ["", "k1", "й1", "a0", "a11", "a", "5e", "a1x", "a-1", "aa1"] {
        assert!(bad.parse::<Coord>().is_err(), "{bad}");
    }
    assert_eq!(
        "k1".parse::<Coord>().unwrap_err().to_string(),
        "'k' is not a column: use a letter a…j (or а…к)"
    );
    for r in 0..10 {
        for col in 0..10 {
            let x = Coord::new(col, r).unwrap();
            assert_eq!(x.to_string().parse::<Coord>().unwrap(), x);
        }
    }
}

#[test]
fn ships_parse_and_print() {
    let s: Ship = "c3v2".parse().unwrap();
    assert_eq!(s.to_string(), "c3 v 2");
    assert_eq!(s.cells().collect::<Vec<_>>(), vec![c("c3"), c("c4")]);
    assert!("a1 x 3".parse::<Ship>().is_err());
    assert!("a1 h 9".parse::<Ship>().is_err());
    assert!("a1 h".parse::<Ship>().is_err());
    assert!("".parse::<Ship>().is_err());
    // a single-cell ship has one orientation
    assert_eq!(
        "a1 v 1".parse::<Ship>().unwrap(),
        "a1 h 1".parse::<Ship>().unwrap()
    );
}

#[test]
fn corner_touching_is_illegal_in_russian_and_legal_in_classic() {
    let russian = Rules::russian();
    let mut list = RUSSIAN_A.to_vec();
    list[2] = "f9 h 3";
    list[6] = "e2 h 1"; // touches a1 h 4 at the corner d1/e2
    let err = Fleet::new(&russian, ships(&list)).unwrap_err();
    assert_eq!(err.problems.len(), 1);
    match &err.problems[0] {
        Problem::Touching { cells, .. } => assert_eq!(cells, &vec![c("d1"), c("e2")]),
        p => panic!("unexpected {p:?}"),
    }
    let classic = Rules::classic();
    assert!(
        Fleet::new(
            &classic,
            ships(&["a1 h 5", "f2 h 4", "a3 h 3", "a4 h 3", "a5 h 2"])
        )
        .is_ok()
    );
    // touching by a side too
    assert!(
        Fleet::new(
            &classic.clone().with_ships_may_touch(false),
            ships(&["a1 h 5", "f2 h 4", "a3 h 3", "a4 h 3", "a5 h 2"])
        )
        .is_err()
    );
}

#[test]
fn validation_names_every_problem() {
    let rules = Rules::russian();
    let err = Fleet::new(&rules, ships(&["h1 h 4", "a1 h 3", "b1 v 3", "a5 h 2"])).unwrap_err();
    let kinds: Vec<&str> = err
        .problems
        .iter()
        .map(|p| match p {
            Problem::OffGrid { .. } => "off",
            Problem::Overlap { .. } => "overlap",
            Problem::Touching { .. } => "touch",
            Problem::WrongCount { .. } => "count",
            Problem::AllPlaced { .. } => "placed",
        })
        .collect();
    assert_eq!(kinds, ["off", "overlap", "count", "count"]);
    let text = err.to_string();
    assert!(text.contains("ship h1 h 4 goes off the grid"), "{text}");
    assert!(text.contains("overlap at b1"), "{text}");
    assert!(
        text.contains("1 ship(s) of length 2 instead of 3"),
        "{text}"
    );
    assert!(
        text.contains("0 ship(s) of length 1 instead of 4"),
        "{text}"
    );
    // an unknown length
    let err = Fleet::new(&rules, ships(&["a1 h 5"])).unwrap_err();
    assert!(
        err.to_string()
            .contains("1 ship(s) of length 5 instead of 0")
    );
}

#[test]
fn placement_api() {
    let mut p = Placement::new(Rules::russian());
    p.place("a1 h 4".parse().unwrap()).unwrap();
    // refused placements change nothing and say why
    assert!(p.place("b2 h 3".parse().unwrap()).is_err());
    assert!(p.place("a1 v 3".parse().unwrap()).is_err());
    assert!(p.place("j9 v 3".parse().unwrap()).is_err());
    assert_eq!(p.ships().len(), 1);
    assert!(matches!(
        p.problems_if(&"a3 h 4".parse().unwrap())[..],
        [Problem::AllPlaced { len: 4, ref placed }] if placed[..] == ["a1 h 4".parse::<Ship>().unwrap()]
    ));
    assert_eq!(
        p.place("a3 h 4".parse().unwrap()).unwrap_err().to_string(),
        "the fleet has 1 ship(s) of length 4, all placed: a1 h 4 (remove one first)"
    );
    // bow cells of a vertical 3-ship: rows 1–8, not next to a1–d1
    let bows = p.bow_cells(3, Orientation::Vertical);
    assert!(bows.contains(&c("f1")) && bows.contains(&c("a3")) && bows.contains(&c("j8")));
    assert!(!bows.contains(&c("e1")) && !bows.contains(&c("a2")) && !bows.contains(&c("a9")));
    assert_eq!(bows.len(), 10 * 8 - 5 - 5);
    // no second 4-ship can go anywhere
    assert!(p.bow_cells(4, Orientation::Horizontal).is_empty());
    // rotate and remove
    p.place("j1 h 1".parse().unwrap()).unwrap();
    assert!(p.rotate(c("b1")).is_ok());
    assert_eq!(p.ships()[1], "a1 v 4".parse().unwrap());
    p.place("h10 h 3".parse().unwrap()).unwrap();
    let before = p.clone();
    assert!(p.rotate(c("i10")).is_err(), "h10 v 3 leaves the grid");
    assert_eq!(p, before);
    p.place("c1 h 3".parse().unwrap()).unwrap();
    assert_eq!(p.rotate(c("d1")).unwrap(), Some("c1 v 3".parse().unwrap()));
    assert_eq!(p.remove(c("a3")), Some("a1 v 4".parse().unwrap()));
    assert_eq!(p.remove(c("a3")), None);
    assert_eq!(p.missing(), vec![4, 2, 2, 2, 1, 1, 1]);
    assert_eq!(p.ships().len(), 3);
    assert!(p.finish().is_err());
}

fn russian_game() -> Game {
    let rules = Rules::russian();
    Game::new(
        rules.clone(),
        fleet(&rules, &RUSSIAN_A),
        fleet(&rules, &RUSSIAN_B),
    )
    .unwrap()
}

#[test]
fn shots_outcomes_and_turns_under_russian_rules() {
    let mut g = russian_game();
    // first player shoots at fleet B
    assert_eq!(g.play(c("j1")).unwrap(), ShotResult::Miss);
    assert_eq!(g.side_to_move(), Player::Second);
    // repeated shots are refused without losing the turn
    assert_eq!(g.play(c("a1")).unwrap(), ShotResult::Hit);
    assert_eq!(g.side_to_move(), Player::Second, "a hit shoots again");
    assert_eq!(g.play(c("a1")), Err(PlayError::AlreadyShot(c("a1"))));
    assert_eq!(g.side_to_move(), Player::Second);
    for x in ["b1", "c1"] {
        assert_eq!(g.play(c(x)).unwrap(), ShotResult::Hit);
    }
    let sunk = g.play(c("d1")).unwrap();
    assert_eq!(sunk, ShotResult::Sunk("a1 h 4".parse().unwrap()));
    assert_eq!(g.side_to_move(), Player::Second, "sinking shoots again");
    // the water around the sunk ship is revealed and cannot be shot
    let t = g.view(Player::Second).tracking().clone();
    assert_eq!(t.mark(c("e1")), Mark::Water);
    assert_eq!(t.mark(c("e2")), Mark::Water);
    assert_eq!(t.mark(c("a2")), Mark::Water);
    assert_eq!(t.mark(c("a1")), Mark::Sunk);
    assert_eq!(t.mark(c("a3")), Mark::Unknown);
    assert!(!t.can_shoot(c("a1")) && t.can_shoot(c("e2")));
    assert!(!t.unknown().has(14) && t.unshot().has(14));
    assert_eq!(t.afloat(), vec![3, 3, 2, 2, 2, 1, 1, 1, 1]);
    // revealed water may still be shot (the rules only forbid shooting a cell twice): a
    // sure miss that passes the turn
    assert_eq!(g.play(c("e2")).unwrap(), ShotResult::Miss);
    assert_eq!(g.side_to_move(), Player::First);
    assert_eq!(g.view(Player::Second).tracking().mark(c("e2")), Mark::Miss);
}

#[test]
fn classic_turns_alternate_and_nothing_is_revealed() {
    let rules = Rules::classic();
    let f = fleet(&rules, &["a1 h 5", "a2 h 4", "a3 h 3", "a4 h 3", "a5 h 2"]);
    let mut g = Game::new(rules, f.clone(), f).unwrap();
    assert_eq!(g.play(c("a5")).unwrap(), ShotResult::Hit);
    assert_eq!(g.side_to_move(), Player::Second);
    assert_eq!(g.play(c("j10")).unwrap(), ShotResult::Miss);
    assert_eq!(
        g.play(c("b5")).unwrap(),
        ShotResult::Sunk("a5 h 2".parse().unwrap())
    );
    assert_eq!(
        g.view(Player::First).tracking().mark(c("a6")),
        Mark::Unknown
    );
    assert_eq!(g.side_to_move(), Player::Second);
}

#[test]
fn the_game_ends_when_a_fleet_is_sunk() {
    let mut g = russian_game();
    let targets: Vec<Coord> = g.fleet(Player::Second).mask(10).coords(10).collect();
    let mut last = None;
    for t in targets {
        last = Some(g.play(t).unwrap());
    }
    assert!(matches!(last, Some(ShotResult::GameOver(_))));
    assert_eq!(g.outcome().map(|o| o.winner), Some(Player::First));
    assert!(g.is_over());
    assert_eq!(g.play(c("j1")), Err(PlayError::GameOver));
    assert!(g.legal_moves().is_empty());
}

#[test]
fn views_do_not_reveal_the_opponent_fleet() {
    // Two games that differ only in the second player's fleet, with shots that miss both:
    // the first player's views are identical, byte for byte.
    let rules = Rules::russian();
    let b2: Vec<&str> = vec![
        "g10 h 4", "a8 h 3", "e8 h 3", "a6 h 2", "d6 h 2", "g6 h 2", "a4 h 1", "c4 h 1", "e4 h 1",
        "a10 h 1",
    ];
    let g1 = Game::new(
        rules.clone(),
        fleet(&rules, &RUSSIAN_A),
        fleet(&rules, &RUSSIAN_B),
    );
    let g2 = Game::new(rules.clone(), fleet(&rules, &RUSSIAN_A), fleet(&rules, &b2));
    let (mut g1, mut g2) = (g1.unwrap(), g2.unwrap());
    for shot in ["j1", "j2", "i2"] {
        assert_eq!(g1.play(c(shot)).unwrap(), ShotResult::Miss);
        assert_eq!(g2.play(c(shot)).unwrap(), ShotResult::Miss);
        // the second player shoots back the same cells
        g1.play(c(shot)).unwrap();
        g2.play(c(shot)).unwrap();
    }
    let v1 = postcard::to_allocvec(&g1.view(Player::First)).unwrap();
    let v2 = postcard::to_allocvec(&g2.view(Player::First)).unwrap();
    assert_eq!(v1, v2);
    assert_ne!(g1.fleet(Player::Second), g2.fleet(Player::Second));
    // and a bot given the view makes the same choice
    let mut r1 = ChaCha8Rng::seed_from_u64(1);
    let mut r2 = ChaCha8Rng::seed_from_u64(1);
    let mut b1 = Level::new(4).unwrap().shooter(&rules);
    let mut b2 = Level::new(4).unwrap().shooter(&rules);
    assert_eq!(
        b1.choose_move(g1.view(Player::First).tracking(), &mut r1),
        b2.choose_move(g2.view(Player::First).tracking(), &mut r2)
    );
}

#[test]
fn saves_round_trip_and_bad_data_is_an_error() {
    let mut g = russian_game();
    for shot in ["a1", "j1", "b1", "a10", "j10"] {
        let _ = g.play(c(shot));
    }
    let bytes = g.to_bytes();
    assert_eq!(&bytes[..4], b"TTBS");
    assert_eq!(Game::from_bytes(&bytes).unwrap(), g);
    for cut in 0..bytes.len() {
        assert!(Game::from_bytes(&bytes[..cut]).is_err(), "prefix {cut}");
    }
    let mut newer = bytes.clone();
    newer[4] = 9;
    assert_eq!(
        Game::from_bytes(&newer),
        Err(LoadError::NewerVersion {
            game: "Battleship",
            found: 9,
            supported: 1
        })
    );
    assert_eq!(
        Game::from_bytes(b"NOPE\x01\x00"),
        Err(LoadError::NotASave { game: "Battleship" })
    );
    // serde (JSON-like formats) replays the shots too
    let again: Game = postcard::from_bytes(&postcard::to_allocvec(&g).unwrap()).unwrap();
    assert_eq!(again, g);
}

#[test]
fn every_bot_sinks_fleets_with_legal_shots() {
    let rules = Rules::russian();
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut means = Vec::new();
    for level in Level::ALL {
        let mut total = 0;
        for _ in 0..6 {
            let mut g = Game::new(
                rules.clone(),
                sampler.sample(&mut rng),
                sampler.sample(&mut rng),
            )
            .unwrap();
            let mut bots = [level.shooter(&rules), level.shooter(&rules)];
            while !g.is_over() {
                let p = g.side_to_move();
                let cell = bots[p.index()]
                    .choose_move(g.view(p).tracking(), &mut rng)
                    .unwrap();
                g.play(cell).expect("bots shoot legal cells");
            }
            let fleet = sampler.sample(&mut rng);
            let mut bot = level.shooter(&rules);
            total += shots_to_sink(&mut bot, &rules, &fleet, &mut rng);
        }
        means.push(total);
    }
    // random is clearly the weakest
    assert!(means[0] > means[1] && means[0] > means[3], "{means:?}");
}

#[test]
fn border_placement_puts_more_cells_on_the_edge() {
    let rules = Rules::russian();
    let sampler = UniformFleets::new(&rules);
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let edge = |f: &Fleet| {
        f.mask(10)
            .coords(10)
            .filter(|x| x.row() % 9 == 0 || x.col() % 9 == 0)
            .count()
    };
    let (mut u, mut b) = (0, 0);
    for _ in 0..50 {
        u += edge(&PlacementStrategy::Uniform.place(&rules, &sampler, &mut rng));
        let f = PlacementStrategy::Border.place(&rules, &sampler, &mut rng);
        assert!(f.validate(&rules).is_ok());
        b += edge(&f);
    }
    assert!(b > u, "border {b} uniform {u}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_shot_sequence_keeps_the_game_consistent(
        seed in any::<u64>(),
        classic in any::<bool>(),
        shots in proptest::collection::vec((0u8..12, 0u8..12, any::<bool>()), 0..260),
    ) {
        let rules = if classic { Rules::classic() } else { Rules::russian() };
        let sampler = UniformFleets::new(&rules);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut g = Game::new(rules.clone(), sampler.sample(&mut rng), sampler.sample(&mut rng)).unwrap();
        for (col, row, undo) in shots {
            let before = g.clone();
            if undo && !g.history().is_empty() {
                // taking a shot back and playing it again gives the same game
                let cell = g.undo().unwrap();
                prop_assert_eq!(g.redo(), Some(cell));
                prop_assert_eq!(&g, &before);
                continue;
            }
            let result = match Coord::new(col, row) {
                Some(cell) => g.play(cell),
                None => continue,
            };
            if result.is_err() {
                prop_assert_eq!(&g, &before);
            }
            for p in [Player::First, Player::Second] {
                let t = g.view(p).tracking();
                let target = g.fleet(p.other()).mask(10).0;
                prop_assert_eq!(t.hits().0 & !target, 0);
                prop_assert_eq!(t.water().0 & target, 0);
                prop_assert_eq!(t.hits().0 & !t.shots().0, 0);
                let all_hit = t.hits().0 == target;
                prop_assert_eq!(all_hit, g.outcome().map(|o| o.winner) == Some(p));
            }
        }
        let replayed = Game::from_bytes(&g.to_bytes()).unwrap();
        prop_assert_eq!(replayed, g);
    }
}

#[test]
fn posterior_probabilities_match_exact_marginals() {
    use battleship_core::ai::Posterior;
    use battleship_core::ai::constraints;
    use battleship_core::{Cells, FleetSampler};
    let rules = Rules::custom(6, 6, &[3, 2, 1, 1]).unwrap();
    let target = Fleet::new(&rules, ships(&["b2 h 3", "f1 v 2", "a6 h 1", "e5 h 1"])).unwrap();
    let other = target.clone();
    let mut g = Game::new(rules.clone(), other, target).unwrap();
    // misses and one hit on the 3-ship (the turn stays with the first player on a hit)
    for shot in ["a1", "d4", "f6", "c2"] {
        g.play(c(shot)).unwrap();
        if g.side_to_move() == Player::Second {
            let cell = g.legal_moves()[0];
            g.play(cell).unwrap();
        }
    }
    let t = g.view(Player::First).tracking().clone();
    assert_eq!(t.open_hits().len(), 1);
    let exact = FleetSampler::with_fleet(&rules, &t.afloat(), constraints(&t), 1_000_000).unwrap();
    let occ = exact.occupancy();
    let mut post = Posterior::new(&rules).with_effort(300, 8);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let est = post.probabilities(&t, &mut rng).unwrap();
    let unknown: Vec<usize> = Cells(t.unknown().0).indices().collect();
    let err: f64 = unknown
        .iter()
        .map(|&i| (est[i] - occ[i] as f64 / exact.count() as f64).abs())
        .sum::<f64>()
        / unknown.len() as f64;
    assert!(err < 0.02, "mean absolute error {err}");
}
