//! Counting turns to verify move generation.

use alloc::vec::Vec;

use crate::dice::Dice;
use crate::movegen::Generator;
use crate::position::{Color, Position};
use crate::rules::{Opening, Rules};

/// The number of distinct positions reached after `depth` turns, summed over the 21 rolls
/// at every turn without probability weights; a forced pass counts as one position.
///
/// With the federation opening ([`Opening::RollOff`]), the first turn of the game (both
/// sides with all 15 checkers on their heads) uses only the 15 non-double rolls, because
/// the first mover plays the two different dice of the roll-off.
///
/// ```
/// use nardy_core::{Opening, Position, Rules, perft};
/// let reroll = Rules { opening: Opening::Reroll, ..Rules::default() };
/// assert_eq!(perft(&Position::start(), 1, &reroll), 22);
/// assert_eq!(perft(&Position::start(), 2, &Rules::default()), 330);
/// ```
pub fn perft(position: &Position, depth: u32, rules: &Rules) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut levels: Vec<(Generator, Vec<Position>)> =
        (0..depth).map(|_| (Generator::new(), Vec::new())).collect();
    let game_start = position.on_first_turn(Color::White) && position.on_first_turn(Color::Black);
    let first_only_non_doubles = rules.opening == Opening::RollOff && game_start;
    inner(&mut levels, position, rules, first_only_non_doubles)
}

/// The rolls considered at one node.
fn rolls(non_doubles_only: bool) -> impl Iterator<Item = Dice> {
    Dice::ALL
        .into_iter()
        .filter(move |d| !non_doubles_only || !d.is_double())
}

fn inner(
    levels: &mut [(Generator, Vec<Position>)],
    position: &Position,
    rules: &Rules,
    non_doubles_only: bool,
) -> u64 {
    let Some(((generator, children), rest)) = levels.split_first_mut() else {
        return 1;
    };
    let mut total = 0;
    if rest.is_empty() {
        for dice in rolls(non_doubles_only) {
            total += generator.count_turns(position, dice, rules) as u64;
        }
        return total;
    }
    for dice in rolls(non_doubles_only) {
        children.clear();
        generator.children(position, dice, rules, children);
        for child in children.iter() {
            total += inner(rest, child, rules, false);
        }
    }
    total
}

/// Per-roll breakdown of `perft`: for each of the 21 rolls (or 15 on the federation's first
/// turn), the perft count of `depth` turns starting with that roll.
pub fn perft_divide(position: &Position, depth: u32, rules: &Rules) -> Vec<(Dice, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let game_start = position.on_first_turn(Color::White) && position.on_first_turn(Color::Black);
    let first_only_non_doubles = rules.opening == Opening::RollOff && game_start;
    let mut levels: Vec<(Generator, Vec<Position>)> =
        (0..depth).map(|_| (Generator::new(), Vec::new())).collect();
    let mut out = Vec::new();
    for dice in rolls(first_only_non_doubles) {
        let (first, rest) = levels.split_first_mut().expect("depth >= 1");
        let mut children = Vec::new();
        first.0.children(position, dice, rules, &mut children);
        let n: u64 = children.iter().map(|c| inner(rest, c, rules, false)).sum();
        out.push((dice, n));
    }
    out
}
