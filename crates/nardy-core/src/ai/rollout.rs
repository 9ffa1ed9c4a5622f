//! Rollouts: the value of a position or a turn measured by playing it out to the end
//! many times with a bot, as backgammon programs answer "what was the right move".
//!
//! Two variance reductions make a few hundred games worth many more:
//!
//! - **stratified first rolls**: trial `t` starts with the ordered roll number `t % 36`
//!   and answers with roll `t / 36 % 36`, so every 1,296 trials throw each pair of first
//!   two rolls exactly once, and only the later dice are random;
//! - **common dice**: trial `t` throws the same dice whichever turn is rolled out, so
//!   the differences between candidate turns carry much less noise than their values.
//!
//! Every trial's dice and the bots' tie-breaks come from `(seed, t)` alone: a rollout
//! gives the same numbers however its trials are split between threads.

use core::ops::Range;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::ai::{Bot, MAX_GAME_TURNS};
use crate::dice::Dice;
use crate::game::Game;
use crate::outcome::{Outcome, WinKind};
use crate::position::Color;

/// What the trials of one rollout gave, in points won (negative: lost) by the side it
/// is measured for; trials that reach no end (never, in practice) count as 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RolloutStats {
    /// Games played out.
    pub trials: u64,
    /// The sum of the points.
    pub sum: f64,
    /// The sum of the squared points.
    pub sum_squares: f64,
    /// Games won.
    pub wins: u64,
    /// Games won by mars (or koks).
    pub mars_wins: u64,
    /// Games lost by mars (or koks).
    pub mars_losses: u64,
}

impl RolloutStats {
    /// Adds one game's points and how it was won or lost.
    fn add(&mut self, points: i32, kind: Option<WinKind>) {
        self.trials += 1;
        self.sum += f64::from(points);
        self.sum_squares += f64::from(points * points);
        let mars = matches!(kind, Some(WinKind::Mars | WinKind::Koks));
        if points > 0 {
            self.wins += 1;
            self.mars_wins += u64::from(mars);
        } else if points < 0 {
            self.mars_losses += u64::from(mars);
        }
    }

    /// The stats of both sets of trials (from disjoint trial ranges).
    pub fn merge(&mut self, other: &RolloutStats) {
        self.trials += other.trials;
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
        self.wins += other.wins;
        self.mars_wins += other.mars_wins;
        self.mars_losses += other.mars_losses;
    }

    /// The mean points per game: the equity the rollout measured.
    pub fn mean(&self) -> f64 {
        if self.trials == 0 {
            0.0
        } else {
            self.sum / self.trials as f64
        }
    }

    /// The standard error of [`RolloutStats::mean`] (as if the trials were independent;
    /// the stratified rolls make the true error somewhat smaller).
    pub fn std_error(&self) -> f64 {
        if self.trials < 2 {
            return f64::INFINITY;
        }
        let n = self.trials as f64;
        let variance = (self.sum_squares - self.sum * self.sum / n) / (n - 1.0);
        libm::sqrt(variance.max(0.0) / n)
    }

    /// The half-width of the 95% confidence interval of the mean (1.96 standard errors).
    pub fn interval95(&self) -> f64 {
        1.96 * self.std_error()
    }

    /// The share of games won.
    pub fn win_rate(&self) -> f64 {
        if self.trials == 0 {
            0.0
        } else {
            self.wins as f64 / self.trials as f64
        }
    }
}

/// The ordered roll number `k` (0 to 35): dice `k / 6 + 1` and `k % 6 + 1`.
fn ordered_roll(k: u64) -> Dice {
    let k = (k % 36) as u8;
    Dice::new(k / 6 + 1, k % 6 + 1).unwrap_or_else(|_| unreachable!("dice 1 to 6"))
}

/// Plays trials `trials` of a rollout of `start`: the side to move in `start` rolls next
/// (its present dice are replaced by the trial's), and the points are counted for
/// `viewpoint`. `bots[i]` plays the side of [`Color::index`] `i`; each trial starts
/// them with [`Bot::new_game`].
///
/// To roll out a turn, pass the game after it (the opponent to roll) with the mover as
/// `viewpoint`; to roll out a position before its roll, pass it with its side to move.
///
/// ```
/// use nardy_core::{Game, Rules, ai::{Level, rollout}};
/// let rules = Rules::default();
/// let start = Game::new(rules, 1);
/// let greedy = Level::new(3).unwrap();
/// let mut bots = [greedy.bot_without_resources(&rules).unwrap(), greedy.bot_without_resources(&rules).unwrap()];
/// let [a, b] = &mut bots;
/// let stats = rollout(&start, 0..36, 7, [a.as_mut(), b.as_mut()], start.side_to_move());
/// assert_eq!(stats.trials, 36);
/// assert!(stats.mean().abs() <= 3.0);
/// ```
pub fn rollout(
    start: &Game,
    trials: Range<u64>,
    seed: u64,
    bots: [&mut dyn Bot; 2],
    viewpoint: Color,
) -> RolloutStats {
    let [white, black] = bots;
    let mut stats = RolloutStats::default();
    for t in trials {
        let (points, kind) = trial(start, t, seed, &mut *white, &mut *black, viewpoint);
        stats.add(points, kind);
    }
    stats
}

/// One trial: the points for `viewpoint` and how the game ended.
fn trial(
    start: &Game,
    t: u64,
    seed: u64,
    white: &mut dyn Bot,
    black: &mut dyn Bot,
    viewpoint: Color,
) -> (i32, Option<WinKind>) {
    let mut game = start.clone();
    let trial_seed = seed ^ t.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    game.rng = ChaCha8Rng::seed_from_u64(trial_seed);
    game.dice = ordered_roll(t);
    let mut rng = ChaCha8Rng::seed_from_u64(trial_seed ^ 0x5EED_B075);
    white.new_game();
    black.new_game();
    for turn in 0..MAX_GAME_TURNS {
        if game.outcome().is_some() {
            break;
        }
        if turn == 1 {
            game.dice = ordered_roll(t / 36);
        }
        let bot: &mut dyn Bot = match game.side_to_move() {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let Some(mv) = bot.choose_move(game.position(), game.dice(), &mut rng) else {
            break;
        };
        if game.play(&mv).is_err() {
            break;
        }
    }
    match game.outcome() {
        Some(Outcome::Win { winner, kind }) => {
            let points = i32::from(kind.points());
            (
                if winner == viewpoint { points } else { -points },
                Some(kind),
            )
        }
        Some(Outcome::Draw) | None => (0, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_of_36_trials_throws_each_ordered_first_roll_once() {
        let mut seen = [[0u8; 6]; 6];
        for t in 36..72 {
            let d = ordered_roll(t);
            let (a, b) = ((t % 36) / 6 + 1, t % 6 + 1);
            assert_eq!((d.high(), d.low()), (a.max(b) as u8, a.min(b) as u8));
            seen[a as usize - 1][b as usize - 1] += 1;
        }
        assert!(seen.iter().flatten().all(|&n| n == 1));
        // the answer roll changes every 36 trials and cycles every 1,296
        assert_eq!(ordered_roll(1296 / 36), ordered_roll(0));
        assert_ne!(ordered_roll(37 / 36), ordered_roll(0));
    }
}
