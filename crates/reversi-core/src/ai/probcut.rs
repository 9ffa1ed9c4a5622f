//! Multi-ProbCut (Buro): a deep null-window test is decided early when a much shallower
//! search of the same position already lies far enough beyond the window.
//!
//! For each stage (empty squares, in buckets of [`BUCKET`]) and each deep depth, the
//! deep score is modelled as `a · shallow + b` plus a normal error of deviation `sigma`,
//! where `shallow` is the score of a search of [`shallow_depth`] plies. A node whose
//! shallow score predicts, with `t` deviations of margin, a result outside the window is
//! cut. The table is fitted by [`fit`] to pairs of searches measured with
//! [`measure`] (`tabletop reversi probcut`) and shipped as `probcut.bin`.

use alloc::vec;
use alloc::vec::Vec;

use rand::{Rng, RngExt};

use super::search::{Limits, Searcher};
use super::{Bot, Engine};
use crate::{Move, Position};

/// Empty squares per bucket of the table.
pub const BUCKET: u32 = 4;
/// Number of buckets (0–3 empties, 4–7, …, 60).
pub const BUCKETS: usize = 16;
/// Shallowest deep depth that is cut.
pub const MIN_DEPTH: u32 = 3;
/// Deepest depth with its own fitted parameters; deeper searches use this row.
pub const MAX_DEPTH: u32 = 10;
/// Rows of depths in the table.
pub const DEPTHS: usize = (MAX_DEPTH - MIN_DEPTH + 1) as usize;

/// The shallow search depth that predicts a search of `depth` plies (0: the evaluation).
pub const fn shallow_depth(depth: u32) -> u32 {
    (depth / 4) * 2 + (depth & 1)
}

/// One cell of the table: `deep ≈ a/1024 · shallow + b`, error deviation `sigma`
/// (hundredths of a disc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Slope, in 1/1024.
    pub a: i32,
    /// Offset, hundredths of a disc.
    pub b: i32,
    /// Deviation of the error, hundredths of a disc (0: never cut).
    pub sigma: i32,
}

/// A table: one [`Cut`] per bucket of empty squares and per deep depth.
pub type Table = [[Cut; DEPTHS]; BUCKETS];

/// Size of the table file: magic, then `BUCKETS × DEPTHS` cells of three `i16`.
pub const FILE_BYTES: usize = 8 + BUCKETS * DEPTHS * 6;
const MAGIC: [u8; 8] = *b"TTRVMPC1";

/// The shipped table, read at compile time.
static TABLE: Table = match parse(include_bytes!("probcut.bin")) {
    Some(t) => t,
    None => panic!("probcut.bin is not a probcut table"),
};

/// Reads a table file (see [`FILE_BYTES`]); `None` when it is not one, or a slope is not
/// positive or a deviation negative.
pub const fn parse(bytes: &[u8]) -> Option<Table> {
    if bytes.len() != FILE_BYTES {
        return None;
    }
    let mut i = 0;
    while i < 8 {
        if bytes[i] != MAGIC[i] {
            return None;
        }
        i += 1;
    }
    let mut table = [[Cut {
        a: 0,
        b: 0,
        sigma: 0,
    }; DEPTHS]; BUCKETS];
    let mut k = 0;
    while k < BUCKETS * DEPTHS {
        let at = 8 + k * 6;
        let a = i16::from_le_bytes([bytes[at], bytes[at + 1]]) as i32;
        let b = i16::from_le_bytes([bytes[at + 2], bytes[at + 3]]) as i32;
        let sigma = i16::from_le_bytes([bytes[at + 4], bytes[at + 5]]) as i32;
        if a <= 0 || sigma < 0 {
            return None;
        }
        table[k / DEPTHS][k % DEPTHS] = Cut { a, b, sigma };
        k += 1;
    }
    Some(table)
}

/// Writes a table in the form [`parse`] reads.
pub fn to_bytes(table: &Table) -> Vec<u8> {
    let mut out = Vec::with_capacity(FILE_BYTES);
    out.extend_from_slice(&MAGIC);
    for row in table {
        for c in row {
            for v in [c.a, c.b, c.sigma] {
                out.extend_from_slice(
                    &(v.clamp(i16::MIN.into(), i16::MAX.into()) as i16).to_le_bytes(),
                );
            }
        }
    }
    out
}

