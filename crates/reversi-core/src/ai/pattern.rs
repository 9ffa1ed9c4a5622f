//! A trained pattern evaluation, with the code that trains it.
//!
//! The board is cut into 46 overlapping *pattern instances*: the four 3×3 corners, the
//! four edges with their two X-squares, the eight 2×5 corner blocks, the rows and columns
//! 2, 3 and 4 from each edge, and the diagonals of 4 to 8 squares. Each instance reads its
//! squares as a base-3 number (empty, own, opponent) and looks up a weight; symmetric
//! instances share one table, and there is one set of tables per game stage (by the number
//! of discs). The evaluation is the sum of the 46 weights plus weighted mobility,
//! potential mobility and parity terms.
//!
//! The weights are fitted by least squares in three stages. First to the final disc
//! difference of self-play games between two fixed hand-tuned bots ([`self_play`], with
//! random openings and a few random moves for variety); then twice more, each time the
//! bots of the last weights play again from random openings and without random moves
//! ([`self_play_engine`]): 6 plies deep and exact from 14 empties, then 6 plies deep and
//! exact from 16, so the last plies of each game are labelled exactly and the earlier ones
//! by the result of a decent game; each fit starts from the weights before it. [`Trainer`]
//! fits by stochastic gradient descent (a sample's step also moves the neighbouring stages
//! a quarter as far, so the 15 stages change smoothly), and [`Trainer::finish`] rounds the
//! weights into [`PatternWeights`], which serialise to the binary file shipped with the
//! crate (`patterns.bin`). These commands rebuild that file bit for bit (about 70 minutes
//! of CPU, half that in wall time with 2 threads; `--data` keeps each 500-game chunk, so a
//! stopped run resumes):
//!
//! ```text
//! tabletop reversi train --games 60000 --seed 1 --threads 2 --out /tmp/gen1.bin
//! tabletop reversi train --from /tmp/gen1.bin --games 10000 --depth 6 --exact 14 \
//!     --random 0 --seed 2 --threads 2 --data /tmp/gen2 --out /tmp/gen2.bin
//! tabletop reversi train --from /tmp/gen2.bin --games 30000 --depth 6 --exact 16 \
//!     --random 0 --seed 3 --threads 2 --data /tmp/gen3 \
//!     --out crates/reversi-core/src/ai/patterns.bin
//! ```

use alloc::vec;
use alloc::vec::Vec;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use super::bits::around;
use super::eval::{DISC, Evaluator};
use super::{Bot, Engine, Limits};
use crate::bitboard::legal_moves;
use crate::{Move, Position};

/// Number of game stages, each with its own tables (by discs on the board: 4 discs a
/// stage, the last one from 60 discs).
pub const STAGES: usize = 15;

/// The pattern kinds: number of squares and number of instances on the board.
const KINDS: [(u32, usize); 11] = [
    (9, 4),  // 3×3 corner
    (10, 4), // edge + 2 X-squares
    (10, 8), // 2×5 corner block
    (8, 4),  // line 2
    (8, 4),  // line 3
    (8, 4),  // line 4
    (8, 2),  // diagonal of 8
    (7, 4),  // diagonal of 7
    (6, 4),  // diagonal of 6
    (5, 4),  // diagonal of 5
    (4, 4),  // diagonal of 4
];

/// Number of pattern instances on the board.
pub const INSTANCES: usize = 46;

/// The scalar features after the pattern tables: mobility, potential mobility, parity.
const SCALARS: usize = 3;

/// Offset of each kind's table within a stage, and the size of a stage.
const OFFSETS: ([usize; 11], usize) = {
    let mut offsets = [0; 11];
    let mut total = 0;
    let mut k = 0;
    while k < KINDS.len() {
        offsets[k] = total;
        total += 3usize.pow(KINDS[k].0);
        k += 1;
    }
    (offsets, total)
};

/// Number of weights of one stage (pattern tables, then the scalar features).
pub const STAGE_WEIGHTS: usize = OFFSETS.1 + SCALARS;

/// The stage of a position with `discs` discs on the board.
#[inline]
pub fn stage(discs: u32) -> usize {
    ((discs.saturating_sub(4) as usize) / 4).min(STAGES - 1)
}

