//! The exact one-sided bear-off database and the race equities it gives.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use once_cell::race::OnceBox;

use crate::ai::equity::Probabilities;
use crate::ai::eval::{Evaluator, terminal_probabilities};
use crate::dice::Dice;
use crate::movegen::Generator;
use crate::position::{CHECKERS, Color, Position, SideBoard};
use crate::rules::Rules;

/// Positions of one side with every checker on its board in its home: 0 to 15 checkers on
/// six points, C(21, 6).
pub const BEAROFF_POSITIONS: usize = 54_264;

/// Rolls counted while building; the database keeps only as many as any position needs.
const BUILD_ROLLS: usize = 48;
/// Rolls counted to the first checker off (a side with all 15 home always gets one off in
/// a few rolls).
const FIRST_ROLLS: usize = 8;

/// The exact one-sided bear-off database: for every way one side can have all its
/// checkers in its home (54,264 positions), the exact distribution of the number of rolls
/// it needs to bear everything off, playing each roll to minimise the expected number of
/// rolls, and of the rolls it needs to bear off its first checker (for the mars), playing
/// to minimise that.
///
/// It is built by dynamic programming over the positions in order of pip count, with the
/// engine's own move generation (so every rule of bearing off is the engine's): about a
/// second in an optimised build, so it is built on first use, when a position with every
/// checker home is asked about ([`BearoffDb::new`] itself costs nothing, and a game or a
/// hint that never reaches a bear-off never pays for it). It takes about 7 MB (f32
/// distributions); share one (`Arc`), the levels do. When both sides are bearing off, the
/// race is exact: [`BearoffDb::race_probabilities`].
///
/// ```
/// use nardy_core::{Color, Position, ai::BearoffDb};
/// let db = BearoffDb::new();
/// let p: Position = "1:1/18:15 w".parse()?;
/// let one = db.expected_rolls(&p, Color::White).unwrap();
/// assert!((one - 1.0).abs() < 1e-6);
/// let p: Position = "2:2/18:15 w".parse()?; // 6-1 .. 2-1 bear off only one
/// let mean = db.expected_rolls(&p, Color::White).unwrap();
/// assert!((mean - 46.0 / 36.0).abs() < 1e-5);
/// # Ok::<(), nardy_core::ParsePositionError>(())
/// ```
#[derive(Debug, Default)]
pub struct BearoffDb {
    /// The tables, built by the first call that needs them (by one thread; a thread that
    /// races it builds the same tables and drops its copy).
    tables: OnceBox<Tables>,
}

/// The tables of a [`BearoffDb`].
#[derive(Debug, Clone)]
struct Tables {
    /// Rolls kept per position.
    stride: usize,
    /// `finish[i * stride + n]`: probability that position `i` needs exactly `n` rolls.
    finish: Vec<f32>,
    /// `first[i * FIRST_ROLLS + n]`: probability that the first checker is off after
    /// exactly `n` rolls (n = 0 when one is already off).
    first: Vec<f32>,
    /// Expected rolls to bear everything off.
    mean: Vec<f32>,
}