/// The shipped table (`probcut.bin`).
pub fn shipped() -> &'static Table {
    &TABLE
}

/// The cell of `table` for a search of `depth` plies with `empties` empty squares, if
/// that depth is cut at all.
#[inline]
pub(crate) fn cell(table: &Table, empties: u32, depth: u32) -> Option<Cut> {
    if depth < MIN_DEPTH {
        return None;
    }
    let row = (depth.min(MAX_DEPTH) - MIN_DEPTH) as usize;
    let c = table[((empties / BUCKET) as usize).min(BUCKETS - 1)][row];
    (c.sigma > 0).then_some(c)
}

/// The lowest shallow score that predicts a deep score of at least `beta` with `t`
/// (hundredths) deviations of margin.
#[inline]
pub(crate) fn high_bound(c: Cut, beta: i32, t: i32) -> i32 {
    let num = (i64::from(beta) - i64::from(c.b)) * 100 + i64::from(t) * i64::from(c.sigma);
    let den = i64::from(c.a) * 100;
    (num * 1024).div_euclid(den) as i32 + 1
}

/// The highest shallow score that predicts a deep score of at most `alpha`.
#[inline]
pub(crate) fn low_bound(c: Cut, alpha: i32, t: i32) -> i32 {
    let num = (i64::from(alpha) - i64::from(c.b)) * 100 - i64::from(t) * i64::from(c.sigma);
    let den = i64::from(c.a) * 100;
    (num * 1024).div_euclid(den) as i32
}

/// One measured pair: empty squares, deep depth, shallow score, deep score.
pub type Pair = (u32, u32, i32, i32);

/// Measures (shallow, deep) score pairs of (`player`, `opponent`) for every deep depth
/// from [`MIN_DEPTH`] to `max_depth`, with ProbCut off (so the fit does not feed on
/// itself) and no aspiration window (the shipped table was fitted without one).
pub fn measure(searcher: &mut Searcher, player: u64, opponent: u64, max_depth: u32) -> Vec<Pair> {
    let empties = (!(player | opponent)).count_ones();
    let (probcut, aspiration) = (searcher.probcut(), searcher.aspiration());
    searcher.set_probcut(None);
    searcher.set_aspiration(None);
    let mut scores = vec![0i32; max_depth as usize + 1];
    scores[0] = searcher.evaluator().evaluate(player, opponent);
    for d in 1..=max_depth {
        searcher.clear();
        let r = searcher.search(player, opponent, &Limits::depth(d, 0), &mut || false);
        scores[d as usize] = r.score;
    }
    searcher.set_probcut(probcut);
    searcher.set_aspiration(aspiration);
    (MIN_DEPTH..=max_depth)
        .map(|d| {
            (
                empties,
                d,
                scores[shallow_depth(d) as usize],
                scores[d as usize],
            )
        })
        .collect()
}

/// A position to measure: 4 to 8 random plies, then `bot`'s moves with one random move in
/// ten, until `empties` squares are empty (`None` if the game ends first, or the side to
/// move must pass there).
pub fn random_position<R: Rng>(rng: &mut R, bot: &mut Engine, empties: u32) -> Option<Position> {
    let mut pos = Position::start();
    bot.new_game();
    let opening = rng.random_range(4..=8);
    let mut ply = 0;
    while pos.empty_count() > empties {
        let moves = pos.legal_moves();
        let mv = if moves.is_empty() {
            Move::Pass
        } else if ply < opening || rng.random_range(0..10) == 0 {
            moves[rng.random_range(0..moves.len())]
        } else {
            bot.choose_move(&pos, &mut *rng)?
        };
        pos.play(mv).ok()?;
        ply += 1;
        if pos.is_over() {
            return None;
        }
    }
    (pos.empty_count() == empties && !pos.legal_moves().is_empty()).then_some(pos)
}

