//! The two colours and the rule settings.

use core::fmt;
use core::ops::Not;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Position;

/// A side: Black (`X` in board strings) or White (`O`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Color {
    /// Black, `X`; moves first in standard Othello.
    #[default]
    Black,
    /// White, `O`.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The letter of the colour in board strings: `X` for Black, `O` for White.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// The lowercase name: `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl Not for Color {
    type Output = Color;

    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    /// `Black` or `White`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// Why a colour name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown colour: use black (or x) or white (or o)")]
pub struct ParseColorError;

impl FromStr for Color {
    type Err = ParseColorError;

    /// Reads `black`/`b`/`x` or `white`/`w`/`o`, case-insensitively.
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        let s = s.trim();
        for (names, color) in [
            (["black", "b", "x"], Color::Black),
            (["white", "w", "o"], Color::White),
        ] {
            if names.iter().any(|n| n.eq_ignore_ascii_case(s)) {
                return Ok(color);
            }
        }
        Err(ParseColorError)
    }
}

/// The rule settings. [`Rules::default()`] is standard Othello: Black moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// The colour that moves first from the start position (Black in standard Othello;
    /// the original program let White start).
    pub first: Color,
}

impl Rules {
    /// The rules with `first` moving first.
    pub const fn with_first(first: Color) -> Rules {
        Rules { first }
    }

    /// The start position under these rules: White on d4 and e5, Black on d5 and e4,
    /// [`Rules::first`] to move.
    pub const fn start_position(&self) -> Position {
        Position::start_with(self.first)
    }
}