/// Binomial coefficients up to C(21, 6).
const fn binomials() -> [[u32; 7]; 22] {
    let mut c = [[0u32; 7]; 22];
    let mut n = 0;
    while n < 22 {
        c[n][0] = 1;
        let mut k = 1;
        while k < 7 && k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

const BINOMIAL: [[u32; 7]; 22] = binomials();

/// The rank of the home counts `c` (points 1..6 of the side's path) among all 54,264:
/// the prefix sums made strictly increasing form a 6-subset of 0..=20, ranked in colex.
fn rank(c: &[u8; 6]) -> usize {
    let mut sum = 0usize;
    let mut r = 0u32;
    for (k, &n) in c.iter().enumerate() {
        sum += usize::from(n);
        r += BINOMIAL[sum + k][k + 1];
    }
    r as usize
}

/// The home counts of `side`, if all of its checkers on the board are home.
fn home_counts(side: &SideBoard) -> Option<[u8; 6]> {
    if side.mask & !0x3F != 0 {
        return None;
    }
    let mut c = [0u8; 6];
    for (i, slot) in c.iter_mut().enumerate() {
        *slot = side.count(i as u8 + 1);
    }
    Some(c)
}

impl Clone for BearoffDb {
    fn clone(&self) -> BearoffDb {
        BearoffDb {
            tables: match self.tables.get() {
                Some(tables) => OnceBox::with_value(Box::new(tables.clone())),
                None => OnceBox::new(),
            },
        }
    }
}

impl BearoffDb {
    /// The database, to be built on first use (about a second optimised; see the type's
    /// docs).
    pub fn new() -> BearoffDb {
        BearoffDb::default()
    }

    /// Whether the tables have been built (by a question that needed them).
    pub fn is_built(&self) -> bool {
        self.tables.get().is_some()
    }

    /// The tables, built now if no call has needed them before.
    fn tables(&self) -> &Tables {
        self.tables.get_or_init(|| Box::new(Tables::build()))
    }

    /// The longest number of rolls any position can need (the length of each
    /// distribution).
    pub fn max_rolls(&self) -> usize {
        self.tables().stride - 1
    }

    fn index(position: &Position, color: Color) -> Option<usize> {
        home_counts(&position.sides[color.index()]).map(|c| rank(&c))
    }

    /// The exact distribution of the rolls `color` needs to bear off all its checkers
    /// (index `n`: exactly `n` rolls), if every checker it has left is home.
    pub fn rolls_distribution(&self, position: &Position, color: Color) -> Option<&[f32]> {
        let i = Self::index(position, color)?;
        let t = self.tables();
        Some(&t.finish[i * t.stride..(i + 1) * t.stride])
    }

    /// The expected rolls `color` needs to bear off, if every checker it has left is home.
    pub fn expected_rolls(&self, position: &Position, color: Color) -> Option<f32> {
        let i = Self::index(position, color)?;
        Some(self.tables().mean[i])
    }

    /// The exact race probabilities for the side to move when both sides have every
    /// checker home (the terminal result when one has finished); `None` otherwise. Each
    /// side plays to minimise its expected rolls; the last-roll tie is not modelled.
    pub fn race_probabilities(&self, position: &Position) -> Option<Probabilities> {
        if let Some(done) = terminal_probabilities(position) {
            return Some(done);
        }
        let me = position.side_to_move();
        let (mi, oi) = (
            Self::index(position, me)?,
            Self::index(position, me.other())?,
        );
        Some(self.tables().race(mi, oi))
    }
}

impl Tables {
    /// Builds the tables by dynamic programming (see [`BearoffDb`]).
    fn build() -> Tables {
        let rules = Rules::default();
        // Every home position, in order of pips (children always have fewer).
        let mut all: Vec<([u8; 6], u32)> = Vec::with_capacity(BEAROFF_POSITIONS);
        let mut c = [0u8; 6];
        fill(&mut c, 0, CHECKERS, &mut all);
        all.sort_by_key(|&(c, pips)| (pips, rank(&c)));
        debug_assert_eq!(all.len(), BEAROFF_POSITIONS);

        let mut finish = vec![0f32; BEAROFF_POSITIONS * BUILD_ROLLS];
        let mut first = vec![0f32; BEAROFF_POSITIONS * FIRST_ROLLS];
        let mut mean = vec![0f32; BEAROFF_POSITIONS];
        let mut first_mean = vec![0f32; BEAROFF_POSITIONS];
        let mut generator = Generator::new();
        let mut kids = Vec::new();
        let mut best_used = 1;
        for &(counts, _) in &all {
            let i = rank(&counts);
            let on_board: u8 = counts.iter().sum();
            if on_board < CHECKERS {
                first[i * FIRST_ROLLS] = 1.0;
            }
            if on_board == 0 {
                finish[i * BUILD_ROLLS] = 1.0;
                continue;
            }
            let position = home_position(&counts);
            let mut dist = [0f32; BUILD_ROLLS];
            let mut first_dist = [0f32; FIRST_ROLLS];
            let (mut m, mut fm) = (0f32, 0f32);
            for dice in Dice::ALL {
                let w = crate::ai::search::roll_weight(dice);
                kids.clear();
                generator.children(&position, dice, &rules, &mut kids);
                let ranks = kids
                    .iter()
                    .filter_map(|k| home_counts(&k.sides[0]).map(|c| rank(&c)));
                // The child with the fewest expected rolls (the lowest rank on a tie).
                let best = ranks
                    .clone()
                    .min_by(|&a, &b| mean[a].total_cmp(&mean[b]).then(a.cmp(&b)))
                    .expect("a side with checkers home always has a move");
                m += w * (1.0 + mean[best]);
                for n in 0..BUILD_ROLLS - 1 {
                    dist[n + 1] += w * finish[best * BUILD_ROLLS + n];
                }
                if on_board == CHECKERS {
                    let fbest = ranks
                        .min_by(|&a, &b| first_mean[a].total_cmp(&first_mean[b]).then(a.cmp(&b)))
                        .expect("a move exists");
                    fm += w * (1.0 + first_mean[fbest]);
                    for n in 0..FIRST_ROLLS - 1 {
                        first_dist[n + 1] += w * first[fbest * FIRST_ROLLS + n];
                    }
                }
            }
            mean[i] = m;
            first_mean[i] = fm;
            finish[i * BUILD_ROLLS..(i + 1) * BUILD_ROLLS].copy_from_slice(&dist);
            if on_board == CHECKERS {
                first[i * FIRST_ROLLS..(i + 1) * FIRST_ROLLS].copy_from_slice(&first_dist);
            }
            if let Some(last) = dist.iter().rposition(|&p| p > 0.0) {
                best_used = best_used.max(last + 1);
            }
        }
        // Keep only the rolls some position can need.
        let stride = best_used;
        let mut kept = Vec::with_capacity(BEAROFF_POSITIONS * stride);
        for i in 0..BEAROFF_POSITIONS {
            kept.extend_from_slice(&finish[i * BUILD_ROLLS..i * BUILD_ROLLS + stride]);
        }
        Tables {
            stride,
            finish: kept,
            first,
            mean,
        }
    }

    /// The race probabilities of the side to move at home rank `mi` against an opponent
    /// at rank `oi`.
    fn race(&self, mi: usize, oi: usize) -> Probabilities {
        let fm = &self.finish[mi * self.stride..(mi + 1) * self.stride];
        let fo = &self.finish[oi * self.stride..(oi + 1) * self.stride];
        let gm = &self.first[mi * FIRST_ROLLS..(mi + 1) * FIRST_ROLLS];
        let go = &self.first[oi * FIRST_ROLLS..(oi + 1) * FIRST_ROLLS];
        // P(X needs at least n rolls).
        let at_least = |d: &[f32], n: usize| -> f32 { d.iter().skip(n).sum() };
        let (mut win, mut win_mars, mut lose_mars) = (0f32, 0f32, 0f32);
        for n in 1..self.stride {
            if fm[n] > 0.0 {
                // The mover finishes on its n-th roll, the opponent has had n - 1.
                win += fm[n] * at_least(fo, n);
                win_mars += fm[n] * at_least(go, n);
            }
            if fo[n] > 0.0 {
                // The opponent finishes on its n-th roll, the mover has had n.
                lose_mars += fo[n] * at_least(gm, n + 1);
            }
        }
        Probabilities {
            win,
            win_mars,
            win_koks: 0.0,
            lose_mars,
            lose_koks: 0.0,
        }
        .consistent()
    }
}

/// Every way to put at most `left` checkers on points `k + 1..=6`, with their pips.
fn fill(c: &mut [u8; 6], k: usize, left: u8, out: &mut Vec<([u8; 6], u32)>) {
    if k == 6 {
        let pips = c
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as u32 + 1) * u32::from(n))
            .sum();
        out.push((*c, pips));
        return;
    }
    for n in 0..=left {
        c[k] = n;
        fill(c, k + 1, left - n, out);
    }
    c[k] = 0;
}

