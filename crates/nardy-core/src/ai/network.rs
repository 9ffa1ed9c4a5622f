//! The learned evaluation: a one-hidden-layer network over inputs designed for Long
//! Nardy, its strict weights format and the shipped weights.

use alloc::vec::Vec;

use arrayvec::ArrayVec;
use rand::Rng;
use serde::{Deserialize, Serialize};
use tabletop_common::{Format, LoadError};

use crate::ai::equity::Probabilities;
use crate::ai::eval::{Evaluator, is_race, terminal_probabilities};
use crate::position::{Position, SideBoard, rotate_mask};

/// The weights file format: magic `TTNW`, version 1, a postcard [`Network`].
pub const WEIGHTS_FORMAT: Format = Format::new(*b"TTNW", 1, "Long Nardy network weights");

/// Inputs per point: at least one, two, three checkers, and the checkers beyond three / 4.
const PER_POINT: usize = 4;
/// Inputs of one side: its 24 points, then borne off / 15, pips / 200, checkers home / 15,
/// checkers in its starting quarter / 15, "bore nothing off yet" and the longest run of
/// its points in front of the opponent's rearmost checker / 6.
const SIDE_INPUTS: usize = 24 * PER_POINT + 6;
/// Every input of the first input set: the side to move, the other side (each in its own
/// path coordinates: 24 is its head, 1..6 its home), then "the game is a race".
pub const INPUTS: usize = 2 * SIDE_INPUTS + 1;
/// Blocking inputs of one side in the second set (see [`encode_blocks`]).
const BLOCK_INPUTS: usize = 3;
/// Every input of the second input set: the first set, then the blocking inputs of the
/// side to move and of the other side.
pub const INPUTS_V2: usize = INPUTS + 2 * BLOCK_INPUTS;
/// The outputs: [`Probabilities::to_array`].
pub const OUTPUTS: usize = 5;
/// The widest hidden layer a weights file may have.
pub const MAX_HIDDEN: usize = 512;

/// The nonzero inputs of a position (index, value): at most 15 checkers a side give at
/// most 15 point inputs, plus the extras.
pub(crate) type Inputs = ArrayVec<(u16, f32), 54>;

/// The longest run of `side`'s points in front of `opp`'s rearmost checker, along the
/// opponent's route: the longest run of set bits among the opponent's coordinates below
/// its rearmost checker.
fn prime_in_front(side: &SideBoard, opp: &SideBoard) -> u32 {
    if opp.mask == 0 {
        return 0;
    }
    let opp_rear = 32 - opp.mask.leading_zeros();
    let mut x = rotate_mask(side.mask) & ((1u32 << (opp_rear - 1)) - 1);
    let mut best = 0;
    while x != 0 {
        x &= x << 1;
        best += 1;
    }
    best
}

fn encode_side(side: &SideBoard, opp: &SideBoard, base: usize, out: &mut Inputs) {
    let mut home = 0u32;
    let mut start = 0u32;
    let mut pips = 0u32;
    // The occupied points only, in increasing order (the order of the inputs).
    let mut mask = side.mask;
    while mask != 0 {
        let q = mask.trailing_zeros() as u8 + 1;
        mask &= mask - 1;
        let n = side.count(q);
        pips += u32::from(q) * u32::from(n);
        if q <= 6 {
            home += u32::from(n);
        }
        if q >= 19 {
            start += u32::from(n);
        }
        let i = base + usize::from(q - 1) * PER_POINT;
        out.push((i as u16, 1.0));
        if n >= 2 {
            out.push((i as u16 + 1, 1.0));
        }
        if n >= 3 {
            out.push((i as u16 + 2, 1.0));
        }
        if n > 3 {
            out.push((i as u16 + 3, f32::from(n - 3) / 4.0));
        }
    }
    let extra = base + 24 * PER_POINT;
    let mut push = |k: usize, v: f32| {
        if v != 0.0 {
            out.push(((extra + k) as u16, v));
        }
    };
    push(0, f32::from(side.off) / 15.0);
    push(1, pips as f32 / 200.0);
    push(2, home as f32 / 15.0);
    push(3, start as f32 / 15.0);
    push(4, f32::from(u8::from(side.off == 0)));
    push(5, prime_in_front(side, opp) as f32 / 6.0);
}

