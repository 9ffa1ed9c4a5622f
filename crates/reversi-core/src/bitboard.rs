//! Raw bitboard primitives on a pair of `u64`s: the discs of the side to move (`player`)
//! and of its opponent. Bit `i` is square `i` (`a1` = 0, `h1` = 7, `h8` = 63).
//!
//! These functions are the hot path shared by move generation, perft and the search.

/// Every square of the `a` column.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Every square of the `h` column.
pub const FILE_H: u64 = 0x8080_8080_8080_8080;

/// Shifts every disc one step in direction `dir` (0..8: E, W, S, N, SE, SW, NE, NW,
/// where S is towards row 8), dropping discs that would leave the board.
#[inline(always)]
pub const fn shift(bits: u64, dir: usize) -> u64 {
    match dir {
        0 => (bits << 1) & !FILE_A,
        1 => (bits >> 1) & !FILE_H,
        2 => bits << 8,
        3 => bits >> 8,
        4 => (bits << 9) & !FILE_A,
        5 => (bits << 7) & !FILE_H,
        6 => (bits >> 7) & !FILE_A,
        _ => (bits >> 9) & !FILE_H,
    }
}

/// The empty squares where `player` may move: each brackets at least one line of
/// `opponent` discs.
#[inline]
pub const fn legal_moves(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let mut moves = 0;
    let mut dir = 0;
    while dir < 8 {
        let mut line = shift(player, dir) & opponent;
        line |= shift(line, dir) & opponent;
        line |= shift(line, dir) & opponent;
        line |= shift(line, dir) & opponent;
        line |= shift(line, dir) & opponent;
        line |= shift(line, dir) & opponent;
        moves |= shift(line, dir) & empty;
        dir += 1;
    }
    moves
}

/// The `opponent` discs that flip when `player` plays on square `square` (0..64); zero
/// when the move flips nothing (and so is illegal). `square` must be empty.
#[inline]
pub const fn flips(player: u64, opponent: u64, square: u8) -> u64 {
    let start = 1u64 << square;
    let mut flipped = 0;
    let mut dir = 0;
    while dir < 8 {
        let mut line = 0;
        let mut cursor = shift(start, dir);
        while cursor & opponent != 0 {
            line |= cursor;
            cursor = shift(cursor, dir);
        }
        if cursor & player != 0 {
            flipped |= line;
        }
        dir += 1;
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLACK_START: u64 = (1 << 28) | (1 << 35); // e4, d5
    const WHITE_START: u64 = (1 << 27) | (1 << 36); // d4, e5

    #[test]
    fn start_position_has_the_four_classic_moves() {
        // d3, c4, f5, e6
        let expected = (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44);
        assert_eq!(legal_moves(BLACK_START, WHITE_START), expected);
    }

    #[test]
    fn f5_flips_e5() {
        assert_eq!(flips(BLACK_START, WHITE_START, 37), 1 << 36);
        assert_eq!(flips(BLACK_START, WHITE_START, 0), 0);
    }

    #[test]
    fn no_wrap_around_the_edges() {
        // Black on h1, white on a2: "east" of h1 is not a2.
        let player = 1 << 7;
        let opponent = 1 << 8;
        assert_eq!(legal_moves(player, opponent), 0);
    }
}