/// White with `counts` on points 1..6, Black out of the way in its home, White to move.
fn home_position(counts: &[u8; 6]) -> Position {
    let mut white = [0u8; 24];
    white[..6].copy_from_slice(counts);
    let mut black = [0u8; 24];
    black[12] = CHECKERS; // point 13, Black's last home point
    Position::from_boards(white, black, Color::White).expect("a valid bear-off position")
}

/// An evaluator that is exact where the database knows the answer (finished games, and
/// races where both sides are bearing off) and asks `inner` elsewhere.
#[derive(Debug, Clone)]
pub struct WithBearoff<E> {
    /// The database, shared.
    pub db: alloc::sync::Arc<BearoffDb>,
    /// The evaluation everywhere else.
    pub inner: E,
}

impl<E: Evaluator> Evaluator for WithBearoff<E> {
    fn evaluate(&self, position: &Position) -> Probabilities {
        self.db
            .race_probabilities(position)
            .unwrap_or_else(|| self.inner.evaluate(position))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ai::eval::is_race;
    use alloc::collections::BTreeMap;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::sync::OnceLock;

    /// One database for every test of the crate.
    pub(crate) fn db() -> &'static alloc::sync::Arc<BearoffDb> {
        static DB: OnceLock<alloc::sync::Arc<BearoffDb>> = OnceLock::new();
        DB.get_or_init(|| alloc::sync::Arc::new(BearoffDb::new()))
    }

    #[test]
    fn the_tables_are_built_only_for_a_bear_off() {
        let db = BearoffDb::new();
        let opening: Position = "24:15/12:15 w".parse().unwrap();
        assert!(db.race_probabilities(&opening).is_none());
        assert!(db.expected_rolls(&opening, Color::White).is_none());
        assert!(!db.is_built(), "an opening position built the tables");
        let copy = db.clone();
        let race: Position = "1:1/18:15 w".parse().unwrap();
        assert_eq!(db.race_probabilities(&race).unwrap().win, 1.0);
        assert!(db.is_built() && !copy.is_built());
        assert!(db.clone().is_built());
    }

    #[test]
    fn ranks_are_a_bijection() {
        let mut all = Vec::new();
        fill(&mut [0; 6], 0, CHECKERS, &mut all);
        assert_eq!(all.len(), BEAROFF_POSITIONS);
        let mut seen = vec![false; BEAROFF_POSITIONS];
        for (c, _) in &all {
            let r = rank(c);
            assert!(!seen[r]);
            seen[r] = true;
        }
    }

