//! The numeric rating of a puzzle and its difficulty level.
//!
//! The rating is the difficulty of the hardest step the simplest-first logical solve
//! needs, on Sudoku Explainer's scale (1.0–11.9; see [`Technique::difficulty`] for the
//! value of each technique). The levels cut that scale:
//!
//! | level   | rating      | needs at most                                        |
//! |---------|-------------|------------------------------------------------------|
//! | easy    | 1.0–2.3     | singles                                              |
//! | medium  | 2.4–4.0     | locked candidates, pairs, triples, X-wing, swordfish |
//! | hard    | 4.1–5.8     | wings, unique rectangles, quads, jellyfish, finned fish, BUG+1 |
//! | expert  | 5.9–7.5     | colouring, skyscraper, kite, empty rectangle, chains, ALS-XZ |
//! | extreme | 7.6–11.9    | forcing chains, nets and nested chains, trial and error |
//!
//! Where Sudoku Explainer has the technique, the values are its own, so puzzles solved
//! with singles, subsets, basic fish and wings get its rating. Sudoku Explainer has no
//! finned fish, W-wing, colouring or ALS-XZ and rates chains by length; a puzzle that needs
//! them rates here between 4.8 and 7.2 where Sudoku Explainer (which then uses its own
//! chains) says 6.5–7.5. A puzzle that needs forcing chains rates 8.0 (a contradiction,
//! cell or unit forcing chain by singles, like Sudoku Explainer's dynamic chains at
//! 8.5–9.x), 9.0 (the same with the basic techniques inside), 10.0 (a nested forcing
//! chain: forcing chains inside the assumption, like Sudoku Explainer's nested chains at
//! 9.5–11.9) or 11.0 (trial and error, the last resort, which no puzzle of the sets below
//! needs).
//!
//! On the benchmark sets (measured with `examples/sudoku_rate_set.rs`): the first 200
//! puzzles of the forum's 11+ set, which Sudoku Explainer rates 11.0 or more, all rate
//! 10.0 here (no forcing net finishes them, as none of Sudoku Explainer's unnested chains
//! does); of the forum's 375 hardest (1106), 371 rate 10.0 and 4 rate 9.0; the magictour
//! top 1465 rate medium 310, hard 163, expert 299 and extreme 693 (690 of them at 8.0);
//! the 69 Kaggle puzzles are all easy (1.2, hidden singles in boxes). Sudoku Explainer
//! itself could not be run here, so there is no puzzle-by-puzzle comparison.

use core::fmt;
use core::str::FromStr;

use super::{LogicSolver, LogicalSolve, Outline, Technique};
use crate::grid::Grid;
use crate::solve::SolveError;

/// A difficulty level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Difficulty {
    /// Singles only (rating up to 2.3).
    Easy,
    /// Up to locked candidates, pairs, triples and basic fish (2.4–4.0).
    Medium,
    /// Up to wings, unique rectangles, quads and finned fish (4.1–5.8).
    Hard,
    /// Up to single-digit patterns, chains and ALS-XZ (5.9–7.5).
    Expert,
    /// Forcing chains and beyond (7.6 and up).
    Extreme,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Extreme,
    ];

    /// The name used by [`FromStr`] and [`Display`](fmt::Display).
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
            Difficulty::Extreme => "extreme",
        }
    }

    /// The highest rating of the level, in tenths (`u8::MAX` for extreme).
    pub fn max_rating(self) -> u8 {
        match self {
            Difficulty::Easy => 23,
            Difficulty::Medium => 40,
            Difficulty::Hard => 58,
            Difficulty::Expert => 75,
            Difficulty::Extreme => u8::MAX,
        }
    }

    /// The level of a rating in tenths.
    pub fn of_rating(tenths: u8) -> Difficulty {
        Difficulty::ALL
            .into_iter()
            .find(|d| tenths <= d.max_rating())
            .unwrap_or(Difficulty::Extreme)
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown difficulty name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown difficulty {0:?} (use easy, medium, hard, expert or extreme)")]
pub struct ParseDifficultyError(pub alloc::string::String);

impl FromStr for Difficulty {
    type Err = ParseDifficultyError;
    fn from_str(s: &str) -> Result<Difficulty, ParseDifficultyError> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseDifficultyError(s.into()))
    }
}

/// The rating of a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rating {
    /// The rating in tenths (10 = 1.0); 0 for a grid that is already full.
    pub tenths: u8,
    /// The hardest technique of the path, if any step.
    pub hardest: Option<Technique>,
    /// The level of the rating.
    pub difficulty: Difficulty,
    /// The number of steps of the path.
    pub steps: usize,
}

impl Rating {
    /// The rating of a logical path.
    pub fn of_path(path: &LogicalSolve) -> Rating {
        let hardest = path.hardest();
        let tenths = hardest.map_or(0, Technique::difficulty);
        Rating {
            tenths,
            hardest,
            difficulty: Difficulty::of_rating(tenths),
            steps: path.steps.len(),
        }
    }
}

impl Rating {
    /// The rating of an outlined solve (the same as of its path).
    pub fn of_outline(outline: &Outline) -> Rating {
        let tenths = outline.hardest.map_or(0, Technique::difficulty);
        Rating {
            tenths,
            hardest: outline.hardest,
            difficulty: Difficulty::of_rating(tenths),
            steps: outline.steps,
        }
    }
}

impl fmt::Display for Rating {
    /// `LEVEL RATING HARDEST_TECHNIQUE`, e.g. `medium 2.8 Claiming`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}.{} {}",
            self.difficulty,
            self.tenths / 10,
            self.tenths % 10,
            self.hardest.map_or("none", Technique::name)
        )
    }
}

/// Rates a proper puzzle by solving it logically, simplest technique first.
///
/// ```
/// use sudoku_core::logic::{Difficulty, rate};
/// let p = "..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3.."
///     .parse().unwrap();
/// let r = rate(&p).unwrap();
/// assert_eq!(r.difficulty, Difficulty::Easy);
/// ```
///
/// # Errors
/// When the puzzle does not have exactly one solution.
pub fn rate(puzzle: &Grid) -> Result<Rating, SolveError> {
    puzzle.solve_unique()?;
    Ok(Rating::of_outline(&LogicSolver::new().outline(puzzle)))
}
