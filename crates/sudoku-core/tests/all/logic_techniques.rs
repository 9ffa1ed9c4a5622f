//! Each technique on a hand-made position with the exact eliminations it must find, and on
//! a variant where it must not fire.
//!
//! Positions start from an empty (or nearly empty) grid whose candidates are narrowed by
//! hand, so the pattern is the only structure on the board.

use sudoku_core::logic::{LogicSolver, Step, Technique, find};
use sudoku_core::{Candidates, Digits, Grid, Size};

/// The 0-based index of 1-based `r`, `c` on 9×9.
fn rc(r: usize, c: usize) -> usize {
    (r - 1) * 9 + (c - 1)
}

fn empty9() -> Candidates {
    Candidates::new(&Grid::empty(Size::Nine))
}

/// Leaves `cell` with exactly `digits`.
fn only(state: &mut Candidates, cell: usize, digits: &[u8]) {
    for d in 1..=9 {
        if !digits.contains(&d) {
            state.eliminate(cell, d);
        }
    }
}

/// Removes `d` from every cell of row `r` except the columns `keep`.
fn row_only(state: &mut Candidates, r: usize, d: u8, keep: &[usize]) {
    for c in 1..=9 {
        if !keep.contains(&c) {
            state.eliminate(rc(r, c), d);
        }
    }
}

/// Removes `d` from every cell of column `c` except the rows `keep`.
fn col_only(state: &mut Candidates, c: usize, d: u8, keep: &[usize]) {
    for r in 1..=9 {
        if !keep.contains(&r) {
            state.eliminate(rc(r, c), d);
        }
    }
}

/// An empty 9×9 grid whose listed cells keep only the listed candidates.
fn cells9(cells: &[(usize, &[u8])]) -> Candidates {
    let mut state = empty9();
    for &(c, d) in cells {
        only(&mut state, c, d);
    }
    state
}

fn sorted(mut v: Vec<(usize, u8)>) -> Vec<(usize, u8)> {
    v.sort_unstable();
    v
}

fn cells_of(d: u8, cells: &[(usize, usize)]) -> Vec<(usize, u8)> {
    sorted(cells.iter().map(|&(r, c)| (rc(r, c), d)).collect())
}

/// The step of `t`, which must exist and apply.
fn found(t: Technique, state: &Candidates) -> Step {
    let s = find(t, state).unwrap_or_else(|| panic!("{t} not found"));
    assert_eq!(s.technique, t);
    assert!(s.applies_to(state), "{s}");
    assert!(!s.explanation.is_empty());
    s
}

/// The first step of the full solver: the technique itself, nothing simpler.
fn first(state: &Candidates) -> Step {
    LogicSolver::new().next_step(state).expect("a step")
}

#[test]
fn full_house_and_not_with_two_gaps() {
    let sol: Grid =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
            .parse()
            .unwrap();
    let mut cells = sol.cells().to_vec();
    cells[rc(1, 1)] = 0;
    let state = Candidates::new(&Grid::from_cells(Size::Nine, &cells).unwrap());
    let s = first(&state);
    assert_eq!(s.technique, Technique::FullHouse);
    assert_eq!(s.placements, vec![(0, 8)]);
    assert_eq!(
        s.explanation,
        "r1c1 is the last empty cell of box 1, so it holds 8."
    );
    for cell in [rc(1, 2), rc(2, 1), rc(2, 2)] {
        cells[cell] = 0;
    }
    let state = Candidates::new(&Grid::from_cells(Size::Nine, &cells).unwrap());
    assert!(find(Technique::FullHouse, &state).is_none());
}

#[test]
fn hidden_single_in_a_box() {
    let mut cells = vec![0u8; 81];
    for (r, c) in [(2, 5), (3, 8), (5, 2), (7, 3)] {
        cells[rc(r, c)] = 1;
    }
    let g = Grid::from_cells(Size::Nine, &cells).unwrap();
    let s = first(&Candidates::new(&g));
    assert_eq!(s.technique, Technique::HiddenSingleBox);
    assert_eq!(s.placements, vec![(0, 1)]);
    assert_eq!(s.explanation, "In box 1, only r1c1 can hold 1.");
    cells[rc(7, 3)] = 0;
    let g = Grid::from_cells(Size::Nine, &cells).unwrap();
    assert!(find(Technique::HiddenSingleBox, &Candidates::new(&g)).is_none());
}

