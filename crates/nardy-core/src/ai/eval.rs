//! The [`Evaluator`] trait, exact values of finished games, race detection and the
//! hand-written evaluation.

use alloc::boxed::Box;
use alloc::sync::Arc;

use crate::ai::equity::Probabilities;
use crate::position::{CHECKERS, Position, SideBoard, rotate};

/// A static evaluation: the probabilities of the game's end for the side to move of
/// `position`, before it rolls. Searches take any evaluator.
pub trait Evaluator {
    /// The probabilities for `position`'s side to move. Finished games get their exact
    /// result (see [`terminal_probabilities`]).
    fn evaluate(&self, position: &Position) -> Probabilities;
}

impl<E: Evaluator + ?Sized> Evaluator for &E {
    fn evaluate(&self, position: &Position) -> Probabilities {
        (**self).evaluate(position)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for Box<E> {
    fn evaluate(&self, position: &Position) -> Probabilities {
        (**self).evaluate(position)
    }
}

impl<E: Evaluator + ?Sized> Evaluator for Arc<E> {
    fn evaluate(&self, position: &Position) -> Probabilities {
        (**self).evaluate(position)
    }
}

/// The exact result of a finished game for the side to move (the side that did not
/// finish): a loss, by mars when it bore off nothing, by koks when it also still has a
/// checker in its starting quarter. `None` while neither side has finished.
///
/// ```
/// use nardy_core::{Position, ai::terminal_probabilities};
/// let p: Position = "24:15/- w".parse()?; // Black has borne off everything
/// let r = terminal_probabilities(&p).unwrap();
/// assert_eq!((r.win, r.lose_mars, r.lose_koks), (0.0, 1.0, 1.0));
/// assert_eq!(terminal_probabilities(&Position::start()), None);
/// # Ok::<(), nardy_core::ParsePositionError>(())
/// ```
pub fn terminal_probabilities(position: &Position) -> Option<Probabilities> {
    let mover = position.side_to_move();
    let loss_of = |loser| {
        let mars = position.borne_off(loser) == 0;
        let koks = mars && position.in_starting_quarter(loser);
        Probabilities {
            lose_mars: f32::from(u8::from(mars)),
            lose_koks: f32::from(u8::from(koks)),
            ..Probabilities::LOSS
        }
    };
    if position.borne_off(mover.other()) == CHECKERS {
        Some(loss_of(mover))
    } else if position.borne_off(mover) == CHECKERS {
        Some(loss_of(mover.other()).flip())
    } else {
        None
    }
}

/// The circle index (0 = White's head point 24, 23 = point 1) of the absolute points in a
/// 24-bit mask (bit `p - 1` for point `p`).
fn circle_mask(absolute: u32) -> u32 {
    // Bit p - 1 goes to bit 24 - p: a reversal of the low 24 bits.
    (absolute & 0x00FF_FFFF).reverse_bits() >> 8
}

/// The mask of absolute points (bit `p - 1`) of a side given in its own path coordinates.
fn absolute_mask(side: &SideBoard, black: bool) -> u32 {
    if black {
        crate::position::rotate_mask(side.mask)
    } else {
        side.mask
    }
}

/// Whether the game is a pure race: no checker of either side can ever again be blocked
/// by, or block, a checker of the other (every pair of checkers has passed each other).
/// A side with nothing left on the board is in a race with anything.
///
/// ```
/// use nardy_core::{Position, ai::is_race};
/// assert!(!is_race(&Position::start()));
/// assert!(is_race(&"6:5,1:10/18:15 w".parse()?));
/// assert!(!is_race(&"13:1,6:5,1:9/18:15 w".parse()?)); // Black's 18 still passes White's 13
/// # Ok::<(), nardy_core::ParsePositionError>(())
/// ```
pub fn is_race(position: &Position) -> bool {
    let white = position.sides[0];
    let black = position.sides[1];
    if white.mask == 0 || black.mask == 0 {
        return true;
    }
    // Circle: both sides advance 0 → 23; White travels 0..=23, Black 12..=35 (mod 24).
    let w_circle = circle_mask(absolute_mask(&white, false));
    let b_circle = circle_mask(absolute_mask(&black, true));
    let full = 0x00FF_FFFFu32;
    // White's rearmost checker (highest path coordinate) is at circle 24 - q.
    let w_rear = 24 - (32 - white.mask.leading_zeros());
    let ahead_of_white = full & !((2u32 << w_rear) - 1); // circle points (w_rear, 23]
    // Black's rearmost checker at extended index 12 + 24 - q (12..=35).
    let b_rear = 36 - (32 - black.mask.leading_zeros());
    let ahead_of_black = if b_rear <= 23 {
        // (b_rear, 23] on the first lap, then 0..=11 on the second.
        (full & !((2u32 << b_rear) - 1)) | 0xFFF
    } else {
        // (b_rear - 24, 11] on the second lap.
        0xFFF & !((2u32 << (b_rear - 24)) - 1)
    };
    b_circle & ahead_of_white == 0 && w_circle & ahead_of_black == 0
}

/// The hand-written evaluation: a race model on effective pip counts (the average roll
/// moves 8.17 pips, and the rolls needed to finish are close to normally distributed),
/// with the position's structure turned into pips: checkers left on the head, stacks,
/// points made in the opponent's starting quarter and in the own second quarter, and runs
/// of points in front of the opponent's rearmost checker (primes). Mars and koks come
/// from the same model applied to the loser's race to its first checker off and out of
/// its starting quarter. It knows no lookahead; its strength is the greedy level.
#[derive(Debug, Clone, Copy, Default)]
pub struct HandEval;

/// Average pips of one roll (doubles count four times).
const PIPS_PER_ROLL: f32 = 8.166_667;
/// Variance of the rolls needed per pip to travel (the roll's variance over its mean cubed).
const ROLL_VARIANCE_PER_PIP: f32 = 0.034;

/// Standard normal distribution function.
fn phi(z: f32) -> f32 {
    0.5 * (1.0 + libm::erff(z * core::f32::consts::FRAC_1_SQRT_2))
}

/// The structural value of `side` against `opp`, in pips (positive is good for `side`).
fn structure(side: &SideBoard, opp: &SideBoard) -> f32 {
    let mut v = 0.0;
    let head = side.count(24);
    v -= 1.0 * f32::from(head.saturating_sub(1));
    // The opponent's rearmost checker, in the opponent's path coordinates.
    let opp_rear = if opp.mask == 0 {
        0
    } else {
        32 - opp.mask.leading_zeros() as u8
    };
    let mut run = 0u32;
    let mut best_run = 0u32;
    // Walk the opponent's route from its rear forward: opponent coordinate r, ours rotate(r).
    for r in (1..opp_rear).rev() {
        let q = rotate(r);
        if side.count(q) >= 1 {
            run += 1;
            best_run = best_run.max(run);
            // A point just in front of opponent's checkers hinders them most.
            if opp_rear - r <= 6 {
                v += 1.0;
            }
        } else {
            run = 0;
        }
    }
    v += 0.9 * (best_run * best_run) as f32;
    for q in 1..24u8 {
        let n = side.count(q);
        if n == 0 {
            continue;
        }
        if n > 3 {
            v -= 1.0 * f32::from(n - 3);
        }
        if (7..=12).contains(&q) {
            v += 1.5;
        } else if (13..=18).contains(&q) {
            v += 0.8;
        }
    }
    v
}

/// Rolls `side` needs for `pips`, at least one per checker still on its head (one leaves
/// per turn).
fn rolls(pips: f32, head: u8) -> f32 {
    (pips / PIPS_PER_ROLL).max(f32::from(head))
}

impl HandEval {
    /// The evaluation of a position where neither side has finished.
    fn estimate(&self, position: &Position) -> Probabilities {
        let m = position.mover();
        let o = position.waiter();
        let race = is_race(position);
        let wastage = |s: &SideBoard| 2.0 * f32::from(CHECKERS - s.off);
        let (mut em, mut eo) = (m.pips() as f32 + wastage(&m), o.pips() as f32 + wastage(&o));
        if !race {
            em -= structure(&m, &o);
            eo -= structure(&o, &m);
        }
        let (em, eo) = (em.max(1.0), eo.max(1.0));
        let extra = if race { 1.0 } else { 4.0 };
        let sigma = |a: f32, b: f32| libm::sqrtf(ROLL_VARIANCE_PER_PIP * (a + b) + extra);
        let nm = rolls(em, m.count(24));
        let no = rolls(eo, o.count(24));
        // The mover rolls first: it wins when it needs no more rolls than the opponent.
        let win = phi((no - nm + 0.5) / sigma(em, eo));
        // Pips to the first checker off: everything home, then one more checker's distance.
        let to_first_off = |s: &SideBoard| -> f32 {
            let mut p = 0u32;
            let mut nearest = 6u32;
            for q in 1..=24u32 {
                let n = u32::from(s.count(q as u8));
                if q > 6 {
                    p += (q - 6) * n;
                } else if n > 0 {
                    nearest = nearest.min(q);
                }
            }
            p as f32 + nearest as f32
        };
        let to_leave_start = |s: &SideBoard| -> f32 {
            (19..=24u32)
                .map(|q| (q - 18) * u32::from(s.count(q as u8)))
                .sum::<u32>() as f32
        };
        let mut p = Probabilities {
            win,
            ..Probabilities::LOSS
        };
        if o.off == 0 {
            let f = to_first_off(&o);
            let nf = rolls(f, o.count(24));
            p.win_mars = phi((nf - nm + 0.5) / sigma(em, f));
            let k = to_leave_start(&o);
            if k > 0.0 {
                let nk = rolls(k, o.count(24));
                p.win_koks = phi((nk - nm + 0.5) / sigma(em, k));
            }
        }
        if m.off == 0 {
            let f = to_first_off(&m);
            let nf = rolls(f, m.count(24));
            p.lose_mars = phi((nf - no - 0.5) / sigma(eo, f));
            let k = to_leave_start(&m);
            if k > 0.0 {
                let nk = rolls(k, m.count(24));
                p.lose_koks = phi((nk - no - 0.5) / sigma(eo, k));
            }
        }
        p.consistent()
    }
}

impl Evaluator for HandEval {
    fn evaluate(&self, position: &Position) -> Probabilities {
        terminal_probabilities(position).unwrap_or_else(|| self.estimate(position))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn race_detection() {
        assert!(!is_race(&Position::start()));
        // Both home: a race.
        assert!(is_race(&pos("6:5,1:10/18:15 w")));
        // Black's 18 still has to pass White's 13 on its way to 13.
        assert!(!is_race(&pos("13:1,6:5,1:9/18:15 w")));
        // Black on 5 (first lap) has White's checkers on 3 ahead.
        assert!(!is_race(&pos("3:15/5:1,18:14 b")));
        // Black's 2 sits on White's way from 3: contact.
        assert!(!is_race(&pos("3:15/2:1,18:14 b")));
        // Black's 24 (second lap) has passed White's 3.
        assert!(is_race(&pos("3:15/24:1,18:14 b")));
        // White's 20 lies on Black's way from 24 to 13: contact.
        assert!(!is_race(&pos("20:1,3:14/24:1,18:14 b")));
        assert!(is_race(&pos("-/12:15 w")));
    }

    #[test]
    fn circle_mask_reverses_the_points() {
        let by_loop = |absolute: u32| {
            let mut out = 0;
            for p in 1..=24u32 {
                if absolute & (1 << (p - 1)) != 0 {
                    out |= 1 << (24 - p);
                }
            }
            out
        };
        let mut m = 0x0001_2345_u32;
        for _ in 0..20_000 {
            m = m.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let x = m & 0x00FF_FFFF;
            assert_eq!(circle_mask(x), by_loop(x), "{x:x}");
        }
        for p in 0..24 {
            assert_eq!(circle_mask(1 << p), by_loop(1 << p));
        }
    }

    #[test]
    fn hand_eval_is_sane() {
        let rules = Rules::default();
        let e = HandEval;
        let start = e.evaluate(&Position::start());
        // The side to move at the start is ahead by its roll.
        assert!(start.win > 0.5 && start.win < 0.7, "{start:?}");
        let ahead = e.evaluate(&pos("1:15/18:15 w"));
        assert!(ahead.win > 0.99);
        let behind = e.evaluate(&pos("24:15/13:1 w"));
        assert!(behind.win < 0.01 && behind.lose_mars > 0.9, "{behind:?}");
        assert!(behind.equity(&rules) < -1.8);
    }
}