/// Base-3 spreading of up to 10 bits: bit `i` becomes `3^i`.
const BASE3: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut x = 0;
    while x < 1024 {
        let mut v = 0u16;
        let mut pow = 1u16;
        let mut bit = 0;
        while bit < 10 {
            if x & (1 << bit) != 0 {
                v += pow;
            }
            pow *= 3;
            bit += 1;
        }
        t[x] = v;
        x += 1;
    }
    t
};

#[inline(always)]
fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

#[inline(always)]
fn flip_horizontal(b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let b = ((b >> 1) & K1) | ((b & K1) << 1);
    let b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Reflection in the a1–h8 diagonal.
#[inline(always)]
fn transpose(b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (b ^ (b << 28));
    let b = b ^ t ^ (t >> 28);
    let t = K2 & (b ^ (b << 14));
    let b = b ^ t ^ (t >> 14);
    let t = K1 & (b ^ (b << 7));
    b ^ t ^ (t >> 7)
}

/// The eight symmetric images of a board; image 0 is the board itself. Every pattern is
/// read at one fixed place of each image.
#[inline(always)]
fn images(b: u64) -> [u64; 8] {
    let h = flip_horizontal(b);
    let v = flip_vertical(b);
    let hv = flip_vertical(h);
    let t = transpose(b);
    let th = flip_horizontal(t);
    let tv = flip_vertical(t);
    let thv = flip_vertical(th);
    [b, h, v, hv, t, th, tv, thv]
}

/// Bits of the diagonal running up-right from square `start` of rank 1 (`start` 0–4), in
/// the low bits.
#[inline(always)]
fn diagonal(b: u64, start: u32) -> u32 {
    ((b & DIAGONALS[start as usize]).wrapping_mul(0x0101_0101_0101_0101) >> (56 + start)) as u32
}

/// The squares of the diagonal running up-right from each of a1–e1.
const DIAGONALS: [u64; 5] = {
    let mut masks = [0u64; 5];
    let mut start = 0;
    while start < 5 {
        // the long diagonal shifted right, without the squares that wrap to file a
        let mut mask = 0x8040_2010_0804_0201u64 << start;
        let mut file = 0;
        while file < start {
            mask &= !(0x0101_0101_0101_0101u64 << file);
            file += 1;
        }
        masks[start] = mask;
        start += 1;
    }
    masks
};

/// The 46 table indices (within a stage) of (`player`, `opponent`).
pub fn indices(player: u64, opponent: u64) -> [u32; INSTANCES] {
    let p = images(player);
    let o = images(opponent);
    let mut out = [0u32; INSTANCES];
    let mut n = 0;
    let mut push = |kind: usize, own: u32, other: u32| {
        out[n] = OFFSETS.0[kind] as u32
            + u32::from(BASE3[own as usize])
            + 2 * u32::from(BASE3[other as usize]);
        n += 1;
    };
    // 3×3 corners: a1 of the board and of its three flips.
    let c33 = |b: u64| ((b & 7) | ((b >> 5) & 0x38) | ((b >> 10) & 0x1c0)) as u32;
    for i in 0..4 {
        push(0, c33(p[i]), c33(o[i]));
    }
    // Edges with X-squares: rank 1 + b2 + g2 of the board, its vertical flip, and the
    // two matching images of the transpose (files a and h).
    let e2x = |b: u64| ((b & 0xff) | ((b >> 1) & 0x100) | ((b >> 5) & 0x200)) as u32;
    for i in [0, 2, 4, 6] {
        push(1, e2x(p[i]), e2x(o[i]));
    }
    // 2×5 blocks: a1–e1 + a2–e2 of all eight images.
    let c25 = |b: u64| ((b & 0x1f) | ((b >> 3) & 0x3e0)) as u32;
    for i in 0..8 {
        push(2, c25(p[i]), c25(o[i]));
    }
    // Lines 2, 3 and 4 from each edge.
    for (kind, shift) in [(3, 8), (4, 16), (5, 24)] {
        for i in [0, 2, 4, 6] {
            push(
                kind,
                ((p[i] >> shift) & 0xff) as u32,
                ((o[i] >> shift) & 0xff) as u32,
            );
        }
    }
    // The two long diagonals.
    for i in [0, 1] {
        push(6, diagonal(p[i], 0), diagonal(o[i], 0));
    }
    // Shorter diagonals: above the a1–h8 diagonal (the board), below it (the transpose),
    // and the same two for the other direction (the horizontal and vertical flips).
    for (kind, start) in [(7, 1), (8, 2), (9, 3), (10, 4)] {
        for i in [0, 1, 2, 4] {
            push(kind, diagonal(p[i], start), diagonal(o[i], start));
        }
    }
    out
}

/// The scalar features of (`player`, `opponent`): mobility difference, potential mobility
/// difference and parity (1 when the number of empty squares is odd).
#[inline]
pub fn scalars(player: u64, opponent: u64) -> [i32; SCALARS] {
    let empty = !(player | opponent);
    let mobility = legal_moves(player, opponent).count_ones() as i32
        - legal_moves(opponent, player).count_ones() as i32;
    let potential = (around(opponent) & empty).count_ones() as i32
        - (around(player) & empty).count_ones() as i32;
    [mobility, potential, (empty.count_ones() & 1) as i32]
}

/// The square permutation that maps a kind's reading to its mirror image's, if the
/// kind's instances do not already cover all eight symmetries.
fn mirror(kind: usize) -> Option<[usize; 10]> {
    let mut perm = [0usize; 10];
    let bits = KINDS[kind].0 as usize;
    match kind {
        // 3×3 corner: transposed.
        0 => {
            for (i, slot) in perm.iter_mut().enumerate().take(9) {
                *slot = (i % 3) * 3 + i / 3;
            }
        }
        // Edge: reversed, the two X-squares swapped.
        1 => {
            for (i, slot) in perm.iter_mut().enumerate().take(8) {
                *slot = 7 - i;
            }
            perm[8] = 9;
            perm[9] = 8;
        }
        // 2×5 blocks: all eight images are read already.
        2 => return None,
        // Lines and diagonals: reversed.
        _ => {
            for (i, slot) in perm.iter_mut().enumerate().take(bits) {
                *slot = bits - 1 - i;
            }
        }
    }
    Some(perm)
}

/// The index whose square `perm[k]` holds what square `k` holds in `index`.
fn permute(mut index: usize, perm: &[usize]) -> usize {
    let mut out = 0;
    for &target in perm {
        out += (index % 3) * 3usize.pow(target as u32);
        index /= 3;
    }
    out
}

/// Where the tables of a position's stage start, its 46 table indices and its scalar
/// features.
#[inline]
fn features(player: u64, opponent: u64) -> (usize, [u32; INSTANCES], [i32; SCALARS]) {
    let base = stage((player | opponent).count_ones()) * STAGE_WEIGHTS;
    (base, indices(player, opponent), scalars(player, opponent))
}

/// The prediction of one stage's weights `w` for these features.
#[inline]
fn dot(w: &[f32], idx: &[u32; INSTANCES], s: &[i32; SCALARS]) -> f32 {
    let mut sum = 0.0f32;
    for &i in idx {
        sum += w[i as usize];
    }
    for (k, &v) in s.iter().enumerate() {
        sum += w[OFFSETS.1 + k] * v as f32;
    }
    sum
}

/// Magic bytes at the start of a weights file.
const MAGIC: [u8; 8] = *b"TTRVPAT\0";
/// Version of the weights file format.
const VERSION: u32 = 2;

/// Why a weights file was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Not a pattern weights file.
    #[error("not a reversi pattern weights file")]
    BadMagic,
    /// A newer or unknown format version.
    #[error("pattern weights format version {0} is not supported (expected {VERSION})")]
    Version(u32),
    /// Truncated or corrupt data, or tables of the wrong size.
    #[error("the pattern weights file is corrupt")]
    Corrupt,
}

