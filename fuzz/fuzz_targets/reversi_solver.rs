//! The exact solver against a brute-force minimax on arbitrary positions with at most
//! 9 empty squares, and the search's move legality on arbitrary positions.
#![no_main]

use std::sync::{Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;
use reversi_core::ai::{Limits, Searcher, Solver};
use reversi_core::bitboard::{flips, legal_moves};

fn final_score(p: u64, o: u64) -> i32 {
    let (np, no) = (p.count_ones() as i32, o.count_ones() as i32);
    if np > no {
        64 - 2 * no
    } else if np < no {
        2 * np - 64
    } else {
        0
    }
}

fn minimax(p: u64, o: u64) -> i32 {
    let moves = legal_moves(p, o);
    if moves == 0 {
        if legal_moves(o, p) == 0 {
            return final_score(p, o);
        }
        return -minimax(o, p);
    }
    let mut best = i32::MIN;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros() as u8;
        m &= m - 1;
        let f = flips(p, o, sq);
        best = best.max(-minimax(o ^ f, p | f | (1 << sq)));
    }
    best
}

/// One searcher for the whole run, cleared before each input: building one (its tables and
/// evaluation) per input cost more than the fuzzing itself.
fn searcher() -> &'static Mutex<Searcher> {
    static SEARCHER: OnceLock<Mutex<Searcher>> = OnceLock::new();
    SEARCHER.get_or_init(|| Mutex::new(Searcher::new()))
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 24 {
        return;
    }
    let word = |i: usize| u64::from_le_bytes(data[i..i + 8].try_into().unwrap());
    let (raw_p, raw_o, fill) = (word(0), word(8), word(16));
    let p0 = raw_p;
    let o0 = raw_o & !raw_p;
    // A shallow search returns a legal move in any position.
    let result = {
        let mut searcher = searcher().lock().unwrap_or_else(|e| e.into_inner());
        searcher.clear();
        searcher.search(p0, o0, &Limits::depth(2, 6), &mut || false)
    };
    match result.best {
        Some(sq) => assert!(legal_moves(p0, o0) & (1 << sq) != 0),
        None => assert_eq!(legal_moves(p0, o0), 0),
    }
    // Fill all but at most 9 empty squares, then solve exactly.
    let (mut p, mut o) = (p0, o0);
    let mut empty = !(p | o);
    let mut k = 0;
    while empty.count_ones() > 9 {
        let bit = empty & empty.wrapping_neg();
        if (fill >> (k % 64)) & 1 == 1 {
            p |= bit;
        } else {
            o |= bit;
        }
        empty &= empty - 1;
        k += 1;
    }
    let exact = minimax(p, o);
    let solution = Solver::with_table_bits(10).solve(p, o);
    assert_eq!(solution.score, exact);
    if let Some(sq) = solution.best {
        let f = flips(p, o, sq);
        assert!(f != 0);
        assert_eq!(-minimax(o ^ f, p | f | (1 << sq)), exact);
    }
});