#[test]
fn hidden_single_in_a_row() {
    let mut state = empty9();
    row_only(&mut state, 1, 1, &[1]);
    let s = first(&state);
    assert_eq!(s.technique, Technique::HiddenSingleLine);
    assert_eq!(s.placements, vec![(0, 1)]);
    assert_eq!(s.explanation, "In row 1, only r1c1 can hold 1.");
    let mut state = empty9();
    row_only(&mut state, 1, 1, &[1, 9]);
    assert!(find(Technique::HiddenSingleLine, &state).is_none());
    assert!(find(Technique::HiddenSingleBox, &state).is_none());
}

#[test]
fn naked_single() {
    let mut state = empty9();
    only(&mut state, rc(5, 5), &[7]);
    let s = first(&state);
    assert_eq!(s.technique, Technique::NakedSingle);
    assert_eq!(s.placements, vec![(rc(5, 5), 7)]);
    let mut state = empty9();
    only(&mut state, rc(5, 5), &[7, 8]);
    assert!(find(Technique::NakedSingle, &state).is_none());
}

#[test]
fn pointing_and_claiming() {
    let mut state = empty9();
    for (r, c) in [(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)] {
        state.eliminate(rc(r, c), 5);
    }
    let s = first(&state);
    assert_eq!(s.technique, Technique::Pointing);
    assert_eq!(
        sorted(s.eliminations.clone()),
        cells_of(5, &[(1, 4), (1, 5), (1, 6), (1, 7), (1, 8), (1, 9)])
    );
    assert_eq!(
        s.explanation,
        "In box 1, 5 can only be in row 1, so it is removed from the rest of row 1: 5 from r1c4, r1c5, r1c6, r1c7, r1c8 and r1c9."
    );
    let mut not = empty9();
    for (r, c) in [(2, 2), (2, 3), (3, 1), (3, 2), (3, 3)] {
        not.eliminate(rc(r, c), 5);
    }
    assert!(find(Technique::Pointing, &not).is_none());

    let mut state = empty9();
    row_only(&mut state, 1, 5, &[1, 2, 3]);
    let s = first(&state);
    assert_eq!(s.technique, Technique::Claiming);
    assert_eq!(
        sorted(s.eliminations),
        cells_of(5, &[(2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3)])
    );
    let mut not = empty9();
    row_only(&mut not, 1, 5, &[1, 2, 4]);
    assert!(find(Technique::Claiming, &not).is_none());
}

#[test]
fn naked_pair() {
    let mut state = empty9();
    only(&mut state, rc(1, 1), &[1, 2]);
    only(&mut state, rc(1, 5), &[1, 2]);
    let s = first(&state);
    assert_eq!(s.technique, Technique::NakedPair);
    let mut want: Vec<(usize, u8)> = (1..=9)
        .filter(|&c| c != 1 && c != 5)
        .flat_map(|c| [(rc(1, c), 1), (rc(1, c), 2)])
        .collect();
    want.sort_unstable();
    assert_eq!(sorted(s.eliminations), want);
    let mut not = empty9();
    only(&mut not, rc(1, 1), &[1, 2]);
    only(&mut not, rc(1, 5), &[1, 2, 3]);
    assert!(find(Technique::NakedPair, &not).is_none());
}

#[test]
fn hidden_pair() {
    let mut state = empty9();
    row_only(&mut state, 1, 1, &[1, 4]);
    row_only(&mut state, 1, 2, &[1, 4]);
    let s = first(&state);
    assert_eq!(s.technique, Technique::HiddenPair);
    let want: Vec<(usize, u8)> = [rc(1, 1), rc(1, 4)]
        .into_iter()
        .flat_map(|c| (3..=9).map(move |d| (c, d)))
        .collect();
    assert_eq!(sorted(s.eliminations), sorted(want));
    let mut not = empty9();
    row_only(&mut not, 1, 1, &[1, 4]);
    row_only(&mut not, 1, 2, &[1, 4, 7]);
    assert!(find(Technique::HiddenPair, &not).is_none());
}

