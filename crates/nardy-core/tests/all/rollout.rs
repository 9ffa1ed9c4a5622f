//! Rollouts: exact where the game is decided, the same however the trials are split,
//! and the same dice for every candidate.

use nardy_core::ai::{Level, RolloutStats, rollout};
use nardy_core::{Color, Game, Position, Rules};

fn bots(rules: &Rules) -> [Box<dyn nardy_core::ai::Bot>; 2] {
    [
        Level::new(3).unwrap().bot_without_resources(rules).unwrap(),
        Level::new(3).unwrap().bot_without_resources(rules).unwrap(),
    ]
}

#[test]
fn a_decided_position_rolls_out_to_its_exact_value() {
    // White bears off its last checker with any roll; Black has none home: a mars.
    let rules = Rules::default();
    let position: Position = "1:1/12:15 w".parse().unwrap();
    let start = Game::from_position(rules, position, 0).unwrap();
    let [mut w, mut b] = bots(&rules);
    let stats = rollout(&start, 0..72, 5, [w.as_mut(), b.as_mut()], Color::White);
    assert_eq!(stats.trials, 72);
    assert_eq!(stats.mean(), 2.0);
    assert_eq!(stats.interval95(), 0.0);
    assert_eq!(
        (stats.wins, stats.mars_wins, stats.mars_losses),
        (72, 72, 0)
    );
    let black_view = rollout(&start, 0..36, 5, [w.as_mut(), b.as_mut()], Color::Black);
    assert_eq!(black_view.mean(), -2.0);
    assert_eq!(black_view.mars_losses, 36);
}

#[test]
fn trials_split_between_workers_give_the_same_stats() {
    let rules = Rules::default();
    let start = Game::new(rules, 3);
    let [mut w, mut b] = bots(&rules);
    let whole = rollout(&start, 0..40, 11, [w.as_mut(), b.as_mut()], Color::White);
    let mut parts = RolloutStats::default();
    for range in [0..13, 13..14, 14..40] {
        let [mut w, mut b] = bots(&rules);
        parts.merge(&rollout(
            &start,
            range,
            11,
            [w.as_mut(), b.as_mut()],
            Color::White,
        ));
    }
    assert_eq!(parts, whole);
    assert!(whole.mean().abs() <= 3.0 && whole.interval95() > 0.0);
    // Another seed throws other dice after the first two rolls.
    let other = rollout(&start, 0..40, 12, [w.as_mut(), b.as_mut()], Color::White);
    assert_ne!(other, whole);
}