/// The first input set for `position`, from its side to move.
pub(crate) fn encode(position: &Position) -> Inputs {
    let mut out = Inputs::new();
    let (m, o) = (position.mover(), position.waiter());
    encode_side(&m, &o, 0, &mut out);
    encode_side(&o, &m, SIDE_INPUTS, &mut out);
    if is_race(position) {
        out.push(((INPUTS - 1) as u16, 1.0));
    }
    out
}

/// The second input set for `position`: the first, then how each side is blocked.
pub(crate) fn encode_v2(position: &Position) -> Inputs {
    let mut out = encode(position);
    let (m, o) = (position.mover(), position.waiter());
    encode_blocks(&m, &o, INPUTS, &mut out);
    encode_blocks(&o, &m, INPUTS + BLOCK_INPUTS, &mut out);
    out
}

/// How many of the six dice a checker on `q` (own path coordinates) cannot play because
/// the opponent holds the point it would land on; `blocks` is the opponent's points in
/// the same coordinates.
fn blocked_dice(q: u32, blocks: u32) -> u32 {
    if q <= 1 {
        return 0;
    }
    // bits q-7 .. q-2 are the points q-6 .. q-1 (bit k is point k + 1)
    let below = blocks & ((1u32 << (q - 1)) - 1);
    (below >> q.saturating_sub(7)).count_ones()
}

/// The blocking inputs of `side` (the Long Nardy analogue of backgammon's escapes): the
/// dice its rearmost checker cannot play / 6, the dice its checkers outside home cannot
/// play, checker by checker / 90, and the checkers stuck on its head beyond the first
/// (one leaves a turn) times the share of dice that cannot leave it.
fn encode_blocks(side: &SideBoard, opp: &SideBoard, base: usize, out: &mut Inputs) {
    let blocks = rotate_mask(opp.mask);
    let rear = 32 - side.mask.leading_zeros();
    let mut total = 0;
    let mut mask = side.mask & !0x3F;
    while mask != 0 {
        let q = mask.trailing_zeros() + 1;
        mask &= mask - 1;
        total += u32::from(side.count(q as u8)) * blocked_dice(q, blocks);
    }
    let head = u32::from(side.count(24));
    let values = [
        blocked_dice(rear, blocks) as f32 / 6.0,
        total as f32 / 90.0,
        if head >= 2 {
            (head - 1) as f32 / 14.0 * blocked_dice(24, blocks) as f32 / 6.0
        } else {
            0.0
        },
    ];
    for (k, v) in values.into_iter().enumerate() {
        if v != 0.0 {
            out.push(((base + k) as u16, v));
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-x))
}

/// `libm::expf`'s constants (FreeBSD's `e_expf.c`), for [`sigmoid_8`].
const LN2_HI: f32 = f32::from_bits(0x3f31_7200);
const LN2_LO: f32 = f32::from_bits(0x35bf_be8e);
const INV_LN2: f32 = f32::from_bits(0x3fb8_aa3b);
const P1: f32 = f32::from_bits(0x3e2a_aa8f);
const P2: f32 = f32::from_bits(0xbb35_5215);

/// Whether `expf(x)` takes the ordinary path of `libm::expf` (2⁻¹⁴ < |x| < 87.34), the one
/// [`sigmoid_8`] repeats; the others (tiny, huge, NaN) are left to `libm`.
#[inline]
fn plain_expf(x: f32) -> bool {
    let hx = x.to_bits() & 0x7fff_ffff;
    hx > 0x3900_0000 && hx < 0x42ae_ac50
}

/// [`sigmoid`] of eight values whose `expf(-x)` all take the ordinary path, bit for bit
/// the same: `libm::expf`'s argument reduction and polynomial with its branches turned
/// into selects, so the compiler can run the eight lanes side by side. Where a branch
/// of `libm` sets `k = 0`, `hi = x`, `lo = 0`, the general formulas give the same values
/// exactly (`x − 0·ln2hi = x`, `0·ln2lo = +0`), and the final `scalbnf(y, k)` is one
/// multiplication by 2ᵏ for |k| ≤ 126.
#[inline]
fn sigmoid_8(h: &mut [f32; 8]) {
    for a in h.iter_mut() {
        let x = -*a;
        let bits = x.to_bits();
        let hx = bits & 0x7fff_ffff;
        let negative = bits >> 31 != 0;
        let far = (INV_LN2 * x + if negative { -0.5 } else { 0.5 }) as i32;
        let near = if negative { -1 } else { 1 };
        let k = if hx > 0x3f85_1592 {
            far
        } else if hx > 0x3eb1_7218 {
            near
        } else {
            0
        };
        let kf = k as f32;
        let hi = x - kf * LN2_HI;
        let lo = kf * LN2_LO;
        let r = hi - lo;
        let rr = r * r;
        let c = r - rr * (P1 + rr * P2);
        let y = 1.0 + (r * c / (2.0 - c) - lo + hi);
        let e = y * f32::from_bits(((0x7f + k) as u32) << 23);
        *a = 1.0 / (1.0 + e);
    }
}