/// Fits the table by least squares to measured pairs: in each cell, the slope and offset
/// of the deep score on the shallow one, and the deviation of what is left. A cell with
/// fewer than 20 pairs borrows its nearest filled bucket of the same depth; depths never
/// measured stay uncut.
pub fn fit(pairs: &[Pair]) -> Table {
    let none = Cut {
        a: 1024,
        b: 0,
        sigma: 0,
    };
    let mut table = [[none; DEPTHS]; BUCKETS];
    let mut filled = [[false; DEPTHS]; BUCKETS];
    for (bucket, row) in table.iter_mut().enumerate() {
        for (r, cut) in row.iter_mut().enumerate() {
            let depth = MIN_DEPTH + r as u32;
            let cell: Vec<(f64, f64)> = pairs
                .iter()
                .filter(|p| ((p.0 / BUCKET) as usize).min(BUCKETS - 1) == bucket && p.1 == depth)
                .map(|p| (f64::from(p.2), f64::from(p.3)))
                .collect();
            if cell.len() < 20 {
                continue;
            }
            let n = cell.len() as f64;
            let (ms, md) = cell
                .iter()
                .fold((0.0, 0.0), |(s, d), p| (s + p.0 / n, d + p.1 / n));
            let (mut sxy, mut sxx) = (0.0, 0.0);
            for p in &cell {
                sxy += (p.0 - ms) * (p.1 - md);
                sxx += (p.0 - ms) * (p.0 - ms);
            }
            let a = if sxx > 0.0 {
                (sxy / sxx).clamp(0.5, 1.5)
            } else {
                1.0
            };
            let b = md - a * ms;
            let var = cell
                .iter()
                .map(|p| {
                    let e = p.1 - (a * p.0 + b);
                    e * e
                })
                .sum::<f64>()
                / (n - 2.0);
            *cut = Cut {
                a: round(a * 1024.0),
                b: round(b),
                sigma: round(sqrt(var)).max(1),
            };
            filled[bucket][r] = true;
        }
    }
    for r in 0..DEPTHS {
        for bucket in 0..BUCKETS {
            if filled[bucket][r] {
                continue;
            }
            let nearest = (0..BUCKETS)
                .filter(|&b| filled[b][r])
                .min_by_key(|&b| b.abs_diff(bucket));
            if let Some(b) = nearest {
                table[bucket][r] = table[b][r];
            }
        }
    }
    table
}

fn round(x: f64) -> i32 {
    (if x >= 0.0 { x + 0.5 } else { x - 0.5 }) as i32
}

/// Square root by Newton's method (no `std` here); exact enough for a deviation.
fn sqrt(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let mut r = if x > 1.0 { x / 2.0 } else { 1.0 };
    for _ in 0..60 {
        r = 0.5 * (r + x / r);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_round_trips_and_bad_files_are_rejected() {
        let bytes = include_bytes!("probcut.bin");
        let table = parse(bytes).unwrap();
        assert_eq!(to_bytes(&table), bytes.to_vec());
        assert!(parse(&bytes[..bytes.len() - 1]).is_none());
        let mut bad = bytes.to_vec();
        bad[0] ^= 1;
        assert!(parse(&bad).is_none());
    }

    #[test]
    fn bounds_invert_the_model() {
        let c = Cut {
            a: 1024,
            b: 50,
            sigma: 200,
        };
        // shallow + 50 - 1.5 * 200 >= 1000  <=>  shallow >= 1250, and
        // shallow + 50 + 1.5 * 200 <= -1000  <=>  shallow <= -1350
        assert_eq!(high_bound(c, 1000, 150), 1251);
        assert_eq!(low_bound(c, -1000, 150), -1350);
        let half = Cut {
            a: 512,
            b: 0,
            sigma: 100,
        };
        assert_eq!(high_bound(half, 100, 100), 401);
    }

    #[test]
    fn the_fit_recovers_a_linear_model() {
        // deep = 0.75 shallow + 30 ± 40 exactly, in bucket 10 at depth 5.
        let mut pairs = Vec::new();
        for i in 0..100 {
            let s = i * 10 - 500;
            let e = if i % 2 == 0 { 40 } else { -40 };
            pairs.push((41, 5, s, (s * 3) / 4 + 30 + e));
        }
        let t = fit(&pairs);
        let c = t[10][(5 - MIN_DEPTH) as usize];
        assert!((c.a - 768).abs() <= 5, "{c:?}");
        assert!((c.b - 30).abs() <= 2, "{c:?}");
        assert!((c.sigma - 40).abs() <= 2, "{c:?}");
        // The other buckets of depth 5 borrow it; depth 6 stays uncut.
        assert_eq!(t[3][(5 - MIN_DEPTH) as usize], c);
        assert_eq!(t[3][(6 - MIN_DEPTH) as usize].sigma, 0);
    }
}