#[test]
fn naked_and_hidden_triples_and_quads() {
    let mut state = empty9();
    only(&mut state, rc(1, 1), &[1, 2]);
    only(&mut state, rc(1, 4), &[2, 3]);
    only(&mut state, rc(1, 7), &[1, 3]);
    let s = found(Technique::NakedTriple, &state);
    assert_eq!(s.eliminations.len(), 6 * 3);
    assert!(s.eliminations.iter().all(|&(c, d)| c < 9 && d <= 3));
    let not = cells9(&[
        (rc(1, 1), &[1, 2]),
        (rc(1, 4), &[2, 3]),
        (rc(1, 7), &[1, 4]),
    ]);
    assert!(find(Technique::NakedTriple, &not).is_none());

    let mut state = empty9();
    for (i, pair) in [[1, 2], [2, 3], [3, 4], [4, 1]].iter().enumerate() {
        only(&mut state, rc(1, 1 + 2 * i), pair);
    }
    let s = found(Technique::NakedQuad, &state);
    assert_eq!(s.eliminations.len(), 5 * 4);

    let mut state = empty9();
    for d in [1, 2, 3] {
        row_only(&mut state, 1, d, &[1, 4, 7]);
    }
    let s = found(Technique::HiddenTriple, &state);
    assert_eq!(s.eliminations.len(), 3 * 6);
    let mut state = empty9();
    for d in [1, 2, 3, 4] {
        row_only(&mut state, 1, d, &[1, 3, 5, 7]);
    }
    let s = found(Technique::HiddenQuad, &state);
    assert_eq!(s.eliminations.len(), 4 * 5);
    assert!(find(Technique::HiddenTriple, &state).is_none());
}

#[test]
fn x_wing() {
    let mut state = empty9();
    row_only(&mut state, 1, 5, &[2, 7]);
    row_only(&mut state, 5, 5, &[2, 7]);
    let s = first(&state);
    assert_eq!(s.technique, Technique::XWing);
    let want: Vec<(usize, usize)> = (1..=9)
        .filter(|&r| r != 1 && r != 5)
        .flat_map(|r| [(r, 2), (r, 7)])
        .collect();
    assert_eq!(sorted(s.eliminations.clone()), cells_of(5, &want));
    assert_eq!(
        s.explanation,
        "In rows 1 and 5, 5 can only be in columns 2 and 7, so it leaves the rest of those columns: 5 from r2c2, r2c7, r3c2, r3c7, r4c2, r4c7, r6c2, r6c7, r7c2, r7c7, r8c2, r8c7, r9c2 and r9c7."
    );
    let mut not = empty9();
    row_only(&mut not, 1, 5, &[2, 7]);
    row_only(&mut not, 5, 5, &[2, 7, 9]);
    assert!(find(Technique::XWing, &not).is_none());
}

#[test]
fn swordfish_and_jellyfish() {
    let mut state = empty9();
    row_only(&mut state, 1, 5, &[1, 4]);
    row_only(&mut state, 4, 5, &[4, 7]);
    row_only(&mut state, 7, 5, &[1, 7]);
    let s = first(&state);
    assert_eq!(s.technique, Technique::Swordfish);
    let want: Vec<(usize, usize)> = [2, 3, 5, 6, 8, 9]
        .into_iter()
        .flat_map(|r| [(r, 1), (r, 4), (r, 7)])
        .collect();
    assert_eq!(sorted(s.eliminations), cells_of(5, &want));
    row_only(&mut state, 7, 5, &[1, 7, 9]);
    let mut not = empty9();
    row_only(&mut not, 1, 5, &[1, 4]);
    row_only(&mut not, 4, 5, &[4, 7]);
    row_only(&mut not, 7, 5, &[1, 7, 9]);
    assert!(find(Technique::Swordfish, &not).is_none());

    let mut state = empty9();
    row_only(&mut state, 1, 5, &[1, 4]);
    row_only(&mut state, 4, 5, &[4, 7]);
    row_only(&mut state, 7, 5, &[5, 7]);
    row_only(&mut state, 9, 5, &[1, 5]);
    let s = found(Technique::Jellyfish, &state);
    let want: Vec<(usize, usize)> = [2, 3, 5, 6, 8]
        .into_iter()
        .flat_map(|r| [(r, 1), (r, 4), (r, 5), (r, 7)])
        .collect();
    assert_eq!(sorted(s.eliminations), cells_of(5, &want));
    let mut not = empty9();
    row_only(&mut not, 1, 5, &[1, 4]);
    row_only(&mut not, 4, 5, &[4, 7]);
    row_only(&mut not, 7, 5, &[5, 7]);
    row_only(&mut not, 9, 5, &[1, 5, 9]);
    assert!(find(Technique::Jellyfish, &not).is_none());
}

