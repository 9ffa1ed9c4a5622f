//! Golden choices of the strong (1-ply) and expert (2-ply) levels: a few decisions of the
//! fixed set of `examples/nardy_decisions.rs`, with the turn each level chose and the
//! bits of its best equity with the shipped network (the one of 5 December). A speed-up
//! of the search must keep both; new weights give new values.

use nardy_core::ai::{SearchBot, SearchConfig};
use nardy_core::{Dice, Position, Rules};

use crate::resources;

/// Position, dice, strong's turn and equity bits, expert's turn and equity bits.
type Golden = (&'static str, (u8, u8), &'static str, u32, &'static str, u32);

const GOLDEN: [Golden; 6] = [
    // Decision 66.
    (
        "17:1,16:1,6:1,5:1,4:2,3:3,2:2,1:4/20:1,19:1,15:10,14:3 b",
        (4, 2),
        "19/15 15/13",
        0x3f39fd15,
        "19/15 15/13",
        0x3f4446e4,
    ),
    // Decision 177.
    (
        "23:5,2:4,1:6/19:1,18:3,17:2,16:3,15:2,14:2,13:2 w",
        (4, 1),
        "2/1",
        0xbfff2722,
        "23/22",
        0xbfff3094,
    ),
    // Decision 41.
    (
        "19:1,18:1,16:2,15:1,13:1,7:1,6:1,5:1,4:1,3:2,2:2,1:1/23:2,21:1,17:6,14:6 b",
        (6, 3),
        "23/17 17/14",
        0x3f81be5c,
        "23/17 17/14",
        0x3f8208e6,
    ),
    // Decision 25.
    (
        "24:8,22:1,21:2,20:1,18:1,14:1,7:1/23:1,19:1,17:1,12:7,11:1,10:1,6:1,2:2 w",
        (3, 1),
        "24/21 21/20",
        0xbefca74e,
        "24/21 21/20",
        0xbf0204e4,
    ),
    // Decision 114.
    (
        "6:4,5:9,1:1/21:1,18:2,17:1,15:5,14:5,3:1 w",
        (5, 3),
        "5/off 5/2",
        0x3ede6e7a,
        "5/off 5/2",
        0x3ec259a9,
    ),
    // Decision 22.
    (
        "24:12,21:1,20:1,15:1/12:12,2:2,1:1 b",
        (2, 1),
        "1/23 12/11",
        0x3e97c6f6,
        "1/23 12/11",
        0x3e88a1fb,
    ),
];

fn choice(plies: u8, p: &Position, dice: Dice) -> (String, u32) {
    let rules = Rules::default();
    let mut bot = SearchBot::new(
        resources().learned(),
        rules,
        SearchConfig::plies(plies),
        0.0,
    );
    let ranked = bot.search.rank(p, dice);
    (ranked[0].mv.to_string(), ranked[0].equity.to_bits())
}

#[test]
fn strong_and_expert_choose_as_before() {
    for (text, (a, b), strong, strong_bits, expert, expert_bits) in GOLDEN {
        let p: Position = text.parse().unwrap();
        let dice = Dice::new(a, b).unwrap();
        assert_eq!(
            choice(1, &p, dice),
            (strong.to_string(), strong_bits),
            "{text}"
        );
        assert_eq!(
            choice(2, &p, dice),
            (expert.to_string(), expert_bits),
            "{text}"
        );
    }
}
