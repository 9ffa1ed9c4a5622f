//! The static evaluation: trained pattern tables (see [`super::pattern`]) by default, or
//! a hand-tuned evaluation built from the classic Othello features: mobility,
//! potential mobility (frontier), corners, X- and C-squares, an edge pattern table with
//! edge stability, stable discs and parity. Weights move linearly from the opening to
//! the endgame with the number of discs on the board.
//!
//! Scores are in hundredths of a disc from the side to move's view: an exact final
//! result of `+6` discs is `600`.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::bits::{CORNERS, around, stable_discs};
use super::pattern::PatternWeights;
use crate::bitboard::legal_moves;

/// Evaluation units per disc of final score.
pub const DISC: i32 = 100;

/// Feature weights at the start (index 0) and at the end (index 1) of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per legal move of the side to move, minus the opponent's.
    pub mobility: [i32; 2],
    /// Per empty square next to an opponent disc, minus those next to our discs.
    pub potential_mobility: [i32; 2],
    /// Per owned corner (on top of the edge table).
    pub corner: [i32; 2],
    /// Per owned X-square (b2, g2, b7, g7) next to an empty corner (a penalty).
    pub x_square: [i32; 2],
    /// Per stable disc.
    pub stable: [i32; 2],
    /// Scale of the edge table, in percent.
    pub edge: [i32; 2],
    /// Bonus for the side to move when the number of empty squares is odd.
    pub parity: [i32; 2],
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            mobility: [70, 35],
            potential_mobility: [18, 6],
            corner: [500, 250],
            x_square: [-350, -120],
            stable: [60, 100],
            edge: [100, 60],
            parity: [0, 120],
        }
    }
}

/// The static evaluation: the trained pattern tables (the default: `Evaluator::trained`
/// with the `shipped-weights` feature, [`Evaluator::with_patterns`] of a file read at run
/// time without it), or the hand-tuned features ([`Evaluator::new`]).
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// The trained tables, when in use.
    patterns: Option<Arc<PatternWeights>>,
    weights: Weights,
    /// Value of each edge configuration (index in base 3: 0 empty, 1 own, 2 opponent).
    edge: Vec<i16>,
    /// Base-3 spreading of a byte: bit `i` becomes `3^i`.
    base3: [u16; 256],
}

#[cfg(feature = "shipped-weights")]
impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::trained()
    }
}

/// X-squares and their corners.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];

/// Value of one edge line (8 cells, 0 empty, 1 own, 2 opponent) for the owner of `1`.
fn edge_value(cells: &[u8; 8]) -> i32 {
    // Positional value of each cell of an edge, for its owner.
    const SQUARE: [i32; 8] = [0, -25, 10, 5, 5, 10, -25, 0];
    let sign = |c: u8| match c {
        1 => 1,
        2 => -1,
        _ => 0,
    };
    let mut value = 0;
    for (i, &c) in cells.iter().enumerate() {
        value += sign(c) * SQUARE[i];
    }
    // Stable edge discs: runs anchored on an occupied corner, or a full edge.
    let mut stable = [false; 8];
    if cells.iter().all(|&c| c != 0) {
        stable = [true; 8];
    } else {
        for &(start, step) in &[(0i32, 1i32), (7, -1)] {
            let owner = cells[start as usize];
            if owner == 0 {
                continue;
            }
            let mut i = start;
            while (0..8).contains(&i) && cells[i as usize] == owner {
                stable[i as usize] = true;
                i += step;
            }
        }
    }
    for i in 0..8 {
        if stable[i] {
            value += sign(cells[i]) * 40;
        }
    }
    // C-squares next to an empty corner are a liability.
    for &(corner, c) in &[(0usize, 1usize), (7, 6)] {
        if cells[corner] == 0 && cells[c] != 0 {
            value -= sign(cells[c]) * 60;
        }
    }
    value
}

impl Evaluator {
    /// An evaluator with these weights.
    pub fn new(weights: Weights) -> Evaluator {
        let mut base3 = [0u16; 256];
        for (byte, slot) in base3.iter_mut().enumerate() {
            let mut v = 0u16;
            let mut pow = 1u16;
            for bit in 0..8 {
                if byte & (1 << bit) != 0 {
                    v += pow;
                }
                pow *= 3;
            }
            *slot = v;
        }
        let mut edge = alloc::vec![0i16; 6561];
        for (index, slot) in edge.iter_mut().enumerate() {
            let mut cells = [0u8; 8];
            let mut x = index;
            for c in &mut cells {
                *c = (x % 3) as u8;
                x /= 3;
            }
            *slot = edge_value(&cells) as i16;
        }
        Evaluator {
            patterns: None,
            weights,
            edge,
            base3,
        }
    }

    /// The hand-tuned evaluation with the default [`Weights`] (used to generate the
    /// first training games).
    pub fn hand_tuned() -> Evaluator {
        Evaluator::new(Weights::default())
    }