#[test]
fn finned_x_wing() {
    let mut state = empty9();
    row_only(&mut state, 1, 5, &[2, 7]);
    row_only(&mut state, 5, 5, &[2, 7, 8]);
    let s = first(&state);
    assert_eq!(s.technique, Technique::FinnedXWing);
    assert_eq!(sorted(s.eliminations), cells_of(5, &[(4, 7), (6, 7)]));
    // A fin in a box no cover column crosses rules nothing out.
    let mut not = empty9();
    row_only(&mut not, 1, 5, &[2, 7]);
    row_only(&mut not, 5, 5, &[2, 5, 7]);
    assert!(find(Technique::FinnedXWing, &not).is_none());
}

#[test]
fn xy_wing_and_xyz_wing() {
    let mut state = empty9();
    only(&mut state, rc(1, 1), &[1, 2]);
    only(&mut state, rc(1, 5), &[1, 3]);
    only(&mut state, rc(5, 1), &[2, 3]);
    let s = found(Technique::XYWing, &state);
    assert_eq!(s.eliminations, vec![(rc(5, 5), 3)]);
    let not = cells9(&[
        (rc(1, 1), &[1, 2]),
        (rc(1, 5), &[1, 3]),
        (rc(5, 1), &[2, 4]),
    ]);
    assert!(find(Technique::XYWing, &not).is_none());

    let mut state = empty9();
    only(&mut state, rc(1, 1), &[1, 2, 3]);
    only(&mut state, rc(2, 2), &[1, 3]);
    only(&mut state, rc(1, 5), &[2, 3]);
    let s = found(Technique::XYZWing, &state);
    assert_eq!(sorted(s.eliminations), cells_of(3, &[(1, 2), (1, 3)]));
    let not = cells9(&[
        (rc(1, 1), &[1, 2, 3]),
        (rc(2, 2), &[1, 3]),
        (rc(1, 5), &[2, 4]),
    ]);
    assert!(find(Technique::XYZWing, &not).is_none());
}

#[test]
fn w_wing() {
    let mut state = empty9();
    only(&mut state, rc(1, 1), &[1, 2]);
    only(&mut state, rc(9, 9), &[1, 2]);
    row_only(&mut state, 5, 1, &[1, 9]);
    let s = found(Technique::WWing, &state);
    assert_eq!(sorted(s.eliminations), cells_of(2, &[(1, 9), (9, 1)]));
    let mut not = empty9();
    only(&mut not, rc(1, 1), &[1, 2]);
    only(&mut not, rc(9, 9), &[1, 2]);
    row_only(&mut not, 5, 1, &[1, 8, 9]);
    assert!(find(Technique::WWing, &not).is_none());
}

#[test]
fn skyscraper_and_two_string_kite() {
    let mut state = empty9();
    row_only(&mut state, 1, 5, &[1, 5]);
    row_only(&mut state, 4, 5, &[1, 6]);
    let s = found(Technique::Skyscraper, &state);
    assert_eq!(
        sorted(s.eliminations),
        cells_of(5, &[(2, 6), (3, 6), (5, 5), (6, 5)])
    );
    let mut not = empty9();
    row_only(&mut not, 1, 5, &[1, 5]);
    row_only(&mut not, 4, 5, &[2, 6]);
    assert!(find(Technique::Skyscraper, &not).is_none());

    let mut state = empty9();
    row_only(&mut state, 1, 5, &[2, 7]);
    col_only(&mut state, 1, 5, &[2, 8]);
    let s = found(Technique::TwoStringKite, &state);
    assert_eq!(s.eliminations, vec![(rc(8, 7), 5)]);
    let mut not = empty9();
    row_only(&mut not, 1, 5, &[4, 7]);
    col_only(&mut not, 1, 5, &[2, 8]);
    assert!(find(Technique::TwoStringKite, &not).is_none());
}

#[test]
fn empty_rectangle() {
    let mut state = empty9();
    for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
        state.eliminate(rc(r, c), 5);
    }
    row_only(&mut state, 5, 5, &[1, 6]);
    let s = found(Technique::EmptyRectangle, &state);
    assert_eq!(s.eliminations, vec![(rc(1, 6), 5)]);
    // The box's candidates off the cross: no empty rectangle.
    state = empty9();
    for (r, c) in [(2, 2), (3, 2), (3, 3)] {
        state.eliminate(rc(r, c), 5);
    }
    row_only(&mut state, 5, 5, &[1, 6]);
    assert!(find(Technique::EmptyRectangle, &state).is_none());
}