/// The serialised form: header, then one table of weights per stage.
#[derive(Serialize, Deserialize)]
struct File {
    magic: [u8; 8],
    version: u32,
    stages: Vec<Vec<i16>>,
}

/// Trained weights in hundredths of a disc, [`STAGES`] × [`STAGE_WEIGHTS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    weights: Vec<i16>,
}

impl PatternWeights {
    /// The weights shipped with the crate (built by `tabletop reversi train`), compiled in
    /// with the `shipped-weights` feature; without it, read the file with
    /// [`PatternWeights::from_bytes`].
    #[cfg(feature = "shipped-weights")]
    pub fn shipped() -> PatternWeights {
        // The shipped file is checked by the tests, so this cannot fail.
        PatternWeights::from_bytes(include_bytes!("patterns.bin"))
            .unwrap_or_else(|_| PatternWeights::zero())
    }

    /// All-zero weights.
    pub fn zero() -> PatternWeights {
        PatternWeights {
            weights: vec![0; STAGES * STAGE_WEIGHTS],
        }
    }

    /// Reads a weights file.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let file: File = postcard::from_bytes(bytes).map_err(|_| WeightsError::Corrupt)?;
        if file.version != VERSION {
            return Err(WeightsError::Version(file.version));
        }
        if file.stages.len() != STAGES || file.stages.iter().any(|s| s.len() != STAGE_WEIGHTS) {
            return Err(WeightsError::Corrupt);
        }
        Ok(PatternWeights {
            weights: file.stages.concat(),
        })
    }

    /// The weights file (postcard with a magic and version header).
    pub fn to_bytes(&self) -> Vec<u8> {
        let file = File {
            magic: MAGIC,
            version: VERSION,
            stages: self
                .weights
                .chunks(STAGE_WEIGHTS)
                .map(<[i16]>::to_vec)
                .collect(),
        };
        postcard::to_allocvec(&file).unwrap_or_default()
    }

    /// The evaluation of (`player` to move, `opponent`) in hundredths of a disc.
    #[inline]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        let (base, idx, s) = features(player, opponent);
        let table = &self.weights[base..base + STAGE_WEIGHTS];
        let mut score = 0i32;
        for i in idx {
            score += i32::from(table[i as usize]);
        }
        for (k, v) in s.iter().enumerate() {
            score += i32::from(table[OFFSETS.1 + k]) * v;
        }
        score.clamp(-63 * DISC, 63 * DISC)
    }
}

