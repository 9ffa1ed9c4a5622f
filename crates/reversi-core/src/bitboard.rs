//! Raw bitboard primitives on a pair of `u64`s: the discs of the side to move (`player`)
//! and of its opponent. Bit `i` is square `i` (`a1` = 0, `h1` = 7, `h8` = 63).
//!
//! These functions are the hot path shared by move generation, perft and the search.
//! They take and return plain `u64`s so that a search node is just two words.
//!
//! ```
//! use reversi_core::bitboard;
//!
//! let black = (1 << 28) | (1 << 35); // e4, d5
//! let white = (1 << 27) | (1 << 36); // d4, e5
//! let moves = bitboard::legal_moves(black, white);
//! assert_eq!(moves.count_ones(), 4);
//! // f5 (square 37) flips e5 (square 36).
//! assert_eq!(bitboard::flips(black, white, 37), 1 << 36);
//! ```

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

/// The moves of `player` along one pair of opposite directions (`step` and `-step`),
/// where `mask` is the opponent discs that may be jumped over in that direction (the
/// edge columns are removed for the directions that move sideways).
#[inline(always)]
const fn moves_along(player: u64, mask: u64, step: u32) -> u64 {
    // Two-step parallel prefix: first three single steps, then doubled steps.
    let mut up = mask & (player << step);
    let mut down = mask & (player >> step);
    up |= mask & (up << step);
    down |= mask & (down >> step);
    let pair_up = mask & (mask << step);
    let pair_down = pair_up >> step;
    up |= pair_up & (up << (2 * step));
    down |= pair_down & (down >> (2 * step));
    up |= pair_up & (up << (2 * step));
    down |= pair_down & (down >> (2 * step));
    (up << step) | (down >> step)
}

/// The empty squares where `player` may move: each brackets at least one line of
/// `opponent` discs.
#[inline]
pub const fn legal_moves(player: u64, opponent: u64) -> u64 {
    let inner = opponent & 0x7E7E_7E7E_7E7E_7E7E;
    let moves = moves_along(player, inner, 1)
        | moves_along(player, opponent, 8)
        | moves_along(player, inner, 7)
        | moves_along(player, inner, 9);
    moves & !(player | opponent)
}

/// For each square, the 8 rays leaving it (excluding the square itself), in the order of
/// [`shift`]'s directions.
const RAYS: [[u64; 8]; 64] = {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut dir = 0;
        while dir < 8 {
            let mut ray = 0;
            let mut cursor = shift(1u64 << sq, dir);
            while cursor != 0 {
                ray |= cursor;
                cursor = shift(cursor, dir);
            }
            rays[sq][dir] = ray;
            dir += 1;
        }
        sq += 1;
    }
    rays
};

/// Flips along a ray going towards higher bit indices (E, S, SE, SW).
#[inline(always)]
const fn flips_up(player: u64, opponent: u64, ray: u64) -> u64 {
    let stop = !opponent & ray;
    // The lowest square of the ray that is not an opponent disc (0 if none), kept only if
    // it holds a player disc.
    let outflank = stop & stop.wrapping_neg() & player;
    // The squares of the ray below it (none when there is no outflanking disc).
    outflank.wrapping_sub((outflank != 0) as u64) & ray
}

/// Flips along a ray going towards lower bit indices (W, N, NE, NW).
#[inline(always)]
const fn flips_down(player: u64, opponent: u64, ray: u64) -> u64 {
    let stop = !opponent & ray;
    // The highest square of the ray that is not an opponent disc (0 if none), kept only
    // if it holds a player disc.
    let outflank = (0x8000_0000_0000_0000u64 >> (stop.leading_zeros() & 63)) & stop & player;
    // The squares of the ray above it: the opponent discs between it and the move.
    ray & (outflank.wrapping_neg() << 1)
}

/// The `opponent` discs that flip when `player` plays on square `square` (0..64); zero
/// when the move flips nothing (and so is illegal). `square` must be empty.
#[inline(always)]
pub const fn flips(player: u64, opponent: u64, square: u8) -> u64 {
    let rays = &RAYS[square as usize & 63];
    flips_up(player, opponent, rays[0])
        | flips_down(player, opponent, rays[1])
        | flips_up(player, opponent, rays[2])
        | flips_down(player, opponent, rays[3])
        | flips_up(player, opponent, rays[4])
        | flips_up(player, opponent, rays[5])
        | flips_down(player, opponent, rays[6])
        | flips_down(player, opponent, rays[7])
}