#[test]
fn simple_colouring_trap() {
    let mut state = empty9();
    col_only(&mut state, 1, 5, &[1, 7]);
    row_only(&mut state, 1, 5, &[1, 5]);
    col_only(&mut state, 5, 5, &[1, 9]);
    let s = found(Technique::SimpleColouring, &state);
    assert_eq!(
        sorted(s.eliminations),
        cells_of(5, &[(7, 4), (7, 6), (9, 2), (9, 3)])
    );
    let mut not = empty9();
    col_only(&mut not, 1, 5, &[1, 7]);
    row_only(&mut not, 1, 5, &[1, 5]);
    assert!(find(Technique::SimpleColouring, &not).is_none());
}

#[test]
fn x_chain() {
    let mut state = empty9();
    row_only(&mut state, 1, 5, &[1, 5]);
    row_only(&mut state, 4, 5, &[5, 8]);
    row_only(&mut state, 8, 5, &[2, 8]);
    let s = found(Technique::XChain, &state);
    assert_eq!(
        sorted(s.eliminations),
        cells_of(5, &[(2, 2), (3, 2), (7, 1), (9, 1)])
    );
    let mut not = empty9();
    row_only(&mut not, 1, 5, &[1, 5]);
    row_only(&mut not, 4, 5, &[5, 8]);
    row_only(&mut not, 8, 5, &[2, 5, 8]);
    assert!(find(Technique::XChain, &not).is_none());
}

#[test]
fn xy_chain_and_aic() {
    let mut state = empty9();
    only(&mut state, rc(1, 1), &[1, 2]);
    only(&mut state, rc(1, 5), &[2, 3]);
    only(&mut state, rc(5, 5), &[3, 4]);
    only(&mut state, rc(5, 9), &[4, 1]);
    let s = found(Technique::XYChain, &state);
    assert_eq!(sorted(s.eliminations), cells_of(1, &[(1, 9), (5, 1)]));
    assert!(s.explanation.contains("chain"), "{}", s.explanation);
    let s = found(Technique::Aic, &state);
    assert!(!s.eliminations.is_empty());
    let not = cells9(&[
        (rc(1, 1), &[1, 2]),
        (rc(1, 5), &[2, 3]),
        (rc(5, 5), &[3, 4]),
        (rc(5, 9), &[4, 6]),
    ]);
    assert!(find(Technique::XYChain, &not).is_none());
}

#[test]
fn unique_rectangles() {
    let floor = |state: &mut Candidates| {
        only(state, rc(1, 1), &[1, 2]);
        only(state, rc(1, 4), &[1, 2]);
    };
    // Type 1: the fourth corner loses 1 and 2.
    let mut state = empty9();
    floor(&mut state);
    only(&mut state, rc(2, 1), &[1, 2]);
    let s = found(Technique::UniqueRectangle1, &state);
    assert_eq!(s.eliminations, vec![(rc(2, 4), 1), (rc(2, 4), 2)]);
    // Type 2: the roof shares the extra 7, which leaves the rest of row 2.
    let mut state = empty9();
    floor(&mut state);
    only(&mut state, rc(2, 1), &[1, 2, 7]);
    only(&mut state, rc(2, 4), &[1, 2, 7]);
    let s = found(Technique::UniqueRectangle2, &state);
    let want: Vec<(usize, usize)> = [2, 3, 5, 6, 7, 8, 9].iter().map(|&c| (2, c)).collect();
    assert_eq!(sorted(s.eliminations), cells_of(7, &want));
    assert!(find(Technique::UniqueRectangle1, &state).is_none());
    // Type 3: the roof's extras {3, 4} with r2c7 {3, 4} make a naked pair in row 2.
    let mut state = empty9();
    floor(&mut state);
    only(&mut state, rc(2, 1), &[1, 2, 3]);
    only(&mut state, rc(2, 4), &[1, 2, 4]);
    only(&mut state, rc(2, 7), &[3, 4]);
    let s = found(Technique::UniqueRectangle3, &state);
    let want: Vec<(usize, u8)> = [2, 3, 5, 6, 8, 9]
        .into_iter()
        .flat_map(|c| [(rc(2, c), 3), (rc(2, c), 4)])
        .collect();
    assert_eq!(sorted(s.eliminations), sorted(want));
    assert!(find(Technique::UniqueRectangle2, &state).is_none());
    // Type 4: 1 is locked in the roof (row 2), so the roof loses 2.
    let mut state = empty9();
    floor(&mut state);
    row_only(&mut state, 2, 1, &[1, 4]);
    let s = found(Technique::UniqueRectangle4, &state);
    assert_eq!(s.eliminations, vec![(rc(2, 1), 2), (rc(2, 4), 2)]);
    // Four boxes: no unique rectangle.
    let mut four = empty9();
    only(&mut four, rc(1, 1), &[1, 2]);
    only(&mut four, rc(1, 5), &[1, 2]);
    only(&mut four, rc(4, 1), &[1, 2]);
    assert!(find(Technique::UniqueRectangle1, &four).is_none());
}

