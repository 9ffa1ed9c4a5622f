//! Arbitrary shot sequences (on or off the grid, with shots taken back and played again)
//! on seeded fleets: a refused shot changes nothing, undo then redo is the same game, what
//! a player knows always agrees with the hidden fleet, and a save replays to the same game.

#![no_main]

use std::sync::OnceLock;

use battleship_core::{Coord, Game, Player, Rules, UniformFleets};
use libfuzzer_sys::fuzz_target;

/// Each rule set with its sampler, built once: building the Russian sampler takes a good
/// part of a second, which per input would leave the fuzzer almost no time to run shots.
fn setup(russian: bool) -> &'static (Rules, UniformFleets) {
    fn build(rules: Rules) -> (Rules, UniformFleets) {
        let sampler = UniformFleets::new(&rules);
        (rules, sampler)
    }
    static RUSSIAN: OnceLock<(Rules, UniformFleets)> = OnceLock::new();
    static CLASSIC: OnceLock<(Rules, UniformFleets)> = OnceLock::new();
    if russian {
        RUSSIAN.get_or_init(|| build(Rules::russian()))
    } else {
        CLASSIC.get_or_init(|| build(Rules::classic()))
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&head, shots)) = data.split_first() else {
        return;
    };
    let (rules, sampler) = setup(head & 1 == 0);
    let seed = u64::from(head);
    let (a, b) = (
        sampler.sample_seeded(seed),
        sampler.sample_seeded(seed + 1000),
    );
    let mut game = Game::new(rules.clone(), a, b).unwrap();
    for &b in shots.iter().take(400) {
        let before = game.clone();
        if b & 0x80 != 0 {
            // take the last shot back and play it again: the same game
            if let Some(cell) = game.undo() {
                assert_eq!(game.redo(), Some(cell));
                assert_eq!(game, before);
            }
            continue;
        }
        let Some(cell) = Coord::new(b % 11, b / 11) else {
            continue;
        };
        if game.play(cell).is_err() {
            assert_eq!(game, before);
        }
        for p in [Player::First, Player::Second] {
            let t = game.view(p).tracking();
            let target = game.fleet(p.other()).mask(10).0;
            assert_eq!(t.hits().0 & !target, 0);
            assert_eq!(t.water().0 & target, 0);
        }
    }
    assert_eq!(Game::from_bytes(&game.to_bytes()).unwrap(), game);
});
