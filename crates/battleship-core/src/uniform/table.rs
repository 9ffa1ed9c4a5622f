//! The table of the first ships: every valid partial fleet of them, drawn by Walker's
//! alias method with exact integer weights.

use alloc::vec;
use alloc::vec::Vec;

use rand::Rng;

use super::UniformFleets;

/// Walker's alias table with integer weights: exact probabilities `w_i / total`.
#[derive(Debug, Clone)]
pub(super) struct Alias {
    /// Sum of the weights (`< 2^63`).
    pub(super) total: u64,
    /// Bucket `b` keeps its own entry when a draw in `0..total` is below `buckets[b].0`,
    /// and gives entry `buckets[b].1` otherwise.
    pub(super) buckets: Vec<(u64, u32)>,
}

impl Alias {
    /// The table for `weights` (each bucket holds `total` units: entry `i` owns
    /// `n * w_i` units spread over its own bucket and the buckets that alias to it).
    pub(super) fn new(weights: &[u64]) -> Alias {
        let n = weights.len();
        let total: u64 = weights.iter().sum();
        let mut alias = Alias {
            total,
            buckets: (0..n as u32).map(|i| (total, i)).collect(),
        };
        if n == 0 || total == 0 {
            return alias;
        }
        let full = u128::from(total);
        let mut units: Vec<u128> = weights.iter().map(|&w| n as u128 * u128::from(w)).collect();
        let mut small: Vec<u32> = Vec::new();
        let mut large: Vec<u32> = Vec::new();
        for (i, &u) in units.iter().enumerate() {
            if u < full {
                small.push(i as u32);
            } else {
                large.push(i as u32);
            }
        }
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            let (s, l) = (s as usize, l as usize);
            alias.buckets[s] = (units[s] as u64, l as u32);
            units[l] -= full - units[s];
            if units[l] < full {
                large.pop();
                small.push(l as u32);
            }
        }
        // with exact integers every bucket left over holds exactly `total` units
        alias
    }
}

/// A uniform number in `0..range` (`range > 0`), Lemire's multiply-and-reject method.
#[inline]
pub(super) fn below64<R: Rng + ?Sized>(rng: &mut R, range: u64) -> u64 {
    let mut m = u128::from(rng.next_u64()) * u128::from(range);
    if (m as u64) < range {
        let threshold = range.wrapping_neg() % range;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(range);
        }
    }
    (m >> 64) as u64
}

impl UniformFleets {
    /// Enumerates the partial fleets of the first ships (as sets: equal ships in
    /// increasing position code), as many ships as keep them within `limit`, and builds
    /// the alias table that draws one with probability proportional to the product of
    /// its suffix bounds.
    pub(super) fn build_table(&mut self, order: &[usize], limit: usize, min_shift: u32) {
        let k = order.len();
        let mut taken: Vec<u128> = vec![0];
        let mut codes: Vec<u8> = Vec::new();
        let mut d = 0;
        while d < k {
            let kind = &self.kinds[order[d]];
            let same = d > 0 && order[d - 1] == order[d];
            let from = |e: usize| if same { codes[e * d + d - 1] + 1 } else { 0 };
            let mut count = 0usize;
            for (e, &t) in taken.iter().enumerate() {
                let from = from(e);
                kind.free_codes(t, self.all, self.w, |c| count += usize::from(c >= from));
            }
            if count > limit {
                break;
            }
            let mut next_taken = Vec::with_capacity(count);
            let mut next_codes = Vec::with_capacity(count * (d + 1));
            for (e, &t) in taken.iter().enumerate() {
                let from = from(e);
                let prefix = &codes[e * d..(e + 1) * d];
                kind.free_codes(t, self.all, self.w, |c| {
                    if c >= from {
                        next_taken.push(t | kind.pos[usize::from(c)].0);
                        next_codes.extend_from_slice(prefix);
                        next_codes.push(c);
                    }
                });
            }
            taken = next_taken;
            codes = next_codes;
            d += 1;
            if taken.is_empty() {
                break;
            }
        }
        self.prefix = d;
        self.prefix_fleets = taken.len();
        self.steps = self.suffix_order(order, &taken);
        let rest = k - d;
        let mut bounds = [0u8; crate::rules::MAX_SHIPS];
        let mut weights: Vec<u128> = Vec::with_capacity(taken.len());
        let mut entries = Vec::with_capacity(taken.len() * k);
        for (e, &t) in taken.iter().enumerate() {
            let w = self.suffix_bounds(&self.steps, t, &mut bounds);
            if w > 0 {
                weights.push(w);
                entries.extend_from_slice(&codes[e * d..(e + 1) * d]);
                entries.extend_from_slice(&bounds[..rest]);
            }
        }
        drop(taken);
        drop(codes);
        // scale the weights down (rounding up) only as far as needed for their sum to
        // stay below 2^63
        let scaled_sum = |shift: u32| {
            weights.iter().fold(0u128, |t, &w| {
                t.saturating_add(w.saturating_add((1u128 << shift) - 1) >> shift)
            })
        };
        self.shift = (min_shift..127)
            .find(|&shift| scaled_sum(shift) < 1 << 63)
            .unwrap_or(127);
        let scaled: Vec<u64> = weights
            .iter()
            .map(|&w| (w.saturating_add((1u128 << self.shift) - 1) >> self.shift) as u64)
            .collect();
        drop(weights);
        let alias = Alias::new(&scaled);
        drop(scaled);
        self.stride = 12 + k;
        self.entries = alias.buckets.len();
        self.total = alias.total;
        self.table = Vec::with_capacity(self.entries * self.stride);
        for (&(threshold, other), data) in alias.buckets.iter().zip(entries.chunks_exact(k)) {
            self.table.extend_from_slice(&threshold.to_le_bytes());
            self.table.extend_from_slice(&other.to_le_bytes());
            self.table.extend_from_slice(data);
        }
    }
}
