//! Bit tricks of the sampler: the k-th set bit of a bitboard, and exact small uniform
//! integers from 16-bit chunks of the generator's output.

use rand::Rng;

/// Index of the `k`-th (from 0) set bit of `m` (`k < m.count_ones()`).
#[inline]
pub(crate) fn select(m: u128, k: u32) -> usize {
    let low = (m as u64).count_ones();
    if k < low {
        select64(m as u64, k)
    } else {
        64 + select64((m >> 64) as u64, k - low)
    }
}

/// Index of the `k`-th set bit of `x` (`k < x.count_ones()`), without a loop over the
/// bytes: the running bit counts of the bytes are compared with `k` all at once.
#[inline]
pub(super) fn select64(x: u64, k: u32) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut c = x - ((x >> 1) & 0x5555_5555_5555_5555);
    c = (c & 0x3333_3333_3333_3333) + ((c >> 2) & 0x3333_3333_3333_3333);
    c = (c + (c >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // byte i of `running`: the set bits of bytes 0..=i (at most 64, so no carries)
    let running = c.wrapping_mul(ONES);
    // high bit of byte i set when running_i <= k: the bit is beyond byte i
    let passed = (((u64::from(k) * ONES) | HIGH) - running) & HIGH;
    let byte = ((passed >> 7).wrapping_mul(ONES) >> 56) as u32;
    let before = if byte == 0 {
        0
    } else {
        ((running >> (8 * (byte - 1))) & 0xff) as u32
    };
    let mut word = (x >> (8 * byte)) & 0xff;
    for _ in before..k {
        word &= word - 1;
    }
    8 * byte as usize + word.trailing_zeros() as usize
}

/// Exact uniform small integers from 16-bit chunks of the generator's output (Lemire's
/// multiply-and-reject method), so one 64-bit draw serves up to four choices.
pub(super) struct Bits16 {
    pub(super) buf: u64,
    pub(super) left: u32,
}

impl Bits16 {
    pub(super) fn next16<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        if self.left == 0 {
            self.buf = rng.next_u64();
            self.left = 4;
        }
        let x = (self.buf & 0xFFFF) as u32;
        self.buf >>= 16;
        self.left -= 1;
        x
    }

    /// A uniform number in `0..range` (`0 < range <= 65536`).
    pub(super) fn below<R: Rng + ?Sized>(&mut self, rng: &mut R, range: u32) -> u32 {
        let mut m = self.next16(rng) * range;
        let mut low = m & 0xFFFF;
        if low < range {
            let threshold = (65536 - range) % range;
            while low < threshold {
                m = self.next16(rng) * range;
                low = m & 0xFFFF;
            }
        }
        m >> 16
    }
}
