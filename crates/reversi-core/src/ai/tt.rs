//! Transposition table: a fixed-size hash table of search results keyed by the full
//! 16-byte position (both bitboards are stored, so there are no false hits).

use alloc::vec;
use alloc::vec::Vec;

/// "No move" in a table entry.
pub(crate) const NO_MOVE: u8 = 64;

/// One stored search result: bounds on the score of (`player`, `opponent`) found by a
/// search of `depth`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub player: u64,
    pub opponent: u64,
    pub lower: i16,
    pub upper: i16,
    pub depth: u8,
    pub best: u8,
    pub generation: u8,
}

impl Entry {
    const EMPTY: Entry = Entry {
        player: 0,
        opponent: 0,
        lower: i16::MIN,
        upper: i16::MAX,
        depth: 0,
        best: NO_MOVE,
        generation: 0,
    };
}

impl Entry {
    /// Applies the stored bounds to the window `(alpha, beta)`: `Err(score)` when they
    /// already decide the node, else the narrowed window.
    #[inline(always)]
    pub(crate) fn narrow(&self, alpha: i32, beta: i32) -> Result<(i32, i32), i32> {
        let (lower, upper) = (i32::from(self.lower), i32::from(self.upper));
        if lower >= beta {
            return Err(lower);
        }
        if upper <= alpha {
            return Err(upper);
        }
        if lower == upper {
            return Err(lower);
        }
        Ok((alpha.max(lower), beta.min(upper)))
    }
}

/// A two-way bucketed table: the first slot of a bucket keeps the deepest result, the
/// second always takes the newest one.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

/// Mixes a position into a table index.
#[inline(always)]
pub(crate) fn hash(player: u64, opponent: u64) -> u64 {
    let h = (player ^ opponent.rotate_left(23).wrapping_mul(0xD6E8_FEB8_6659_FD93))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 31)
}

impl Table {
    /// A table of about `2^bits` entries (at least 2).
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits.clamp(1, 28);
        Table {
            entries: vec![Entry::EMPTY; len],
            mask: (len - 1) & !1,
            generation: 0,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline(always)]
    fn bucket(&self, player: u64, opponent: u64) -> usize {
        (hash(player, opponent) as usize) & self.mask
    }

    /// The entry of this position, if stored.
    #[inline]
    pub fn probe(&self, player: u64, opponent: u64) -> Option<&Entry> {
        let i = self.bucket(player, opponent);
        self.entries[i..i + 2]
            .iter()
            .find(|e| e.player == player && e.opponent == opponent && e.depth > 0)
    }

    /// Stores the result of a search of (`player`, `opponent`) at `depth` (at least 1)
    /// that found `score` with the window (`alpha`, `beta`) and the move `best`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &mut self,
        player: u64,
        opponent: u64,
        depth: u8,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
    ) {
        let i = self.bucket(player, opponent);
        let generation = self.generation;
        let score16 = score.clamp(i16::MIN as i32 + 1, i16::MAX as i32 - 1) as i16;
        let (lower, upper) = if score <= alpha {
            (i16::MIN, score16)
        } else if score >= beta {
            (score16, i16::MAX)
        } else {
            (score16, score16)
        };
        let new = Entry {
            player,
            opponent,
            lower,
            upper,
            depth,
            best,
            generation,
        };
        // Same position already here: refine it.
        for slot in i..i + 2 {
            let e = &mut self.entries[slot];
            if e.player == player && e.opponent == opponent {
                if depth > e.depth {
                    *e = new;
                } else if depth == e.depth {
                    e.lower = e.lower.max(lower);
                    e.upper = e.upper.min(upper);
                    if e.lower > e.upper {
                        e.lower = lower;
                        e.upper = upper;
                    }
                    if best != NO_MOVE {
                        e.best = best;
                    }
                    e.generation = generation;
                }
                return;
            }
        }
        let deep = &mut self.entries[i];
        if depth >= deep.depth || deep.generation != generation {
            let old = *deep;
            *deep = new;
            // The displaced deep entry keeps a second chance in the other slot.
            if old.depth > 0 && old.generation == generation {
                self.entries[i + 1] = old;
            }
        } else {
            self.entries[i + 1] = new;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_refines_bounds() {
        let mut t = Table::new(8);
        t.store(1, 2, 5, -10, 10, 3, 7);
        let e = t.probe(1, 2).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (3, 3, 7));
        t.store(5, 6, 4, -10, 10, -20, NO_MOVE);
        let e = t.probe(5, 6).unwrap();
        assert_eq!((e.lower, e.upper), (i16::MIN, -20));
        t.store(5, 6, 4, -30, -25, -20, 9);
        let e = t.probe(5, 6).unwrap();
        assert_eq!((e.lower, e.upper, e.best), (-20, -20, 9));
        assert!(t.probe(6, 5).is_none());
        t.clear();
        assert!(t.probe(1, 2).is_none());
    }
}
