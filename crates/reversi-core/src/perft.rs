//! Move-path enumeration (perft) to verify move generation.
//!
//! The convention is the one of Edax and OEIS A124004: a pass is a ply, and a game that
//! ends before the requested depth contributes nothing.

use alloc::vec::Vec;

use crate::bitboard::{flips, legal_moves};
use crate::{Move, Position};

/// The number of leaves of the game tree `depth` plies deep from `position` (a pass is
/// a ply; games that end earlier count nothing; depth 0 counts the position itself).
///
/// ```
/// use reversi_core::{perft, Position};
///
/// let start = Position::start();
/// assert_eq!(perft(&start, 1), 4);
/// assert_eq!(perft(&start, 5), 1396);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_bits(position.player(), position.opponent(), depth)
}

/// [`perft`] split by first move: each legal move (or the forced pass) with the leaf count
/// below it. The counts add up to `perft(position, depth)`. Empty when `depth` is 0 or
/// the game is over.
pub fn perft_divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let child = position.after(mv).expect("legal_moves gives legal moves");
            (mv, perft(&child, depth - 1))
        })
        .collect()
}

/// Perft on raw bitboards, `depth >= 1`.
fn perft_bits(player: u64, opponent: u64, depth: u32) -> u64 {
    let mut moves = legal_moves(player, opponent);
    if moves == 0 {
        // Pass if the opponent can move, else the game is over and counts nothing.
        if legal_moves(opponent, player) == 0 {
            return 0;
        }
        return if depth == 1 {
            1
        } else {
            perft_bits(opponent, player, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    if depth == 2 {
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips(player, opponent, sq);
            let next_player = opponent ^ f;
            let next_opponent = player | f | (1u64 << sq);
            total += leaves_one_ply(next_player, next_opponent);
        }
        return total;
    }
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let f = flips(player, opponent, sq);
        total += perft_bits(opponent ^ f, player | f | (1u64 << sq), depth - 1);
    }
    total
}

/// `perft_bits(player, opponent, 1)`.
#[inline(always)]
fn leaves_one_ply(player: u64, opponent: u64) -> u64 {
    let moves = legal_moves(player, opponent);
    if moves != 0 {
        u64::from(moves.count_ones())
    } else {
        u64::from(legal_moves(opponent, player) != 0)
    }
}