/// A training position: the side to move's discs, the opponent's, and the final disc
/// difference from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Final disc difference (empties to the winner) from the side to move's view.
    pub score: i8,
}

/// Plays `games` seeded self-play games and returns every position with its final result.
///
/// Both sides are the hand-tuned bot searching `depth` plies and solving exactly from
/// `exact` empties; each game starts with 4 to 12 random plies and then plays a random
/// move instead of the bot's with probability `random_percent`/100, so that the positions
/// vary. The data depend only on the arguments and `rng`.
pub fn self_play<R: Rng>(
    rng: &mut R,
    games: usize,
    depth: u32,
    exact: u32,
    random_percent: u32,
) -> Vec<Sample> {
    let limits = Limits::depth(depth, exact);
    let mut bot = Engine::with_evaluator(limits, Evaluator::hand_tuned());
    // No aspiration window: through the table's search instability it changes the data,
    // and the shipped weights were made without one.
    bot.searcher_mut().set_aspiration(None);
    let mut samples = Vec::new();
    let mut line: Vec<(u64, u64, bool)> = Vec::with_capacity(64);
    for _ in 0..games {
        bot.new_game();
        line.clear();
        let mut pos = Position::start();
        let opening = rng.random_range(4..=12);
        let mut ply = 0;
        while !pos.is_over() {
            let moves = pos.legal_moves();
            let mv = if moves.is_empty() {
                Move::Pass
            } else if ply < opening || rng.random_range(0..100) < random_percent {
                moves[rng.random_range(0..moves.len())]
            } else {
                match bot.choose_move(&pos, &mut *rng) {
                    Some(mv) => mv,
                    None => break,
                }
            };
            if !moves.is_empty() {
                line.push((
                    pos.player(),
                    pos.opponent(),
                    pos.side_to_move() == crate::Color::Black,
                ));
            }
            if pos.play(mv).is_err() {
                break;
            }
            ply += 1;
        }
        push_labelled(&mut samples, &line, &pos);
    }
    samples
}

/// Labels every recorded position of a game (player, opponent, Black to move) with the
/// game's final disc difference seen from its side to move; a game that did not end adds
/// nothing.
fn push_labelled(samples: &mut Vec<Sample>, line: &[(u64, u64, bool)], end: &Position) {
    let Some(result) = end.outcome() else {
        return;
    };
    let black = result.score(crate::Color::Black);
    for &(p, o, black_to_move) in line {
        let s = if black_to_move { black } else { -black };
        samples.push(Sample {
            player: p,
            opponent: o,
            score: s.clamp(-64, 64) as i8,
        });
    }
}