    /// Expected rolls by plain recursion over the engine's legal turns, memoised.
    fn brute_force(p: &Position, memo: &mut BTreeMap<[u8; 6], f64>) -> f64 {
        let counts = home_counts(&p.sides[0]).unwrap();
        if counts.iter().all(|&n| n == 0) {
            return 0.0;
        }
        if let Some(&v) = memo.get(&counts) {
            return v;
        }
        let mut total = 0.0;
        for dice in Dice::ALL {
            let w = f64::from(crate::ai::search::roll_weight(dice));
            let best = p
                .legal_moves_with_results(dice, &Rules::default())
                .into_iter()
                .map(|(_, c)| brute_force(&c.with_side_to_move(Color::White), memo))
                .fold(f64::INFINITY, f64::min);
            total += w * (1.0 + best);
        }
        memo.insert(counts, total);
        total
    }

    #[test]
    fn agrees_with_brute_force_on_small_positions() {
        let db = db();
        let mut memo = BTreeMap::new();
        let mut checked = 0;
        let mut all = Vec::new();
        fill(&mut [0; 6], 0, 4, &mut all);
        for (c, _) in all {
            let p = home_position(&c);
            let exact = brute_force(&p, &mut memo);
            let got = f64::from(db.expected_rolls(&p, Color::White).unwrap());
            assert!((exact - got).abs() < 1e-4, "{p}: {exact} vs {got}");
            let dist = db.rolls_distribution(&p, Color::White).unwrap();
            let mass: f32 = dist.iter().sum();
            let mean: f32 = dist.iter().enumerate().map(|(n, &q)| n as f32 * q).sum();
            assert!((mass - 1.0).abs() < 1e-5);
            assert!((f64::from(mean) - exact).abs() < 1e-4);
            checked += 1;
        }
        assert_eq!(checked, 210); // C(10, 6): up to 4 checkers on 6 points
    }

    #[test]
    fn distributions_are_complete() {
        let db = db();
        assert!(db.max_rolls() < BUILD_ROLLS - 1);
        let full = home_position(&[0, 0, 0, 0, 0, 15]);
        let d = db.rolls_distribution(&full, Color::White).unwrap();
        assert!((d.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        let m = db.expected_rolls(&full, Color::White).unwrap();
        assert!((m - (90.0 / 8.17 + 1.0)).abs() < 2.0, "{m}");
    }

    /// Plays a race where both sides are home, each minimising its expected rolls.
    fn simulate(db: &BearoffDb, start: Position, rng: &mut ChaCha8Rng) -> (bool, bool) {
        let mover = start.side_to_move();
        let mut p = start;
        let mut generator = Generator::new();
        let mut kids = Vec::new();
        loop {
            if let Some(r) = terminal_probabilities(&p) {
                // The side to move now lost; did the original mover win?
                let won = p.side_to_move() != mover;
                return (won, r.lose_mars == 1.0);
            }
            let dice = Dice::roll(rng);
            kids.clear();
            generator.children(&p, dice, &Rules::default(), &mut kids);
            let me = p.side_to_move();
            p = *kids
                .iter()
                .min_by(|a, b| {
                    let ea = db.expected_rolls(a, me).unwrap();
                    let eb = db.expected_rolls(b, me).unwrap();
                    ea.total_cmp(&eb)
                })
                .unwrap();
        }
    }

    #[test]
    fn race_equities_agree_with_simulation() {
        let db = db();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for text in ["6:3,5:3,4:2,1:2/18:4,16:4,14:2 w", "6:2,2:3/17:2,14:3 b"] {
            let p: Position = text.parse().unwrap();
            assert!(is_race(&p));
            let exact = db.race_probabilities(&p).unwrap();
            let n = 20_000;
            let wins = (0..n).filter(|_| simulate(db, p, &mut rng).0).count();
            let rate = wins as f32 / n as f32;
            let sd = (exact.win * (1.0 - exact.win) / n as f32).sqrt();
            assert!(
                (rate - exact.win).abs() < 4.0 * sd + 1e-3,
                "{text}: {rate} vs {}",
                exact.win
            );
        }
    }

    #[test]
    fn mars_in_a_race() {
        let db = db();
        // White needs one roll; Black has all 15 on its 6-point: marsed unless it gets one
        // off first, which it cannot (White finishes first).
        let p: Position = "1:1/18:15 w".parse().unwrap();
        let r = db.race_probabilities(&p).unwrap();
        assert_eq!(r.win, 1.0);
        assert_eq!(r.win_mars, 1.0);
        let sum: f32 = r.exclusive().iter().sum();
        assert!((sum - 1.0).abs() < 1e-6);
    }
}
