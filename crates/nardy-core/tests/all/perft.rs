//! Perft counts from the start position, as given by the spec.

use nardy_core::{Opening, Position, Rules, perft};

fn reroll() -> Rules {
    Rules {
        opening: Opening::Reroll,
        ..Rules::default()
    }
}

#[test]
fn reroll_opening_depth_1_to_3() {
    let start = Position::start();
    assert_eq!(perft(&start, 1, &reroll()), 22);
    assert_eq!(perft(&start, 2, &reroll()), 484);
    assert_eq!(perft(&start, 3, &reroll()), 35_387);
}

#[test]
fn federation_opening_depth_1_to_3() {
    let start = Position::start();
    assert_eq!(perft(&start, 1, &Rules::default()), 15);
    assert_eq!(perft(&start, 2, &Rules::default()), 330);
    assert_eq!(perft(&start, 3, &Rules::default()), 22_228);
}

/// Depth 4 (not given by the spec; a regression check of this generator, whose depth 1-3
/// counts match the spec and whose turns match a reference implementation).
#[test]
fn depth_4_regression() {
    let start = Position::start();
    assert_eq!(perft(&start, 4, &reroll()), 2_411_418);
    assert_eq!(perft(&start, 4, &Rules::default()), 1_522_096);
}