/// [`sigmoid`] of every value of `h`, eight at a time where they allow it.
fn sigmoid_all(h: &mut [f32]) {
    let mut chunks = h.chunks_exact_mut(8);
    for chunk in &mut chunks {
        let lanes: &mut [f32; 8] = chunk.try_into().expect("chunks of 8");
        if lanes.iter().all(|&a| plain_expf(-a)) {
            sigmoid_8(lanes);
        } else {
            lanes.iter_mut().for_each(|a| *a = sigmoid(*a));
        }
    }
    chunks
        .into_remainder()
        .iter_mut()
        .for_each(|a| *a = sigmoid(*a));
}

/// A network with one hidden layer of sigmoid units and five sigmoid outputs (the
/// [`Probabilities`] of the side to move), trained by self-play with TD(λ) (see
/// [`Trainer`](crate::ai::Trainer)). The inputs are sparse (a position has at most 48
/// nonzero inputs of [`INPUTS`]), so one evaluation costs about 48 × hidden
/// multiply-adds for the hidden layer.
///
/// ```
/// # #[cfg(feature = "shipped-weights")] {
/// use nardy_core::{Position, ai::{Evaluator, Network}};
/// let net = Network::shipped();
/// let p = net.evaluate(&Position::start());
/// assert!(p.win > 0.3 && p.win < 0.8);
/// let bytes = net.to_bytes();
/// assert_eq!(Network::from_bytes(&bytes)?, net);
/// assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
/// # }
/// # Ok::<(), tabletop_common::LoadError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Network {
    inputs: u16,
    hidden: u16,
    /// Input-major: `w1[i * hidden + j]` from input `i` to hidden unit `j`.
    pub(crate) w1: Vec<f32>,
    pub(crate) b1: Vec<f32>,
    /// Output-major: `w2[o * hidden + j]` from hidden unit `j` to output `o`.
    pub(crate) w2: Vec<f32>,
    pub(crate) b2: Vec<f32>,
}

/// The weights shipped with the crate, produced by the command in the crate's docs.
#[cfg(feature = "shipped-weights")]
static SHIPPED: &[u8] = include_bytes!("weights.bin");

impl Network {
    /// A network with `hidden` units and small random weights from `rng` (uniform in
    /// ±0.1, drawn in a fixed order).
    pub fn random(hidden: usize, rng: &mut dyn Rng) -> Network {
        Network::random_with(INPUTS, hidden, rng)
    }

