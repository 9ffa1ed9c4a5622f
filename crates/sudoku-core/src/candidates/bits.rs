//! The bitsets of the logic: digits of a cell ([`Digits`]) and sets of cells ([`CellSet`]).

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

/// A set of digits `1..=25`, bit `d - 1` for digit `d`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Digits(u32);

impl Digits {
    /// No digit.
    pub const EMPTY: Digits = Digits(0);

    /// Every digit of a grid of side `n` (`1..=n`).
    pub const fn all(n: usize) -> Digits {
        Digits(((1u64 << n) - 1) as u32)
    }

    /// The set holding only `d`.
    ///
    /// # Panics
    /// When `d` is not in `1..=25`.
    pub const fn single(d: u8) -> Digits {
        assert!(d >= 1 && d <= 25, "digits are 1..=25");
        Digits(1 << (d - 1))
    }

    /// The set whose bit `d - 1` is set for each digit `d`.
    pub const fn from_bits(bits: u32) -> Digits {
        Digits(bits)
    }

    /// The raw bits (bit `d - 1` for digit `d`).
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether `d` is in the set.
    pub const fn contains(self, d: u8) -> bool {
        d >= 1 && d <= 25 && self.0 & (1 << (d - 1)) != 0
    }

    /// Adds `d`.
    ///
    /// # Panics
    /// When `d` is not in `1..=25`.
    pub fn insert(&mut self, d: u8) {
        assert!((1..=25).contains(&d), "digits are 1..=25");
        self.0 |= 1 << (d - 1);
    }

    /// Removes `d` (nothing for a value outside `1..=25`).
    pub fn remove(&mut self, d: u8) {
        if (1..=25).contains(&d) {
            self.0 &= !(1 << (d - 1));
        }
    }

    /// The number of digits.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The smallest digit, if any.
    pub const fn first(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as u8 + 1)
        }
    }

    /// The digit when the set holds exactly one.
    pub const fn only(self) -> Option<u8> {
        if self.0.count_ones() == 1 {
            self.first()
        } else {
            None
        }
    }

    /// The digits, smallest first.
    pub fn iter(self) -> DigitIter {
        DigitIter(self.0)
    }
}

impl BitOr for Digits {
    type Output = Digits;
    fn bitor(self, o: Digits) -> Digits {
        Digits(self.0 | o.0)
    }
}
impl BitOrAssign for Digits {
    fn bitor_assign(&mut self, o: Digits) {
        self.0 |= o.0;
    }
}
impl BitAnd for Digits {
    type Output = Digits;
    fn bitand(self, o: Digits) -> Digits {
        Digits(self.0 & o.0)
    }
}
impl BitAndAssign for Digits {
    fn bitand_assign(&mut self, o: Digits) {
        self.0 &= o.0;
    }
}
impl Sub for Digits {
    type Output = Digits;
    fn sub(self, o: Digits) -> Digits {
        Digits(self.0 & !o.0)
    }
}

impl fmt::Debug for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The digits of a [`Digits`], smallest first.
#[derive(Debug, Clone)]
pub struct DigitIter(u32);

impl Iterator for DigitIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let d = self.0.trailing_zeros() as u8 + 1;
        self.0 &= self.0 - 1;
        Some(d)
    }
}

const WORDS: usize = 10;

/// A set of cells (row-major indices below 625), as a fixed bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; WORDS]);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet([0; WORDS]);

    /// Whether `cell` is in the set.
    pub const fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] & (1 << (cell % 64)) != 0
    }

    /// Adds `cell`.
    pub const fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// Removes `cell`.
    pub const fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether the two sets share a cell.
    pub fn intersects(&self, o: &CellSet) -> bool {
        self.0.iter().zip(&o.0).any(|(a, b)| a & b != 0)
    }

    /// The smallest cell, if any.
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The cells, smallest first.
    pub fn iter(&self) -> CellIter {
        CellIter {
            words: self.0,
            word: 0,
        }
    }

    /// The 64-bit words (cell `64 * i + j` is bit `j` of word `i`).
    pub(crate) fn words(&self) -> &[u64; WORDS] {
        &self.0
    }

    /// The words, to change in place.
    pub(crate) fn words_mut(&mut self) -> &mut [u64; WORDS] {
        &mut self.0
    }

    /// The union, usable in constants.
    pub(crate) const fn union_const(mut self, o: &CellSet) -> CellSet {
        let mut i = 0;
        while i < WORDS {
            self.0[i] |= o.0[i];
            i += 1;
        }
        self
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<usize> for CellSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> CellSet {
        let mut s = CellSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

macro_rules! cellset_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tra for CellSet {
            fn $fa(&mut self, o: CellSet) {
                for i in 0..WORDS {
                    self.0[i] $op o.0[i];
                }
            }
        }
        impl $tr for CellSet {
            type Output = CellSet;
            fn $f(mut self, o: CellSet) -> CellSet {
                self $op o;
                self
            }
        }
    };
}
cellset_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
cellset_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);

impl Sub for CellSet {
    type Output = CellSet;
    fn sub(mut self, o: CellSet) -> CellSet {
        for i in 0..WORDS {
            self.0[i] &= !o.0[i];
        }
        self
    }
}
impl Not for CellSet {
    type Output = CellSet;
    fn not(mut self) -> CellSet {
        for w in &mut self.0 {
            *w = !*w;
        }
        self
    }
}

/// The cells of a [`CellSet`], smallest first.
#[derive(Debug, Clone)]
pub struct CellIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for CellIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}
