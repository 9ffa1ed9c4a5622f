//! The probabilities of how a game ends and the equity (expected points) they give.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::{Rules, Scoring};

/// How a game is expected to end, for the side to move, before it rolls.
///
/// The probabilities are cumulative, as in GNU Backgammon: `win_mars` counts the wins by
/// mars *or* koks, `win_koks` the wins by koks only, and the same for the losses; the loss
/// probability is `1 - win`. Koks is tracked under every rule set (it is a property of the
/// final position), but it only scores under [`Scoring::WithKoks`]. Draws of the last-roll
/// tie are not modelled (they are counted as losses of the side that could not finish).
///
/// ```
/// use nardy_core::{Rules, ai::Probabilities};
/// let p = Probabilities { win: 0.6, win_mars: 0.1, win_koks: 0.0, lose_mars: 0.05, lose_koks: 0.0 };
/// // 0.6 - 0.4 + 0.1 - 0.05
/// assert!((p.equity(&Rules::default()) - 0.25).abs() < 1e-6);
/// assert!((p.flip().equity(&Rules::default()) + 0.25).abs() < 1e-6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Probabilities {
    /// The side to move wins (any way).
    pub win: f32,
    /// It wins by mars or koks: the loser bore off nothing.
    pub win_mars: f32,
    /// It wins by koks: the loser bore off nothing and still has a checker in its
    /// starting quarter.
    pub win_koks: f32,
    /// It loses by mars or koks.
    pub lose_mars: f32,
    /// It loses by koks.
    pub lose_koks: f32,
}

impl Probabilities {
    /// A certain win by oin.
    pub const WIN: Probabilities = Probabilities {
        win: 1.0,
        win_mars: 0.0,
        win_koks: 0.0,
        lose_mars: 0.0,
        lose_koks: 0.0,
    };

    /// A certain loss by oin.
    pub const LOSS: Probabilities = Probabilities {
        win: 0.0,
        win_mars: 0.0,
        win_koks: 0.0,
        lose_mars: 0.0,
        lose_koks: 0.0,
    };

    /// The probability that the side to move loses.
    pub fn lose(&self) -> f32 {
        1.0 - self.win
    }

    /// Expected points for the side to move under `rules`: oin 1, mars 2, koks 3 (koks
    /// only under [`Scoring::WithKoks`], else it scores as a mars). Between −3 and 3.
    pub fn equity(&self, rules: &Rules) -> f32 {
        let mut e = self.win - self.lose() + self.win_mars - self.lose_mars;
        if rules.scoring == Scoring::WithKoks {
            e += self.win_koks - self.lose_koks;
        }
        e
    }

    /// The same probabilities seen by the other side.
    pub fn flip(&self) -> Probabilities {
        Probabilities {
            win: 1.0 - self.win,
            win_mars: self.lose_mars,
            win_koks: self.lose_koks,
            lose_mars: self.win_mars,
            lose_koks: self.win_koks,
        }
    }

    /// The probabilities forced into a consistent shape: every value in 0..=1,
    /// `win_koks <= win_mars <= win` and `lose_koks <= lose_mars <= 1 - win`.
    pub fn consistent(self) -> Probabilities {
        let c = |x: f32| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
        let win = c(self.win);
        let win_mars = c(self.win_mars).min(win);
        let lose = 1.0 - win;
        let lose_mars = c(self.lose_mars).min(lose);
        Probabilities {
            win,
            win_mars,
            win_koks: c(self.win_koks).min(win_mars),
            lose_mars,
            lose_koks: c(self.lose_koks).min(lose_mars),
        }
    }

    /// The six exclusive results, which sum to 1: win by oin, mars, koks, then loss by
    /// oin, mars, koks.
    pub fn exclusive(&self) -> [f32; 6] {
        [
            self.win - self.win_mars,
            self.win_mars - self.win_koks,
            self.win_koks,
            self.lose() - self.lose_mars,
            self.lose_mars - self.lose_koks,
            self.lose_koks,
        ]
    }

    /// The five values in the order of the fields (the network's outputs).
    pub fn to_array(&self) -> [f32; 5] {
        [
            self.win,
            self.win_mars,
            self.win_koks,
            self.lose_mars,
            self.lose_koks,
        ]
    }

    /// The inverse of [`Probabilities::to_array`].
    pub fn from_array(a: [f32; 5]) -> Probabilities {
        Probabilities {
            win: a[0],
            win_mars: a[1],
            win_koks: a[2],
            lose_mars: a[3],
            lose_koks: a[4],
        }
    }

    /// `self * (1 - t) + other * t`, field by field.
    pub fn lerp(&self, other: &Probabilities, t: f32) -> Probabilities {
        let (a, b) = (self.to_array(), other.to_array());
        let mut out = [0.0; 5];
        for i in 0..5 {
            out[i] = a[i] + (b[i] - a[i]) * t;
        }
        Probabilities::from_array(out)
    }
}

impl fmt::Display for Probabilities {
    /// `win 61.2% (mars 10.0%, koks 0.0%)  lose 38.8% (mars 5.0%, koks 0.0%)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "win {:.1}% (mars {:.1}%, koks {:.1}%)  lose {:.1}% (mars {:.1}%, koks {:.1}%)",
            100.0 * self.win,
            100.0 * self.win_mars,
            100.0 * self.win_koks,
            100.0 * self.lose(),
            100.0 * self.lose_mars,
            100.0 * self.lose_koks
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn koks_scores_only_with_koks() {
        let p = Probabilities {
            win: 1.0,
            win_mars: 1.0,
            win_koks: 1.0,
            lose_mars: 0.0,
            lose_koks: 0.0,
        };
        assert_eq!(p.equity(&Rules::default()), 2.0);
        let koks = Rules {
            scoring: Scoring::WithKoks,
            ..Rules::default()
        };
        assert_eq!(p.equity(&koks), 3.0);
        assert_eq!(p.flip().equity(&koks), -3.0);
        assert_eq!(p.exclusive(), [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn consistent_orders_the_values() {
        let p = Probabilities {
            win: 1.3,
            win_mars: 0.5,
            win_koks: 0.7,
            lose_mars: 0.2,
            lose_koks: f32::NAN,
        }
        .consistent();
        assert_eq!(p.win, 1.0);
        assert_eq!(p.win_koks, 0.5);
        assert_eq!(p.lose_mars, 0.0);
        assert_eq!(p.lose_koks, 0.0);
        let sum: f32 = p.exclusive().iter().sum();
        assert!((sum - 1.0).abs() < 1e-6);
    }
}