    /// A network over `inputs` inputs ([`INPUTS`] or [`INPUTS_V2`]; any other number
    /// means [`INPUTS`]) with `hidden` units and small random weights from `rng`.
    pub fn random_with(inputs: usize, hidden: usize, rng: &mut dyn Rng) -> Network {
        let inputs = if inputs == INPUTS_V2 {
            INPUTS_V2
        } else {
            INPUTS
        };
        let hidden = hidden.clamp(1, MAX_HIDDEN);
        let mut draw = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 * 0.2 - 0.1)
                .collect()
        };
        Network {
            inputs: inputs as u16,
            hidden: hidden as u16,
            w1: draw(inputs * hidden),
            b1: draw(hidden),
            w2: draw(OUTPUTS * hidden),
            b2: draw(OUTPUTS),
        }
    }

    /// The weights shipped in the crate (`src/ai/weights.bin`), compiled in with the
    /// `shipped-weights` feature; without it, read the file with [`Network::from_bytes`].
    ///
    /// # Panics
    ///
    /// Never in a released crate: a test loads the shipped file.
    #[cfg(feature = "shipped-weights")]
    pub fn shipped() -> Network {
        Network::from_bytes(SHIPPED).expect("the shipped weights load")
    }

    /// The number of hidden units.
    pub fn hidden(&self) -> usize {
        usize::from(self.hidden)
    }

    /// The number of inputs: [`INPUTS`] or [`INPUTS_V2`].
    pub fn inputs(&self) -> usize {
        usize::from(self.inputs)
    }

    /// The inputs of `position` as this network reads them.
    pub(crate) fn encode(&self, position: &Position) -> Inputs {
        if usize::from(self.inputs) == INPUTS_V2 {
            encode_v2(position)
        } else {
            encode(position)
        }
    }

    /// The weights in [`WEIGHTS_FORMAT`].
    pub fn to_bytes(&self) -> Vec<u8> {
        WEIGHTS_FORMAT.encode(self)
    }

    /// Reads weights written by [`Network::to_bytes`]; strict: the header, the exact
    /// length, the layer sizes and finite values are all checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, LoadError> {
        let (_, net): (u16, Network) = WEIGHTS_FORMAT.decode(bytes)?;
        net.check().map_err(|e| LoadError::Illegal(e.into()))?;
        Ok(net)
    }

    fn check(&self) -> Result<(), &'static str> {
        let h = usize::from(self.hidden);
        let inputs = usize::from(self.inputs);
        if inputs != INPUTS && inputs != INPUTS_V2 {
            return Err("the network has the wrong number of inputs");
        }
        if h == 0 || h > MAX_HIDDEN {
            return Err("the hidden layer has 0 or too many units");
        }
        if self.w1.len() != inputs * h
            || self.b1.len() != h
            || self.w2.len() != OUTPUTS * h
            || self.b2.len() != OUTPUTS
        {
            return Err("a layer has the wrong size");
        }
        let all = self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(&self.b2);
        if all.clone().any(|w| !w.is_finite()) {
            return Err("a weight is not a finite number");
        }
        Ok(())
    }

    /// The hidden activations for `x` into `h` (length `hidden`).
    pub(crate) fn hidden_layer(&self, x: &Inputs, h: &mut [f32]) {
        let n = usize::from(self.hidden);
        // Blocks of 32 units whose sums stay in registers over all the inputs (instead
        // of a load and a store of every sum for every input); each sum still adds its
        // terms in the inputs' order, so the values are the same to the bit.
        const BLOCK: usize = 32;
        let mut j = 0;
        while j + BLOCK <= n {
            let mut acc: [f32; BLOCK] = self.b1[j..j + BLOCK].try_into().expect("a block");
            for &(i, v) in x {
                let at = usize::from(i) * n + j;
                let row: &[f32; BLOCK] = self.w1[at..at + BLOCK].try_into().expect("a block");
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += v * w;
                }
            }
            h[j..j + BLOCK].copy_from_slice(&acc);
            j += BLOCK;
        }
        h[j..n].copy_from_slice(&self.b1[j..]);
        for &(i, v) in x {
            let row = &self.w1[usize::from(i) * n + j..(usize::from(i) + 1) * n];
            for (a, w) in h[j..n].iter_mut().zip(row) {
                *a += v * w;
            }
        }
        sigmoid_all(&mut h[..n]);
    }

    /// The outputs for hidden activations `h`.
    ///
    /// The five sums run side by side (five independent chains instead of one long one),
    /// each still adding its terms in the order of the hidden units, so the result is the
    /// same to the bit as one output after another.
    pub(crate) fn output_layer(&self, h: &[f32]) -> [f32; OUTPUTS] {
        let n = usize::from(self.hidden);
        let h = &h[..n];
        let r: [&[f32]; OUTPUTS] = core::array::from_fn(|o| &self.w2[o * n..(o + 1) * n]);
        let mut s: [f32; OUTPUTS] = core::array::from_fn(|o| self.b2[o]);
        for j in 0..n {
            let a = h[j];
            s[0] += a * r[0][j];
            s[1] += a * r[1][j];
            s[2] += a * r[2][j];
            s[3] += a * r[3][j];
            s[4] += a * r[4][j];
        }
        s.map(sigmoid)
    }

    /// The raw outputs for the inputs `x`.
    pub(crate) fn forward(&self, x: &Inputs) -> [f32; OUTPUTS] {
        let mut h = [0f32; MAX_HIDDEN];
        self.hidden_layer(x, &mut h);
        self.output_layer(&h)
    }
}