/// Plays `games` seeded self-play games between two copies of `engine` and returns the
/// positions after each game's random opening (`opening` plies, drawn uniformly) with the
/// final result.
///
/// No random move is played after the opening, so every recorded position is followed by
/// the engine's own play: with an engine that solves exactly from `E` empties, the label
/// of every position with at most `E` empty squares is its exact score, and earlier ones
/// get the result of a game between equal, decent players. The data depend only on the
/// arguments and `rng`.
pub fn self_play_engine<R: Rng>(
    rng: &mut R,
    games: usize,
    engine: &mut Engine,
    opening: core::ops::RangeInclusive<u32>,
) -> Vec<Sample> {
    let mut samples = Vec::new();
    let mut line: Vec<(u64, u64, bool)> = Vec::with_capacity(64);
    for _ in 0..games {
        engine.new_game();
        line.clear();
        let mut pos = Position::start();
        let plies = rng.random_range(opening.clone());
        let mut ply = 0;
        while !pos.is_over() {
            let moves = pos.legal_moves();
            let mv = if moves.is_empty() {
                Move::Pass
            } else if ply < plies {
                moves[rng.random_range(0..moves.len())]
            } else {
                line.push((
                    pos.player(),
                    pos.opponent(),
                    pos.side_to_move() == crate::Color::Black,
                ));
                match engine.choose_move(&pos, &mut *rng) {
                    Some(mv) => mv,
                    None => break,
                }
            };
            if pos.play(mv).is_err() {
                break;
            }
            ply += 1;
        }
        push_labelled(&mut samples, &line, &pos);
    }
    samples
}

impl Sample {
    /// Size of a sample in [`Sample::write`]'s form.
    pub const BYTES: usize = 17;

    /// The 17-byte little-endian form: player, opponent, score.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.player.to_le_bytes());
        out.extend_from_slice(&self.opponent.to_le_bytes());
        out.push(self.score as u8);
    }

    /// Reads samples written by [`Sample::write`]; `None` when the length is not a whole
    /// number of samples, a square is taken twice or a score is out of range.
    pub fn read_all(bytes: &[u8]) -> Option<Vec<Sample>> {
        if !bytes.len().is_multiple_of(Sample::BYTES) {
            return None;
        }
        let mut out = Vec::with_capacity(bytes.len() / Sample::BYTES);
        for c in bytes.chunks_exact(Sample::BYTES) {
            let player = u64::from_le_bytes(c[0..8].try_into().ok()?);
            let opponent = u64::from_le_bytes(c[8..16].try_into().ok()?);
            let score = c[16] as i8;
            if player & opponent != 0 || !(-64..=64).contains(&score) {
                return None;
            }
            out.push(Sample {
                player,
                opponent,
                score,
            });
        }
        Some(out)
    }
}

/// How much of a sample's step also goes to the tables of the neighbouring stages, so
/// that the evaluation changes smoothly from one stage to the next.
const NEIGHBOUR_STEP: f32 = 0.25;

/// Least-squares fitting of pattern weights by stochastic gradient descent.
#[derive(Clone, Debug)]
pub struct Trainer {
    weights: Vec<f32>,
}

impl Default for Trainer {
    fn default() -> Trainer {
        Trainer::new()
    }
}

impl Trainer {
    /// A trainer starting from zero weights.
    pub fn new() -> Trainer {
        Trainer {
            weights: vec![0.0; STAGES * STAGE_WEIGHTS],
        }
    }

    /// A trainer starting from `weights` (to refine them with new data).
    pub fn from_weights(weights: &PatternWeights) -> Trainer {
        Trainer {
            weights: weights
                .weights
                .iter()
                .map(|&w| f32::from(w) / DISC as f32)
                .collect(),
        }
    }

    /// The current prediction for `sample`, in discs.
    pub fn predict(&self, sample: &Sample) -> f32 {
        let (base, idx, s) = features(sample.player, sample.opponent);
        dot(&self.weights[base..base + STAGE_WEIGHTS], &idx, &s)
    }