    /// The evaluation with the pattern weights shipped with the crate (the
    /// `shipped-weights` feature).
    #[cfg(feature = "shipped-weights")]
    pub fn trained() -> Evaluator {
        Evaluator::with_patterns(PatternWeights::shipped())
    }

    /// The evaluation with these pattern weights.
    pub fn with_patterns(patterns: PatternWeights) -> Evaluator {
        Evaluator {
            patterns: Some(Arc::new(patterns)),
            ..Evaluator::hand_tuned()
        }
    }

    /// The pattern weights, when the evaluation uses them.
    pub fn patterns(&self) -> Option<&PatternWeights> {
        self.patterns.as_deref()
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    #[inline(always)]
    fn edge_index(&self, own: u8, other: u8) -> usize {
        usize::from(self.base3[own as usize]) + 2 * usize::from(self.base3[other as usize])
    }

    /// The value of the four edges for `own`.
    #[inline]
    fn edges(&self, own: u64, other: u64) -> i32 {
        let row1 = self.edge_index(own as u8, other as u8);
        let row8 = self.edge_index((own >> 56) as u8, (other >> 56) as u8);
        let col_a = self.edge_index(column(own, 0), column(other, 0));
        let col_h = self.edge_index(column(own, 7), column(other, 7));
        i32::from(self.edge[row1])
            + i32::from(self.edge[row8])
            + i32::from(self.edge[col_a])
            + i32::from(self.edge[col_h])
    }

    /// The evaluation of (`player` to move, `opponent`), in hundredths of a disc.
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        if let Some(patterns) = &self.patterns {
            return patterns.evaluate(player, opponent);
        }
        let w = &self.weights;
        let occupied = player | opponent;
        let empty = !occupied;
        let discs = occupied.count_ones() as i32;
        // 0 at the start (4 discs), 60 at the end (64 discs).
        let t = (discs - 4).clamp(0, 60);
        let mix = |pair: [i32; 2]| (pair[0] * (60 - t) + pair[1] * t) / 60;

        let my_moves = legal_moves(player, opponent);
        let their_moves = legal_moves(opponent, player);
        let mobility = my_moves.count_ones() as i32 - their_moves.count_ones() as i32
            + (my_moves & CORNERS).count_ones() as i32
            - (their_moves & CORNERS).count_ones() as i32;
        let potential = (around(opponent) & empty).count_ones() as i32
            - (around(player) & empty).count_ones() as i32;
        let corners =
            (player & CORNERS).count_ones() as i32 - (opponent & CORNERS).count_ones() as i32;
        let mut x_squares = 0;
        for &(x, corner) in &X_SQUARES {
            if corner & empty != 0 {
                x_squares += i32::from(player & x != 0) - i32::from(opponent & x != 0);
            }
        }
        let stable = if occupied & CORNERS != 0 {
            stable_discs(player, opponent).count_ones() as i32
                - stable_discs(opponent, player).count_ones() as i32
        } else {
            0
        };
        let parity = if empty.count_ones() & 1 == 1 { 1 } else { 0 };

        let score = mix(w.mobility) * mobility
            + mix(w.potential_mobility) * potential
            + mix(w.corner) * corners
            + mix(w.x_square) * x_squares
            + mix(w.stable) * stable
            + mix(w.edge) * self.edges(player, opponent) / 100
            + mix(w.parity) * parity;
        score.clamp(-63 * DISC, 63 * DISC)
    }
}

/// The 8 discs of column `file` as a byte (row 1 in bit 0).
#[inline(always)]
fn column(bits: u64, file: u32) -> u8 {
    let col = (bits >> file) & 0x0101_0101_0101_0101;
    (col.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_extraction() {
        // a1, a3 and a8.
        let bits = 1 | (1 << 16) | (1 << 56);
        let c = column(bits, 0);
        assert_eq!(c.count_ones(), 3);
        assert_eq!(column(1 << 63, 7).count_ones(), 1);
        assert_eq!(column(0xFF, 3), 1);
    }

    #[test]
    fn evaluation_is_antisymmetric_in_spirit() {
        let e = Evaluator::hand_tuned();
        // Start position: symmetric, so the score is small.
        let black = (1 << 28) | (1 << 35);
        let white = (1 << 27) | (1 << 36);
        assert!(e.evaluate(black, white).abs() < 100);
        // Owning a corner is good.
        let with_corner = e.evaluate(black | 1, white);
        let against_corner = e.evaluate(black, white | 1);
        assert!(with_corner > against_corner + 200);
    }

    #[test]
    fn edge_table_prefers_corners_and_dislikes_c_squares() {
        let corner = edge_value(&[1, 0, 0, 0, 0, 0, 0, 0]);
        let c_square = edge_value(&[0, 1, 0, 0, 0, 0, 0, 0]);
        assert!(corner > 0 && c_square < 0);
        assert_eq!(
            edge_value(&[1, 1, 1, 1, 1, 1, 1, 1]),
            -edge_value(&[2, 2, 2, 2, 2, 2, 2, 2])
        );
    }
}
