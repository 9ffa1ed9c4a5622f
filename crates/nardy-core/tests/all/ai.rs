//! The bots and evaluations: legal turns from every level, equity bounds, mirror
//! symmetry, determinism.

use nardy_core::ai::{Evaluator, HandEval, Level, Search, SearchConfig, analyse_game, play_game};
use nardy_core::{Color, Dice, Game, Position, Rules};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::resources;

/// A position reached by `turns` random turns from the start with the dice of `seed`,
/// and the dice thrown for the next turn.
fn random_position(seed: u64, turns: usize) -> Option<(Position, Dice)> {
    let rules = Rules::default();
    let mut game = Game::new(rules, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bot = Level::MIN.bot_with(&rules, resources());
    for _ in 0..turns {
        if game.outcome().is_some() {
            return None;
        }
        let mv = bot.choose_move(game.position(), game.dice(), &mut rng)?;
        game.play(&mv).unwrap();
    }
    game.outcome()
        .is_none()
        .then(|| (*game.position(), game.dice()))
}

/// The same game with the colours swapped: each side's checkers on the other's path
/// coordinates, the other side to move.
fn mirror(p: &Position) -> Position {
    let rot = |x: usize| if x < 12 { x + 12 } else { x - 12 };
    let (w, b) = (p.board(Color::White), p.board(Color::Black));
    let (mut nw, mut nb) = ([0u8; 24], [0u8; 24]);
    for i in 0..24 {
        nw[rot(i)] = b[i];
        nb[rot(i)] = w[i];
    }
    Position::from_boards(nw, nb, p.side_to_move().other()).unwrap()
}

fn check_level(level: Level, seed: u64, turns: usize) -> Result<(), TestCaseError> {
    let rules = Rules::default();
    let Some((position, dice)) = random_position(seed, turns) else {
        return Ok(());
    };
    let mut bot = level.bot_with(&rules, resources());
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 77);
    let mv = bot.choose_move(&position, dice, &mut rng);
    let legal = position.legal_moves(dice, &rules);
    prop_assert!(
        mv.as_ref().is_some_and(|m| legal.contains(m)),
        "{level} {position} {dice}: {mv:?}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn fast_levels_return_legal_turns(seed in any::<u64>(), turns in 0usize..160) {
        for level in Level::ALL.into_iter().filter(|l| l.get() <= 5) {
            check_level(level, seed, turns)?;
        }
    }

    #[test]
    fn evaluations_are_bounded_and_mirror_symmetric(seed in any::<u64>(), turns in 0usize..160) {
        let Some((p, _)) = random_position(seed, turns) else { return Ok(()) };
        let rules = Rules { scoring: nardy_core::Scoring::WithKoks, ..Rules::default() };
        let learned = resources().learned();
        for e in [&HandEval as &dyn Evaluator, &learned] {
            let a = e.evaluate(&p);
            let sum: f32 = a.exclusive().iter().sum();
            prop_assert!((sum - 1.0).abs() < 1e-4);
            prop_assert!(a.exclusive().iter().all(|&x| x >= -1e-6));
            let eq = a.equity(&rules);
            prop_assert!((-3.0..=3.0).contains(&eq));
            // The mirror has the other colour to move with the same checkers: the same
            // equity for the side to move, so the opposite for each colour.
            let b = e.evaluate(&mirror(&p));
            prop_assert!((eq - b.equity(&rules)).abs() < 1e-5, "{p}: {eq} vs {}", b.equity(&rules));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn the_expert_returns_legal_turns(seed in any::<u64>(), turns in 0usize..120) {
        check_level(Level::MAX, seed, turns)?;
    }
}

/// `Level::bot` (the compiled-in network) plays exactly as `Level::bot_with` the file read
/// at run time, and the levels without resources as their hand-made bots; without the
/// feature only `bot_with` and `bot_without_resources` exist.
#[test]
fn a_network_read_at_run_time_plays_as_the_shipped_one() {
    let rules = Rules::default();
    let r = resources();
    for level in Level::ALL {
        let hand = level.bot_without_resources(&rules);
        assert_eq!(hand.is_none(), level.needs_resources(), "{level}");
        assert_eq!(
            level.search_without_resources(&rules).is_none(),
            level.needs_resources()
        );
    }
    let greedy = Level::new(3).unwrap();
    let play = |mut a: Box<dyn nardy_core::ai::Bot>, mut b: Box<dyn nardy_core::ai::Bot>| {
        play_game(&rules, 5, a.as_mut(), b.as_mut()).to_bytes()
    };
    let with = play(
        Level::new(4).unwrap().bot_with(&rules, r),
        greedy.bot_without_resources(&rules).unwrap(),
    );
    assert_eq!(
        with,
        play(
            Level::new(4).unwrap().bot_with(&rules, r),
            greedy.bot_with(&rules, r)
        )
    );
    #[cfg(feature = "shipped-weights")]
    assert_eq!(
        with,
        play(Level::new(4).unwrap().bot(&rules), greedy.bot(&rules)),
        "the compiled-in network plays as the file"
    );
}

#[test]
fn same_seed_same_game() {
    let rules = Rules::default();
    let r = resources();
    let play = || {
        let mut a = Level::new(4).unwrap().bot_with(&rules, r);
        let mut b = Level::new(2).unwrap().bot_with(&rules, r);
        play_game(&rules, 11, a.as_mut(), b.as_mut()).to_bytes()
    };
    assert_eq!(play(), play());
}

#[test]
fn analysis_of_a_game_by_the_same_bot_loses_nothing() {
    let rules = Rules::default();
    let r = resources();
    let mut a = Level::new(4).unwrap().bot_with(&rules, r);
    let mut b = Level::new(1).unwrap().bot_with(&rules, r);
    let game = play_game(&rules, 3, a.as_mut(), b.as_mut());
    let mut search = Level::new(4).unwrap().search(&rules, r);
    let analysis = analyse_game(&game, &mut search);
    assert_eq!(analysis.turns.len(), game.history().len());
    let (learned, random) = (Color::White, Color::Black);
    // The learned bot played the search's own choice every time.
    assert!(
        analysis.lost(learned).abs() < 1e-6,
        "{}",
        analysis.lost(learned)
    );
    assert!(analysis.lost(random) > 1.0);
    let worst = analysis.worst();
    assert!(worst.windows(2).all(|w| w[0].loss >= w[1].loss));
    assert!(worst.iter().all(|t| t.color == random));
}

#[test]
fn hints_rank_every_turn_with_its_loss() {
    let rules = Rules::default();
    let mut search = Search::new(resources().learned(), rules, SearchConfig::plies(1));
    let p = Position::start();
    let dice = Dice::new(6, 5).unwrap();
    let ranked = search.rank(&p, dice);
    assert_eq!(ranked.len(), p.legal_moves(dice, &rules).len());
    assert_eq!(ranked[0].loss, 0.0);
    assert!(ranked.iter().all(|r| r.loss >= 0.0));
}