    /// One pass over `samples` in the order given by `order` (indices into `samples`),
    /// with learning rate `rate`. Returns the mean squared error seen during the pass.
    pub fn epoch(&mut self, samples: &[Sample], order: &[u32], rate: f32) -> f32 {
        let mut total = 0.0f64;
        for &k in order {
            let sample = &samples[k as usize];
            let (base, idx, s) = features(sample.player, sample.opponent);
            let err =
                f32::from(sample.score) - dot(&self.weights[base..base + STAGE_WEIGHTS], &idx, &s);
            total += f64::from(err * err);
            let stage = base / STAGE_WEIGHTS;
            for (st, share) in [
                (stage.wrapping_sub(1), NEIGHBOUR_STEP),
                (stage, 1.0),
                (stage + 1, NEIGHBOUR_STEP),
            ] {
                if st >= STAGES {
                    continue;
                }
                let w = &mut self.weights[st * STAGE_WEIGHTS..(st + 1) * STAGE_WEIGHTS];
                let step = rate * err * share;
                for &i in &idx {
                    w[i as usize] += step;
                }
                // Scalar features take values up to ~20: a smaller step keeps them stable.
                for (k, &v) in s.iter().enumerate() {
                    w[OFFSETS.1 + k] += step * 0.01 * v as f32;
                }
            }
        }
        (total / order.len().max(1) as f64) as f32
    }

    /// Trains on `samples` for `epochs` passes in a seeded random order, the learning rate
    /// falling from `rate` to a tenth of it. Returns the mean squared error of each pass.
    pub fn train<R: Rng + ?Sized>(
        &mut self,
        samples: &[Sample],
        epochs: usize,
        rate: f32,
        rng: &mut R,
    ) -> Vec<f32> {
        let mut order: Vec<u32> = (0..samples.len() as u32).collect();
        let mut errors = Vec::with_capacity(epochs);
        for e in 0..epochs {
            for i in (1..order.len()).rev() {
                let j = rng.random_range(0..=i);
                order.swap(i, j);
            }
            let t = if epochs > 1 {
                e as f32 / (epochs - 1) as f32
            } else {
                0.0
            };
            errors.push(self.epoch(samples, &order, rate * (1.0 - 0.9 * t)));
        }
        errors
    }