impl Evaluator for Network {
    fn evaluate(&self, position: &Position) -> Probabilities {
        terminal_probabilities(position).unwrap_or_else(|| {
            Probabilities::from_array(self.forward(&self.encode(position))).consistent()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn inputs_fit_and_stay_in_range() {
        for text in [
            "24:15/12:15 w",
            "24:1,19:2,17:1,13:2,6:3,5:3,4:3/12:9,9:2,8:2,3:2 b",
            "1:15/18:15 w",
            "-/12:15 w",
        ] {
            let p: Position = text.parse().unwrap();
            let x = encode(&p);
            assert!(
                x.iter()
                    .all(|&(i, v)| usize::from(i) < INPUTS && v > 0.0 && v <= 3.0)
            );
        }
    }

    #[test]
    fn blocked_dice_count_the_opponents_points_within_six() {
        // opponent on own points 9, 7 and 4 (bits 8, 6, 3): from 10, dice 1, 3 and 6
        let blocks = (1 << 8) | (1 << 6) | (1 << 3);
        assert_eq!(blocked_dice(10, blocks), 3);
        // from 12 only 9 and 7 are within reach (dice 3 and 5); from 3, none
        assert_eq!(blocked_dice(12, blocks), 2);
        assert_eq!(blocked_dice(3, blocks), 0);
        assert_eq!(blocked_dice(1, blocks), 0);
        assert_eq!(blocked_dice(24, 0x00FF_FFFF), 6);
    }

    #[test]
    fn the_second_input_set_adds_how_each_side_is_blocked() {
        // White's head (24) faces Black on points 23..18 (Black's path coordinates 11..6):
        // a six-prime of 15 checkers (2, 3, 3, 3, 2, 2).
        let p: Position = "24:15/23:2,22:3,21:3,20:3,19:2,18:2 w".parse().unwrap();
        let v1 = encode(&p);
        let v2 = encode_v2(&p);
        assert_eq!(&v2[..v1.len()], &v1[..]);
        let extra: Vec<_> = v2[v1.len()..].to_vec();
        // the mover's rearmost checker has all six dice blocked, its 15 checkers too, and
        // 14 wait behind the first on its head, all blocked
        assert_eq!(extra[0], (INPUTS as u16, 1.0));
        assert_eq!(extra[1], (INPUTS as u16 + 1, 1.0));
        assert_eq!(extra[2], (INPUTS as u16 + 2, 1.0));
        // Black is not blocked at all: none of its inputs is present
        assert!(
            extra
                .iter()
                .all(|&(i, _)| usize::from(i) < INPUTS + BLOCK_INPUTS)
        );
        assert!(
            v2.iter()
                .all(|&(i, v)| usize::from(i) < INPUTS_V2 && v > 0.0 && v <= 3.0)
        );

        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let net = Network::random_with(INPUTS_V2, 16, &mut rng);
        assert_eq!(net.inputs(), INPUTS_V2);
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.evaluate(&p), net.evaluate(&p));
        assert_eq!(Network::random_with(999, 16, &mut rng).inputs(), INPUTS);
    }

    /// The inputs as first written (every point in turn, loops for pips and primes).
    fn reference_encode(p: &Position) -> Inputs {
        fn prime(side: &SideBoard, opp: &SideBoard) -> u32 {
            if opp.mask == 0 {
                return 0;
            }
            let opp_rear = 32 - opp.mask.leading_zeros() as u8;
            let (mut run, mut best) = (0, 0);
            for r in (1..opp_rear).rev() {
                if side.count(crate::position::rotate(r)) > 0 {
                    run += 1;
                    best = best.max(run);
                } else {
                    run = 0;
                }
            }
            best
        }
        fn side_inputs(side: &SideBoard, opp: &SideBoard, base: usize, out: &mut Inputs) {
            let (mut home, mut start) = (0u32, 0u32);
            for q in 1..=24u8 {
                let n = side.count(q);
                if n == 0 {
                    continue;
                }
                if q <= 6 {
                    home += u32::from(n);
                }
                if q >= 19 {
                    start += u32::from(n);
                }
                let i = base + usize::from(q - 1) * PER_POINT;
                out.push((i as u16, 1.0));
                if n >= 2 {
                    out.push((i as u16 + 1, 1.0));
                }
                if n >= 3 {
                    out.push((i as u16 + 2, 1.0));
                }
                if n > 3 {
                    out.push((i as u16 + 3, f32::from(n - 3) / 4.0));
                }
            }
            let extra = base + 24 * PER_POINT;
            for (k, v) in [
                f32::from(side.off) / 15.0,
                side.pips() as f32 / 200.0,
                home as f32 / 15.0,
                start as f32 / 15.0,
                f32::from(u8::from(side.off == 0)),
                prime(side, opp) as f32 / 6.0,
            ]
            .into_iter()
            .enumerate()
            {
                if v != 0.0 {
                    out.push(((extra + k) as u16, v));
                }
            }
        }
        let mut out = Inputs::new();
        let (m, o) = (p.mover(), p.waiter());
        side_inputs(&m, &o, 0, &mut out);
        side_inputs(&o, &m, SIDE_INPUTS, &mut out);
        if crate::ai::eval::is_race(p) {
            out.push(((INPUTS - 1) as u16, 1.0));
        }
        out
    }

    /// The bit tricks give the same inputs, bit for bit, on every position of random games.
    #[test]
    fn inputs_match_the_reference() {
        let rules = crate::rules::Rules::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut checked = 0;
        for _ in 0..40 {
            let mut p = Position::start();
            while p.finished().is_none() {
                assert_eq!(encode(&p), reference_encode(&p), "{p}");
                checked += 1;
                let dice = crate::dice::Dice::roll(&mut rng);
                let moves = p.legal_moves_with_results(dice, &rules);
                p = moves[(rng.next_u32() as usize) % moves.len()].1;
            }
        }
        assert!(checked > 1_000);
    }

    /// The eight-lane sigmoid is `sigmoid` bit for bit: on a sample of all floats (both
    /// signs, the ordinary path and both ends of it), and on a chunk mixing ordinary and
    /// special values.
    #[test]
    fn sigmoid_lanes_match_libm() {
        // With a step of 8 the lanes (offsets 0, 7, …, 49) cover every float: run so
        // once in release after a change; the test takes every 3,896th.
        const STEP: u32 = 487 * 8;
        let mut checked = 0u64;
        let mut bits = 0u32;
        loop {
            let mut lanes = [0f32; 8];
            for (i, l) in lanes.iter_mut().enumerate() {
                *l = f32::from_bits(bits.wrapping_add(i as u32 * 7));
            }
            let want = lanes.map(sigmoid);
            let mut got = lanes;
            sigmoid_all(&mut got);
            for (i, (g, w)) in got.iter().zip(want).enumerate() {
                assert!(
                    g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                    "{:e}: {g:e} against {w:e}",
                    lanes[i]
                );
            }
            checked += 8;
            match bits.checked_add(STEP) {
                Some(b) => bits = b,
                None => break,
            }
        }
        assert!(checked > 8_000_000);
        let mut mixed = [0.3, -90.0, 1e-9, f32::NAN, 5.0, -0.7, 88.5, 0.0, 2.0, -3.0];
        let want = mixed.map(sigmoid);
        sigmoid_all(&mut mixed);
        for (g, w) in mixed.iter().zip(want) {
            assert!(g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()));
        }
    }

    #[test]
    fn strict_loading() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let net = Network::random(8, &mut rng);
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(Network::from_bytes(&long), Err(LoadError::Corrupt));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(LoadError::Corrupt)
        );
        let mut bad = net.clone();
        bad.w1[3] = f32::NAN;
        assert!(matches!(
            Network::from_bytes(&bad.to_bytes()),
            Err(LoadError::Illegal(_))
        ));
        let mut bad = net.clone();
        bad.b1.pop();
        assert!(matches!(
            Network::from_bytes(&bad.to_bytes()),
            Err(LoadError::Illegal(_))
        ));
        assert!(matches!(
            Network::from_bytes(b"XXXX\x01\x00"),
            Err(LoadError::NotASave { .. })
        ));
        // The shipped file loads, as a frontend reads it at run time and compiled in.
        let file = Network::from_bytes(include_bytes!("weights.bin")).unwrap();
        assert!(file.hidden() > 0);
        #[cfg(feature = "shipped-weights")]
        assert_eq!(Network::shipped(), file);
    }
}
