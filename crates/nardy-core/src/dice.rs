//! Dice, seeded rolling and the roll-off.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::position::Color;

/// A throw of two dice, kept higher die first (the order the dice are played in is chosen
/// by the player, so it is not part of the throw).
///
/// ```
/// use nardy_core::Dice;
/// let d: Dice = "5-6".parse()?;
/// assert_eq!((d.high(), d.low()), (6, 5));
/// assert_eq!(d.to_string(), "65");
/// assert_eq!(Dice::ALL.len(), 21);
/// # Ok::<(), nardy_core::ParseDiceError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "(u8, u8)", try_from = "(u8, u8)")]
pub struct Dice {
    high: u8,
    low: u8,
}

/// Why dice cannot be made or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseDiceError {
    /// A die is not 1–6.
    #[error("a die shows 1 to 6, not {0}")]
    BadDie(u8),
    /// The text is not two dice like `65` or `6-5`.
    #[error("`{0}` is not a throw: write two dice like `65` or `6-5`")]
    BadText(String),
}

impl Dice {
    /// The 21 distinct throws: the 6 doubles and the 15 non-doubles.
    pub const ALL: [Dice; 21] = {
        let mut out = [Dice { high: 1, low: 1 }; 21];
        let mut i = 0;
        let mut h = 1;
        while h <= 6 {
            let mut l = 1;
            while l <= h {
                out[i] = Dice { high: h, low: l };
                i += 1;
                l += 1;
            }
            h += 1;
        }
        out
    };

    /// Dice showing `a` and `b`, in any order.
    pub fn new(a: u8, b: u8) -> Result<Dice, ParseDiceError> {
        for d in [a, b] {
            if !(1..=6).contains(&d) {
                return Err(ParseDiceError::BadDie(d));
            }
        }
        Ok(Dice {
            high: a.max(b),
            low: a.min(b),
        })
    }

    /// The higher die.
    pub fn high(self) -> u8 {
        self.high
    }

    /// The lower die.
    pub fn low(self) -> u8 {
        self.low
    }

    /// Whether both dice show the same number (played four times).
    pub fn is_double(self) -> bool {
        self.high == self.low
    }

    /// The dice to play: four for a double, else the higher then the lower.
    pub fn to_play(self) -> Vec<u8> {
        if self.is_double() {
            alloc::vec![self.high; 4]
        } else {
            alloc::vec![self.high, self.low]
        }
    }

    /// Throws two fair dice.
    pub fn roll(rng: &mut impl Rng) -> Dice {
        let a = roll_die(rng);
        let b = roll_die(rng);
        Dice {
            high: a.max(b),
            low: a.min(b),
        }
    }
}

/// Throws one fair die (1–6) by rejection sampling on 32-bit words, so the sequence is
/// the same on every platform for the same generator state.
pub fn roll_die(rng: &mut impl Rng) -> u8 {
    const LIMIT: u32 = u32::MAX - u32::MAX % 6;
    loop {
        let x = rng.next_u32();
        if x < LIMIT {
            return (x % 6) as u8 + 1;
        }
    }
}

impl TryFrom<(u8, u8)> for Dice {
    type Error = ParseDiceError;
    fn try_from((a, b): (u8, u8)) -> Result<Dice, ParseDiceError> {
        Dice::new(a, b)
    }
}

impl From<Dice> for (u8, u8) {
    fn from(d: Dice) -> (u8, u8) {
        (d.high, d.low)
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.high, self.low)
    }
}

impl FromStr for Dice {
    type Err = ParseDiceError;
    fn from_str(s: &str) -> Result<Dice, ParseDiceError> {
        let bad = || ParseDiceError::BadText(s.into());
        let (x, y) = match s.trim().as_bytes() {
            [x, y] => (*x, *y),
            [x, b'-' | b' ', y] => (*x, *y),
            _ => return Err(bad()),
        };
        if !x.is_ascii_digit() || !y.is_ascii_digit() {
            return Err(bad());
        }
        Dice::new(x - b'0', y - b'0')
    }
}

/// The result of the roll-off that decides who moves first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOff {
    /// Every throw as (White's die, Black's die); all but the last are ties.
    pub throws: Vec<(u8, u8)>,
}

impl RollOff {
    /// Each side throws one die until they differ.
    pub fn roll(rng: &mut impl Rng) -> RollOff {
        let mut throws = Vec::new();
        loop {
            let w = roll_die(rng);
            let b = roll_die(rng);
            throws.push((w, b));
            if w != b {
                return RollOff { throws };
            }
        }
    }

    /// The deciding throw (White's die, Black's die).
    pub fn decisive(&self) -> (u8, u8) {
        self.throws.last().copied().unwrap_or((2, 1))
    }

    /// The side that moves first: the higher thrower.
    pub fn winner(&self) -> Color {
        let (w, b) = self.decisive();
        if w > b { Color::White } else { Color::Black }
    }

    /// The two dice of the deciding throw, which the first mover plays under the federation
    /// opening.
    pub fn dice(&self) -> Dice {
        let (w, b) = self.decisive();
        Dice::new(w.clamp(1, 6), b.clamp(1, 6)).unwrap_or(Dice { high: 2, low: 1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn parse() {
        assert_eq!("65".parse(), Dice::new(6, 5));
        assert_eq!("6-5".parse(), Dice::new(5, 6));
        assert_eq!("1 1".parse(), Dice::new(1, 1));
        for bad in ["", "6", "655", "70", "6--5", "a5", "-65", "65-"] {
            assert!(bad.parse::<Dice>().is_err(), "{bad}");
        }
        assert_eq!(Dice::new(7, 1), Err(ParseDiceError::BadDie(7)));
    }

    #[test]
    fn seeded_rolls_repeat_and_cover_all_faces() {
        let mut a = ChaCha8Rng::seed_from_u64(3);
        let mut b = ChaCha8Rng::seed_from_u64(3);
        let mut seen = [0u32; 7];
        for _ in 0..600 {
            let x = Dice::roll(&mut a);
            assert_eq!(x, Dice::roll(&mut b));
            seen[usize::from(x.high)] += 1;
            seen[usize::from(x.low)] += 1;
        }
        assert!(seen[1..].iter().all(|&n| n > 100));
    }

    #[test]
    fn roll_off_never_ties() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for _ in 0..100 {
            let r = RollOff::roll(&mut rng);
            assert!(!r.dice().is_double());
            let (w, b) = r.decisive();
            assert_eq!(r.winner() == Color::White, w > b);
        }
    }
}