/// Every square on one of the 8 rays leaving `square` (the square itself excluded): the
/// only squares a move on `square` can flip.
#[inline]
pub const fn rays(square: u8) -> u64 {
    let r = &RAYS[square as usize & 63];
    r[0] | r[1] | r[2] | r[3] | r[4] | r[5] | r[6] | r[7]
}

/// Mirrors the board top to bottom (row 1 ↔ row 8).
#[inline]
pub const fn flip_vertical(bits: u64) -> u64 {
    bits.swap_bytes()
}

/// Mirrors the board left to right (column a ↔ column h).
#[inline]
pub const fn flip_horizontal(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Mirrors the board in the `a1`–`h8` diagonal (column ↔ row).
#[inline]
pub const fn flip_diagonal(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLACK_START: u64 = (1 << 28) | (1 << 35); // e4, d5
    const WHITE_START: u64 = (1 << 27) | (1 << 36); // d4, e5

    /// The obvious square-by-square move generator, to check the fast one.
    fn slow_flips(player: u64, opponent: u64, square: u8) -> u64 {
        let start = 1u64 << square;
        let mut flipped = 0;
        for dir in 0..8 {
            let mut line = 0;
            let mut cursor = shift(start, dir);
            while cursor & opponent != 0 {
                line |= cursor;
                cursor = shift(cursor, dir);
            }
            if cursor & player != 0 {
                flipped |= line;
            }
        }
        flipped
    }

    fn slow_moves(player: u64, opponent: u64) -> u64 {
        let empty = !(player | opponent);
        (0..64u8)
            .filter(|&sq| empty >> sq & 1 == 1 && slow_flips(player, opponent, sq) != 0)
            .fold(0, |acc, sq| acc | 1 << sq)
    }

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

    #[test]
    fn fast_generators_match_the_slow_ones_on_random_boards() {
        // A small xorshift generator: deterministic, no dependency.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let a = next();
            let b = next();
            let density = next();
            let occupied = a | (b & density);
            let player = occupied & next();
            let opponent = occupied & !player;
            assert_eq!(
                legal_moves(player, opponent),
                slow_moves(player, opponent),
                "{player:#x} {opponent:#x}"
            );
            for sq in 0..64u8 {
                if (player | opponent) >> sq & 1 == 0 {
                    assert_eq!(
                        flips(player, opponent, sq),
                        slow_flips(player, opponent, sq)
                    );
                }
            }
        }
    }

    #[test]
    fn lines_to_the_edge_flip_only_when_closed() {
        let row1 = 0xFFu64;
        let row8 = 0xFFu64 << 56;
        // a1 with b1..h1 all opponent: nothing closes the line.
        assert_eq!(flips(0, row1 & !1, 0), 0);
        // ... closed by a player disc on h1: b1..g1 flip.
        assert_eq!(flips(1 << 7, row1 & !(1 | 1 << 7), 0), row1 & !(1 | 1 << 7));
        // Towards lower bits: h8 with a8..g8 opponent, then closed by a8.
        assert_eq!(flips(0, row8 & !(1 << 63), 63), 0);
        let inner8 = row8 & !(1 << 63 | 1 << 56);
        assert_eq!(flips(1 << 56, inner8, 63), inner8);
        // The long diagonal both ways.
        let diag = 0x8040_2010_0804_0201u64;
        let inner = diag & !(1 | 1 << 63);
        assert_eq!(flips(1 << 63, inner, 0), inner);
        assert_eq!(flips(1, inner, 63), inner);
        assert_eq!(flips(0, inner, 63), 0);
    }

    #[test]
    fn rays_cover_lines_through_the_square() {
        // a1: column a, row 1 and the long diagonal, 7 squares each.
        assert_eq!(rays(0).count_ones(), 21);
        // d4: 7 + 7 + 7 + 6 squares.
        assert_eq!(rays(27).count_ones(), 27);
    }

    #[test]
    fn mirrors_move_squares_where_expected() {
        let b1 = 1u64 << 1;
        assert_eq!(flip_vertical(b1), 1 << 57); // b8
        assert_eq!(flip_horizontal(b1), 1 << 6); // g1
        assert_eq!(flip_diagonal(b1), 1 << 8); // a2
        for sq in 0..64u32 {
            let bit = 1u64 << sq;
            let (file, rank) = (sq % 8, sq / 8);
            assert_eq!(flip_vertical(bit), 1 << ((7 - rank) * 8 + file));
            assert_eq!(flip_horizontal(bit), 1 << (rank * 8 + 7 - file));
            assert_eq!(flip_diagonal(bit), 1 << (file * 8 + rank));
        }
    }
}
