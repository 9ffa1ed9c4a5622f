//! The rule set and its variants.

use core::fmt;

use serde::{Deserialize, Serialize};

/// How the first mover of a game is chosen and which dice it plays first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Opening {
    /// Federation rule: each side throws one die (ties are thrown again); the higher thrower
    /// moves first *with the two dice just thrown*, so the first turn of a game is never a
    /// double.
    #[default]
    RollOff,
    /// The winner of the roll-off throws both dice afresh.
    Reroll,
}

/// Which first-turn doubles may take a second checker from the head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum HeadException {
    /// Federation rule: only 6-6, 4-4 and 3-3 on a side's first turn.
    #[default]
    Strict,
    /// Any double on a side's first turn, when the opponent's checkers prevent playing it
    /// fully with one checker from the head.
    AnyBlockedDouble,
}

/// When the six-point block rule is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum BlockCheck {
    /// Federation rule: after every single step, so a block existing only in the middle of a
    /// turn is illegal too.
    #[default]
    EveryStep,
    /// Only the position at the end of the turn is checked.
    EndOfTurn,
}

/// How a won game is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Scoring {
    /// Federation rule: oin (1 point) or mars (2 points, the loser bore off nothing).
    #[default]
    Standard,
    /// Also koks (3 points): the loser bore off nothing and still has a checker in its own
    /// starting quarter (19–24 for White, 7–12 for Black).
    WithKoks,
}

/// Every rule switch of Long Nardy. [`Rules::default`] is the federation rule set.
///
/// ```
/// use nardy_core::{Rules, Opening};
/// let rules = Rules { opening: Opening::Reroll, ..Rules::default() };
/// assert_ne!(rules, Rules::default());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Rules {
    /// Who starts and with which dice.
    pub opening: Opening,
    /// The first-turn head exception.
    pub head_exception: HeadException,
    /// When the six-point block is checked.
    pub block_check: BlockCheck,
    /// Points for a win.
    pub scoring: Scoring,
    /// When the first mover finishes, the second mover gets one more turn; if it finishes
    /// too, the game is a draw.
    pub last_roll_tie: bool,
}

impl Rules {
    /// The federation rules (same as [`Rules::default`]).
    pub const FEDERATION: Rules = Rules {
        opening: Opening::RollOff,
        head_exception: HeadException::Strict,
        block_check: BlockCheck::EveryStep,
        scoring: Scoring::Standard,
        last_roll_tie: false,
    };
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opening = match self.opening {
            Opening::RollOff => "roll-off (the first mover plays the roll-off dice)",
            Opening::Reroll => "reroll (the first mover throws both dice afresh)",
        };
        let head = match self.head_exception {
            HeadException::Strict => "6-6, 4-4 or 3-3 on the first turn",
            HeadException::AnyBlockedDouble => "any blocked double on the first turn",
        };
        let block = match self.block_check {
            BlockCheck::EveryStep => "after every step",
            BlockCheck::EndOfTurn => "at the end of the turn",
        };
        let scoring = match self.scoring {
            Scoring::Standard => "oin 1, mars 2",
            Scoring::WithKoks => "oin 1, mars 2, koks 3",
        };
        writeln!(f, "opening: {opening}")?;
        writeln!(f, "two checkers from the head: {head}")?;
        writeln!(f, "six-point block checked: {block}")?;
        writeln!(f, "scoring: {scoring}")?;
        write!(
            f,
            "last-roll tie: {}",
            if self.last_roll_tie { "yes" } else { "no" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_federation() {
        assert_eq!(Rules::default(), Rules::FEDERATION);
    }
}
