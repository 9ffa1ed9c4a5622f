//! Bitboard helpers for the search: final scores, parity regions, stable discs.

use crate::bitboard::{self, FILE_A, FILE_H};

/// Every square of row 1.
pub(crate) const RANK_1: u64 = 0xFF;
/// Every square of row 8.
pub(crate) const RANK_8: u64 = 0xFF << 56;
/// The border squares.
pub(crate) const EDGES: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;
/// The four corners.
pub(crate) const CORNERS: u64 = 1 | (1 << 7) | (1 << 56) | (1 << 63);

/// The four 4×4 quadrants, the regions of the parity heuristic.
pub(crate) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The (up to 8) squares around each square.
pub(crate) const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let b = 1u64 << sq;
        let mut n = 0;
        let mut dir = 0;
        while dir < 8 {
            n |= bitboard::shift(b, dir);
            dir += 1;
        }
        table[sq] = n;
        sq += 1;
    }
    table
};

/// Every square next to a disc of `discs` (in any of the 8 directions).
#[inline(always)]
pub(crate) const fn around(discs: u64) -> u64 {
    let h = ((discs << 1) & !FILE_A) | ((discs >> 1) & !FILE_H);
    let row = discs | h;
    h | (row << 8) | (row >> 8)
}

/// The squares of the quadrants that hold an odd number of the `empty` squares.
#[inline(always)]
pub(crate) const fn odd_regions(empty: u64) -> u64 {
    let mut odd = 0;
    let mut i = 0;
    while i < 4 {
        if (empty & QUADRANTS[i]).count_ones() & 1 == 1 {
            odd |= QUADRANTS[i];
        }
        i += 1;
    }
    odd
}

/// The exact final score of a finished game for the side owning `player`: disc
/// difference with the empty squares going to the winner.
#[inline(always)]
pub(crate) const fn final_score(player: u64, opponent: u64) -> i32 {
    let p = player.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    if p > o {
        64 - 2 * o
    } else if p < o {
        2 * p - 64
    } else {
        0
    }
}

/// The 15 diagonals parallel to a1–h8 and the 15 parallel to h1–a8.
const DIAGONALS: [u64; 30] = {
    let mut masks = [0u64; 30];
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        // a1-h8 direction: rank - file constant (-7..=7).
        masks[(rank + 7 - file) as usize] |= 1 << sq;
        // h1-a8 direction: rank + file constant (0..=14).
        masks[15 + (rank + file) as usize] |= 1 << sq;
        sq += 1;
    }
    masks
};

/// The squares whose line in each direction is full: (rows, columns, a1-h8 diagonals,
/// h1-a8 diagonals).
#[inline]
fn full_lines(occupied: u64) -> (u64, u64, u64, u64) {
    let mut h = 0;
    let mut r = 0;
    while r < 8 {
        let row = 0xFFu64 << (8 * r);
        if occupied & row == row {
            h |= row;
        }
        r += 1;
    }
    let mut v = occupied;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);
    let mut d = 0;
    let mut a = 0;
    for (i, &m) in DIAGONALS.iter().enumerate() {
        if occupied & m == m {
            if i < 15 {
                d |= m;
            } else {
                a |= m;
            }
        }
    }
    (h, v, d, a)
}

/// A subset of the discs of `own` that can never be flipped again, whatever is played: a
/// disc is stable when, on each of its four lines, the line is full or one of its two
/// neighbours on that line is the board's edge or a stable disc of the same colour.
pub(crate) fn stable_discs(own: u64, other: u64) -> u64 {
    let (fh, fv, fd, fa) = full_lines(own | other);
    let h_base = fh | FILE_A | FILE_H;
    let v_base = fv | RANK_1 | RANK_8;
    let d_base = fd | EDGES;
    let a_base = fa | EDGES;
    let mut stable = own & h_base & v_base & d_base & a_base;
    if stable == 0 {
        return 0;
    }
    loop {
        let h = h_base | bitboard::shift(stable, 0) | bitboard::shift(stable, 1);
        let v = v_base | bitboard::shift(stable, 2) | bitboard::shift(stable, 3);
        let d = d_base | bitboard::shift(stable, 4) | bitboard::shift(stable, 7);
        let a = a_base | bitboard::shift(stable, 5) | bitboard::shift(stable, 6);
        let next = stable | (own & h & v & d & a);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The moves of `player` weighted for move ordering: corners count twice.
#[inline(always)]
pub(crate) fn weighted_mobility(player: u64, opponent: u64) -> u32 {
    let moves = bitboard::legal_moves(player, opponent);
    moves.count_ones() + (moves & CORNERS).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_scores_give_empties_to_the_winner() {
        assert_eq!(final_score(0b111, 0b1000), 62);
        assert_eq!(final_score(0b1000, 0b111), -62);
        assert_eq!(final_score(0b1, 0b10), 0);
        assert_eq!(final_score(u64::MAX >> 1, 1 << 63), 62);
    }

    #[test]
    fn stable_discs_on_a_full_board_and_from_corners() {
        assert_eq!(stable_discs(0xFF, 0xFF00), 0xFF);
        // a1 b1 c1 owned, d1 empty: the three edge discs are stable; b2 is not.
        let own = 0b111 | (1 << 9);
        let stable = stable_discs(own, 1 << 10);
        assert_eq!(stable, 0b111);
        // A single disc in the centre is never stable.
        assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
        // Full board: everything is stable.
        assert_eq!(
            stable_discs(0x5555_5555_5555_5555, !0x5555_5555_5555_5555),
            0x5555_5555_5555_5555
        );
    }

    #[test]
    fn around_matches_the_neighbour_table() {
        for (sq, &n) in NEIGHBOURS.iter().enumerate() {
            assert_eq!(around(1 << sq), n);
        }
    }
}