#[test]
fn bug_plus_one_on_4x4() {
    // Two solutions that differ in every cell give a bivalue grave; a third candidate in
    // one cell is then the true digit.
    let s: Vec<u8> = "1234341221434321".bytes().map(|b| b - b'0').collect();
    let t: Vec<u8> = s
        .iter()
        .map(|&d| [2, 1, 4, 3][usize::from(d) - 1])
        .collect();
    let mut marks: Vec<Digits> = s
        .iter()
        .zip(&t)
        .map(|(&a, &b)| Digits::single(a) | Digits::single(b))
        .collect();
    marks[0].insert(3);
    let state = Candidates::with_marks(&Grid::empty(Size::Four), &marks);
    let step = found(Technique::BugPlusOne, &state);
    assert_eq!(step.placements, vec![(0, 3)]);
    marks[5].insert(1); // a second cell with three candidates
    let state = Candidates::with_marks(&Grid::empty(Size::Four), &marks);
    assert!(find(Technique::BugPlusOne, &state).is_none());
}

#[test]
fn als_xz() {
    let mut state = empty9();
    only(&mut state, rc(1, 1), &[1, 2]);
    only(&mut state, rc(5, 1), &[1, 3]);
    only(&mut state, rc(5, 5), &[2, 3]);
    let s = found(Technique::AlsXz, &state);
    assert_eq!(s.eliminations, vec![(rc(1, 5), 2)]);
    let mut not = empty9();
    only(&mut not, rc(1, 1), &[1, 2]);
    only(&mut not, rc(5, 1), &[1, 3]);
    only(&mut not, rc(5, 5), &[2, 4]);
    assert!(find(Technique::AlsXz, &not).is_none());
}

#[test]
fn techniques_work_on_16x16() {
    let empty = Grid::empty(Size::Sixteen);
    let mut state = Candidates::new(&empty);
    // An X-wing on 9 in rows 1 and 10, columns 2 and 11.
    for c in 0..16 {
        if c != 1 && c != 10 {
            state.eliminate(c, 9);
            state.eliminate(9 * 16 + c, 9);
        }
    }
    let s = LogicSolver::new().next_step(&state).unwrap();
    assert_eq!(s.technique, Technique::XWing);
    assert_eq!(s.eliminations.len(), 2 * 14);
    assert!(s.explanation.contains("rows 1 and 10"), "{}", s.explanation);
    // A hidden single in box 16.
    let mut state = Candidates::new(&empty);
    for cell in 0..256 {
        if (cell / 16 >= 12 && cell % 16 >= 12) && cell != 255 {
            state.eliminate(cell, 16);
        }
    }
    let s = LogicSolver::new().next_step(&state).unwrap();
    assert_eq!(s.technique, Technique::HiddenSingleBox);
    assert_eq!(s.placements, vec![(255, 16)]);
    assert_eq!(s.explanation, "In box 16, only r16c16 can hold G.");
}

#[test]
fn technique_order_is_by_difficulty() {
    for w in Technique::ALL.windows(2) {
        assert!(w[0] < w[1]);
        assert!(w[0].difficulty() <= w[1].difficulty(), "{} {}", w[0], w[1]);
    }
    assert_eq!(Technique::FullHouse.difficulty(), 10);
    assert_eq!(Technique::Trial.difficulty(), 110);
}
