//! Computer players.

use rand::Rng;

use crate::dice::Dice;
use crate::movegen::Turn;
use crate::position::Position;
use crate::rules::Rules;

/// A computer player: picks one of the legal turns.
pub trait Bot {
    /// The turn to play in `position` with `dice`; always one of
    /// [`Position::legal_turns`] (the pass when that is the only one).
    fn choose(&mut self, position: &Position, dice: Dice, rules: &Rules, rng: &mut dyn Rng)
    -> Turn;
}

/// Plays a uniformly random legal turn.
///
/// ```
/// use nardy_core::{Dice, Position, Rules, ai::{Bot, RandomBot}};
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let turn = RandomBot.choose(&Position::start(), Dice::new(3, 3)?, &Rules::default(), &mut rng);
/// assert!(Position::start().legal_turns(Dice::new(3, 3)?, &Rules::default()).contains(&turn));
/// # Ok::<(), nardy_core::ParseDiceError>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomBot;

impl Bot for RandomBot {
    fn choose(
        &mut self,
        position: &Position,
        dice: Dice,
        rules: &Rules,
        rng: &mut dyn Rng,
    ) -> Turn {
        let turns = position.legal_turns(dice, rules);
        let n = turns.len() as u64;
        let pick = if n <= 1 { 0 } else { rng.next_u64() % n };
        turns.get(pick as usize).cloned().unwrap_or_default()
    }
}

mod analysis;
mod bearoff;
mod compat;
mod equity;
mod eval;
mod levels;
mod network;
mod search;
mod train;

pub use analysis::{AnalysedTurn, GameAnalysis, analyse_game};
pub use bearoff::{BEAROFF_POSITIONS, BearoffDb, WithBearoff};
pub use equity::Probabilities;
pub use eval::{Evaluator, HandEval, is_race, terminal_probabilities};
pub use levels::{Resources, SearchBot};
pub use network::{INPUTS, MAX_HIDDEN, Network, OUTPUTS, WEIGHTS_FORMAT};
pub use search::{MoveFilter, RankedMove, Search, SearchConfig};
pub use train::{CHECKPOINT_FORMAT, TrainConfig, Trainer};