    /// The weights made symmetric and rounded to hundredths of a disc.
    ///
    /// Some instances read their squares in another order than their mirror images (an
    /// edge read from h1 to a1, a corner read transposed), so each table is averaged with
    /// its mirror: the evaluation is then the same for the eight symmetric boards.
    pub fn finish(&self) -> PatternWeights {
        let mut weights = self.weights.clone();
        for stage in weights.chunks_mut(STAGE_WEIGHTS) {
            for (kind, &(bits, _)) in KINDS.iter().enumerate() {
                let Some(perm) = mirror(kind) else { continue };
                let table = &mut stage[OFFSETS.0[kind]..OFFSETS.0[kind] + 3usize.pow(bits)];
                for i in 0..table.len() {
                    let j = permute(i, &perm[..bits as usize]);
                    if j > i {
                        let mean = (table[i] + table[j]) / 2.0;
                        table[i] = mean;
                        table[j] = mean;
                    }
                }
            }
        }
        PatternWeights {
            weights: weights
                .iter()
                .map(|&w| {
                    let x = w * DISC as f32;
                    let r = if x >= 0.0 { x + 0.5 } else { x - 0.5 };
                    r.clamp(i16::MIN as f32, i16::MAX as f32) as i16
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The shipped file read as a frontend reads it at run time, with or without the
    /// `shipped-weights` feature.
    fn file_weights() -> PatternWeights {
        PatternWeights::from_bytes(include_bytes!("patterns.bin")).expect("the shipped file")
    }

    fn square_bit(name: &str) -> u64 {
        let b = name.as_bytes();
        1 << ((b[1] - b'1') * 8 + (b[0] - b'a'))
    }

    #[test]
    fn symmetries_are_involutions_and_move_corners() {
        let b = 0x0123_4567_89ab_cdefu64;
        assert_eq!(flip_horizontal(flip_horizontal(b)), b);
        assert_eq!(transpose(transpose(b)), b);
        assert_eq!(flip_horizontal(square_bit("a1")), square_bit("h1"));
        assert_eq!(flip_vertical(square_bit("a1")), square_bit("a8"));
        assert_eq!(transpose(square_bit("b1")), square_bit("a2"));
        assert_eq!(transpose(square_bit("h1")), square_bit("a8"));
    }

    #[test]
    fn every_instance_reads_the_right_number_of_squares() {
        // With the whole board ours, each instance reads all its squares as "own".
        let idx = indices(u64::MAX, 0);
        let mut n = 0;
        for (kind, &(bits, count)) in KINDS.iter().enumerate() {
            for _ in 0..count {
                let all_own = (3usize.pow(bits) - 1) / 2;
                assert_eq!(idx[n] as usize, OFFSETS.0[kind] + all_own, "instance {n}");
                n += 1;
            }
        }
        assert_eq!(n, INSTANCES);
        // An empty board reads zero everywhere.
        let idx = indices(0, 0);
        let mut n = 0;
        for (kind, &(_, count)) in KINDS.iter().enumerate() {
            for _ in 0..count {
                assert_eq!(idx[n] as usize, OFFSETS.0[kind]);
                n += 1;
            }
        }
    }

    #[test]
    fn each_square_is_covered_by_the_expected_instances() {
        // a1 is in a 3×3 corner, two edges, two 2×5 blocks and one long diagonal.
        let hits = |sq: u64| {
            let base = indices(0, 0);
            indices(sq, 0)
                .iter()
                .zip(base.iter())
                .filter(|(a, b)| a != b)
                .count()
        };
        assert_eq!(hits(square_bit("a1")), 6);
        assert_eq!(hits(square_bit("h8")), 6);
        // d4: lines 4 (row and column), one long diagonal (a1-h8), the 7-diagonal
        // (a7-g1) — and no corner pattern.
        assert_eq!(hits(square_bit("d4")), 4);
        // Symmetric squares are covered alike.
        for (a, b) in [
            ("b2", "g7"),
            ("c1", "h6"),
            ("e3", "c5"),
            ("e3", "f4"),
            ("e3", "d6"),
        ] {
            assert_eq!(hits(square_bit(a)), hits(square_bit(b)), "{a} {b}");
        }
    }

    #[test]
    fn symmetric_positions_evaluate_alike() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let samples = self_play(&mut rng, 2, 1, 4, 10);
        let w = file_weights();
        for s in &samples {
            let e = w.evaluate(s.player, s.opponent);
            for (p, o) in images(s.player).into_iter().zip(images(s.opponent)) {
                assert_eq!(w.evaluate(p, o), e);
            }
        }
    }

    #[test]
    fn weights_files_round_trip_and_bad_files_are_rejected() {
        let shipped = file_weights();
        #[cfg(feature = "shipped-weights")]
        assert_eq!(PatternWeights::shipped(), shipped);
        assert_ne!(
            shipped,
            PatternWeights::zero(),
            "the shipped file must load"
        );
        let bytes = shipped.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&bytes), Ok(shipped));
        assert_eq!(
            PatternWeights::from_bytes(b"nonsense"),
            Err(WeightsError::BadMagic)
        );
        assert_eq!(
            PatternWeights::from_bytes(&bytes[..bytes.len() / 2]),
            Err(WeightsError::Corrupt)
        );
        let mut newer = bytes.clone();
        newer[8] = 9;
        assert_eq!(
            PatternWeights::from_bytes(&newer),
            Err(WeightsError::Version(9))
        );
    }

    #[test]
    fn training_is_deterministic_and_reduces_the_error() {
        let data = |seed| self_play(&mut ChaCha8Rng::seed_from_u64(seed), 20, 1, 6, 10);
        let samples = data(1);
        assert_eq!(samples, data(1));
        assert!(samples.iter().all(|s| s.score.abs() <= 64));
        let mut a = Trainer::new();
        let errors = a.train(&samples, 4, 0.01, &mut ChaCha8Rng::seed_from_u64(2));
        assert!(errors[3] < errors[0], "{errors:?}");
        let mut b = Trainer::new();
        b.train(&samples, 4, 0.01, &mut ChaCha8Rng::seed_from_u64(2));
        assert_eq!(a.finish(), b.finish());
    }
}
