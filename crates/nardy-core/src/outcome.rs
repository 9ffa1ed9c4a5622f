//! How a finished game ended and what it scores.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::position::{Color, Position};
use crate::rules::{Rules, Scoring};

/// How a game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinKind {
    /// The loser had borne off at least one checker: 1 point.
    Oin,
    /// The loser had borne off none: 2 points.
    Mars,
    /// The loser had borne off none and still had a checker in its starting quarter
    /// ([`Scoring::WithKoks`] only): 3 points.
    Koks,
}

impl WinKind {
    /// The points this win scores.
    pub fn points(self) -> u8 {
        match self {
            WinKind::Oin => 1,
            WinKind::Mars => 2,
            WinKind::Koks => 3,
        }
    }
}

impl fmt::Display for WinKind {
    /// The name of the win: `oin`, `mars` or `koks`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WinKind::Oin => "oin",
            WinKind::Mars => "mars",
            WinKind::Koks => "koks",
        })
    }
}

/// The end of a game.
///
/// ```
/// use nardy_core::{Color, Outcome, WinKind};
/// let win = Outcome::Win { winner: Color::Black, kind: WinKind::Mars };
/// assert_eq!(win.to_string(), "Black wins: mars, 2 points");
/// assert_eq!(Outcome::Draw.to_string(), "Both sides finished: the game is a draw");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Oin, mars or koks.
        kind: WinKind,
    },
    /// Both sides finished under the last-roll-tie rule.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// The points scored by the winner (0 for a draw).
    pub fn points(self) -> u8 {
        match self {
            Outcome::Win { kind, .. } => kind.points(),
            Outcome::Draw => 0,
        }
    }
}

impl fmt::Display for Outcome {
    /// The result in words: `White wins: oin, 1 point`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Draw => f.write_str("Both sides finished: the game is a draw"),
            Outcome::Win { winner, kind } => {
                let points = kind.points();
                let plural = if points == 1 { "" } else { "s" };
                write!(f, "{winner} wins: {kind}, {points} point{plural}")
            }
        }
    }
}

/// How a finished position scores for `winner` under `rules`.
pub fn score(position: &Position, winner: Color, rules: &Rules) -> WinKind {
    let loser = winner.other();
    if position.borne_off(loser) > 0 {
        WinKind::Oin
    } else if rules.scoring == Scoring::WithKoks && position.in_starting_quarter(loser) {
        WinKind::Koks
    } else {
        WinKind::Mars
    }
}
