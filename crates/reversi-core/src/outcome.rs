//! How a finished game ended.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Color;

/// How a finished game ended: the final disc count of each colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// Black discs.
    pub black: u8,
    /// White discs.
    pub white: u8,
}

impl Outcome {
    /// Empty squares left.
    pub const fn empties(&self) -> u8 {
        64 - self.black - self.white
    }

    /// The side with more discs, `None` for a draw.
    pub const fn winner(&self) -> Option<Color> {
        if self.black > self.white {
            Some(Color::Black)
        } else if self.white > self.black {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The raw disc difference from `color`'s point of view.
    pub const fn disc_difference(&self, color: Color) -> i32 {
        let d = self.black as i32 - self.white as i32;
        match color {
            Color::Black => d,
            Color::White => -d,
        }
    }

    /// The tournament score from `color`'s point of view: the disc difference with the
    /// empty squares given to the winner (a draw stays 0).
    pub const fn score(&self, color: Color) -> i32 {
        let d = self.disc_difference(color);
        let e = self.empties() as i32;
        if d > 0 {
            d + e
        } else if d < 0 {
            d - e
        } else {
            0
        }
    }
}

impl fmt::Display for Outcome {
    /// `Black wins 40-24 (+16)`, or `Draw 32-32`; the score in parentheses gives the
    /// empty squares to the winner.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner() {
            Some(c) => write!(
                f,
                "{c} wins {}-{} (+{})",
                self.black,
                self.white,
                self.score(c)
            ),
            None => write!(f, "Draw {}-{}", self.black, self.white),
        }
    }
}
