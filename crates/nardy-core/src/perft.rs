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
    let mut tt = Table::new(depth);
    inner(
        &mut levels,
        &mut tt,
        position,
        rules,
        first_only_non_doubles,
    )
}

/// A transposition table of perft counts: the count of a position and a depth does not
/// depend on the path that reached it, and many paths transpose (the same two turns of one
/// side in either order).
struct Table {
    entries: Vec<Entry>,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    white: u128,
    black: u128,
    /// 0: empty; else `depth << 1 | turn` plus one.
    tag: u32,
    count: u64,
}

impl Table {
    fn new(depth: u32) -> Table {
        let size = match depth {
            0..=2 => 0,
            3 => 1 << 12,
            4 => 1 << 16,
            _ => 1 << 18,
        };
        Table {
            entries: alloc::vec![Entry::default(); size],
        }
    }

    fn slot(&self, p: &Position, depth: usize) -> Option<(usize, u32)> {
        if self.entries.is_empty() || depth < 1 {
            return None;
        }
        let w = p.sides[0].packed;
        let b = p.sides[1].packed;
        let mut h = (w as u64) ^ ((w >> 64) as u64).rotate_left(17);
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= (b as u64) ^ ((b >> 64) as u64).rotate_left(41);
        h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^= h >> 29;
        let tag = (((depth as u32) << 1) | p.turn.index() as u32) + 1;
        Some(((h as usize) & (self.entries.len() - 1), tag))
    }

    fn get(&self, p: &Position, depth: usize) -> Option<u64> {
        let (i, tag) = self.slot(p, depth)?;
        let e = &self.entries[i];
        (e.tag == tag && e.white == p.sides[0].packed && e.black == p.sides[1].packed)
            .then_some(e.count)
    }

    fn put(&mut self, p: &Position, depth: usize, count: u64) {
        if let Some((i, tag)) = self.slot(p, depth) {
            self.entries[i] = Entry {
                white: p.sides[0].packed,
                black: p.sides[1].packed,
                tag,
                count,
            };
        }
    }
}

/// The rolls considered at one node.
fn rolls(non_doubles_only: bool) -> impl Iterator<Item = Dice> {
    Dice::ALL
        .into_iter()
        .filter(move |d| !non_doubles_only || !d.is_double())
}

fn inner(
    levels: &mut [(Generator, Vec<Position>)],
    tt: &mut Table,
    position: &Position,
    rules: &Rules,
    non_doubles_only: bool,
) -> u64 {
    let depth = levels.len();
    let cacheable = !non_doubles_only;
    if cacheable && let Some(n) = tt.get(position, depth) {
        return n;
    }
    let Some(((generator, children), rest)) = levels.split_first_mut() else {
        return 1;
    };
    let mut total = 0;
    if rest.is_empty() {
        for dice in rolls(non_doubles_only) {
            total += generator.count_moves(position, dice, rules) as u64;
        }
        return total;
    }
    for dice in rolls(non_doubles_only) {
        children.clear();
        generator.children(position, dice, rules, children);
        for child in children.iter() {
            total += inner(rest, tt, child, rules, false);
        }
    }
    if cacheable {
        tt.put(position, depth, total);
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
    let mut tt = Table::new(depth);
    let mut out = Vec::new();
    for dice in rolls(first_only_non_doubles) {
        let (first, rest) = levels.split_first_mut().expect("depth >= 1");
        let mut children = Vec::new();
        first.0.children(position, dice, rules, &mut children);
        let n: u64 = children
            .iter()
            .map(|c| inner(rest, &mut tt, c, rules, false))
            .sum();
        out.push((dice, n));
    }
    out
}
