//! Fuzzes the canonical form of 16×16 and 25×25 grids on structured, often very symmetric
//! inputs (a pattern grid or the empty grid with cells removed by row, column and symbol
//! classes): it must stay within its budget, be idempotent and be the same for a
//! transformed copy.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_core::transform::{Transform, canonical_form};
use sudoku_core::{Grid, Size};

/// A permutation of `0..len` from the bytes (a Fisher–Yates shuffle).
fn perm(len: usize, bytes: &mut impl Iterator<Item = u8>) -> Vec<usize> {
    let mut p: Vec<usize> = (0..len).collect();
    for i in (1..len).rev() {
        let j = usize::from(bytes.next().unwrap_or(0)) % (i + 1);
        p.swap(i, j);
    }
    p
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let head = bytes.next().unwrap_or(0);
    let size = if head & 1 == 0 {
        Size::Sixteen
    } else {
        Size::TwentyFive
    };
    let (n, k) = (size.side(), size.box_rows());
    // The base: the cyclic-shift grid, a group table, or arbitrary symbols.
    let base = |r: usize, c: usize| -> u8 {
        match (head >> 1) % 4 {
            0 => ((k * (r % k) + r / k + c) % n) as u8 + 1,
            1 if n == 16 => ((4 * (r % 4) + r / 4) ^ c) as u8 + 1,
            1 => {
                let (a, b, d, e) = (r % 5, r / 5, c / 5, c % 5);
                (((a + d) % 5) * 5 + (b + e) % 5) as u8 + 1
            }
            2 => ((r * 7 + c * 3) % n) as u8 + 1,
            _ => 0,
        }
    };
    // Classes of rows, columns and symbols (two bits each) and which combinations to keep.
    let classes: Vec<u8> = (0..3 * n).map(|_| bytes.next().unwrap_or(0) & 3).collect();
    let keep = u64::from_le_bytes(core::array::from_fn(|_| bytes.next().unwrap_or(0)));
    let mut cells = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            let mut v = base(r, c);
            if v == 0 {
                // Arbitrary symbols where the base is empty, from the remaining bytes.
                let b = bytes.next().unwrap_or(0);
                v = if usize::from(b) <= n { b } else { 0 };
            }
            let class =
                classes[r] | classes[n + c] << 2 | classes[2 * n + usize::from(v.max(1)) - 1] << 4;
            if keep >> class & 1 == 1 {
                cells[r * n + c] = v;
            }
        }
    }
    let grid = Grid::from_cells(size, &cells).expect("values are in range");
    let form = canonical_form(&grid).expect("within the budget");
    assert_eq!(canonical_form(&form).as_ref(), Some(&form), "{grid}");
    let digits = perm(n, &mut bytes);
    let bands = perm(k, &mut bytes);
    let rows: Vec<Vec<usize>> = (0..k).map(|_| perm(k, &mut bytes)).collect();
    let stacks = perm(k, &mut bytes);
    let cols: Vec<Vec<usize>> = (0..k).map(|_| perm(k, &mut bytes)).collect();
    let transpose = bytes.next().unwrap_or(0) & 1 == 1;
    let t = Transform::new(size, &digits, &bands, &rows, &stacks, &cols, transpose).unwrap();
    let moved = t.apply(&grid).unwrap();
    assert_eq!(
        canonical_form(&moved).as_ref(),
        Some(&form),
        "{grid}\n{moved}"
    );
});
