//! Moves, their notation, the move list and why a move is refused.

use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::Square;

/// A move: a disc placed on a square, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Move {
    /// A disc on this square.
    Place(Square),
    /// No move: allowed (and required) only when the side to move has no legal move.
    Pass,
}

impl Move {
    /// The square of a placement, `None` for a pass.
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// Whether this is a pass.
    pub const fn is_pass(self) -> bool {
        matches!(self, Move::Pass)
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Place(sq)
    }
}

impl fmt::Display for Move {
    /// The square name in lowercase (`f5`) or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a move: give a square like f5, or pass")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads a square name (case-insensitive) or a pass: `pass`, `pa`, `ps` or `--`.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let t = s.trim();
        if ["pass", "pa", "ps", "--"]
            .iter()
            .any(|p| p.eq_ignore_ascii_case(t))
        {
            return Ok(Move::Pass);
        }
        t.parse::<Square>()
            .map(Move::Place)
            .map_err(|_| ParseMoveError(s.into()))
    }
}

/// The legal moves of a position as a list: the squares in index order, or a single
/// [`Move::Pass`] when the side to move must pass, or nothing when the game is over.
///
/// No position has more than 33 legal moves; the capacity leaves room to spare.
pub type MoveList = ArrayVec<Move, 48>;

/// Why a move was refused. The position is left unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The square already holds a disc.
    #[error("{0} is already taken")]
    Occupied(Square),
    /// The disc would not outflank any opposing line.
    #[error("{0} flips nothing: a move must outflank at least one line of opposing discs")]
    NoFlips(Square),
    /// The side to move has no legal move and must pass.
    #[error("there is no legal move: this side must pass")]
    MustPass,
    /// A pass was asked for while a legal move exists.
    #[error("passing is not allowed while a legal move exists")]
    PassNotAllowed,
    /// Neither side can move any more.
    #[error("the game is over")]
    GameOver,
}
