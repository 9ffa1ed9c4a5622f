//! Pencil marks and the first logical techniques, on textbook set-ups and on real puzzles.

mod common;

use common::{pattern_solution, sample};
use sudoku_core::logic::{self, Technique};
use sudoku_core::{Candidates, Grid, Marks, Size, Unit};

/// The empty 9×9 grid with its (full) pencil marks.
fn open9() -> (Grid, Candidates) {
    let g = Grid::empty(Size::Nine);
    let c = Candidates::of(&g);
    (g, c)
}

/// Removes `symbol` from every listed cell.
fn strike(c: &mut Candidates, cells: impl IntoIterator<Item = (usize, usize)>, symbol: u8) {
    for (r, col) in cells {
        assert!(c.remove(r, col, symbol));
    }
}

#[test]
fn marks_are_what_the_peers_leave_for_every_size() {
    for size in Size::ALL {
        let solved = pattern_solution(size);
        let n = size.side();
        let mut g = solved.clone();
        g.set(0, 0, None).unwrap();
        g.set(n - 1, n - 1, None).unwrap();
        let c = Candidates::of(&g);
        assert_eq!(c.get(0, 0).only(), solved.get(0, 0), "{size}");
        assert_eq!(c.get(n - 1, n - 1).only(), solved.get(n - 1, n - 1));
        assert!(c.get(0, 1).is_empty());
        assert!(c.get(n, 0).is_empty());
        assert_eq!(
            Candidates::of(&Grid::empty(size)).get(1, 1),
            Marks::all(size)
        );
    }
    let mut c = Candidates::of(&Grid::empty(Size::Four));
    c.place(0, 0, 1);
    assert!(c.get(0, 0).is_empty());
    assert!(!c.get(0, 3).contains(1) && !c.get(3, 0).contains(1) && !c.get(1, 1).contains(1));
    assert!(c.get(2, 2).contains(1));
    assert_eq!(format!("{:?}", c.get(0, 3)), "{2 3 4}");
    assert!(!c.remove(9, 9, 1));
}

#[test]
fn full_house() {
    let mut g = pattern_solution(Size::Nine);
    g.set(4, 4, None).unwrap();
    let step = logic::full_house(&g, &Candidates::of(&g)).unwrap();
    assert_eq!(step.technique, Technique::FullHouse);
    assert_eq!(step.placements, vec![(4, 4, 9)]);
    assert_eq!(step.unit, Some(Unit::Row(4)));
    assert_eq!(
        step.to_string(),
        "full house: r5c5 is the last empty cell of row 5, so it is 9"
    );
}

#[test]
fn naked_single() {
    let (g, mut c) = open9();
    strike(&mut c, [(2, 2)], 1);
    for v in 2..=9 {
        if v != 7 {
            strike(&mut c, [(2, 2)], v);
        }
    }
    let step = logic::naked_single(&g, &c).unwrap();
    assert_eq!(step.placements, vec![(2, 2, 7)]);
    assert_eq!(
        step.to_string(),
        "naked single: 7 is the only candidate left in r3c3"
    );
    assert_eq!(logic::hidden_single(&g, &c), None);
}

#[test]
fn hidden_single() {
    let (g, mut c) = open9();
    strike(
        &mut c,
        (0..9).filter(|&col| col != 4).map(|col| (0, col)),
        1,
    );
    let step = logic::hidden_single(&g, &c).unwrap();
    assert_eq!(step.placements, vec![(0, 4, 1)]);
    assert_eq!(
        step.to_string(),
        "hidden single: r1c5 is the only place left for 1 in row 1"
    );
    assert_eq!(logic::naked_single(&g, &c), None);
}

#[test]
fn locked_candidates_pointing_and_claiming() {
    // Pointing: in box 1, the 1s are all in row 1, so no other cell of row 1 takes a 1.
    let (g, mut c) = open9();
    strike(
        &mut c,
        (1..3).flat_map(|r| (0..3).map(move |col| (r, col))),
        1,
    );
    let step = logic::locked_candidates(&g, &c).unwrap();
    assert_eq!(step.unit, Some(Unit::Box(0)));
    assert_eq!(step.cells, vec![(0, 0), (0, 1), (0, 2)]);
    assert_eq!(
        step.eliminations,
        (3..9).map(|col| (0, col, 1)).collect::<Vec<_>>()
    );
    assert_eq!(
        step.to_string(),
        "locked candidates: in box 1, 1 can only be in r1c1, r1c2, r1c3, which rules out 6 \
         candidates elsewhere"
    );
    // Claiming: in row 1, the 1s are all in box 1, so the rest of box 1 takes none.
    let (g, mut c) = open9();
    strike(&mut c, (3..9).map(|col| (0, col)), 1);
    let step = logic::locked_candidates(&g, &c).unwrap();
    assert_eq!(step.unit, Some(Unit::Row(0)));
    assert_eq!(
        step.eliminations,
        (1..3)
            .flat_map(|r| (0..3).map(move |col| (r, col, 1)))
            .collect::<Vec<_>>()
    );
}

#[test]
fn naked_and_hidden_pairs() {
    // Naked pair: r1c1 and r1c2 hold only 1 and 2, which leave the rest of row 1.
    let (g, mut c) = open9();
    for v in 3..=9 {
        strike(&mut c, [(0, 0), (0, 1)], v);
    }
    let step = logic::naked_subset(&g, &c, 2).unwrap();
    assert_eq!(step.technique, Technique::NakedSubset(2));
    assert_eq!(
        (step.unit, step.symbols.clone()),
        (Some(Unit::Row(0)), vec![1, 2])
    );
    assert_eq!(step.eliminations.len(), 14);
    assert!(
        step.to_string()
            .starts_with("naked pair: r1c1, r1c2 in row 1 hold only 1 and 2")
    );
    // Two cells make no triple.
    assert_eq!(logic::naked_subset(&g, &c, 3), None);
    // Hidden pair: 1 and 2 can only go in r1c1 and r1c2, whose other marks go.
    let (g, mut c) = open9();
    for v in [1, 2] {
        strike(&mut c, (2..9).map(|col| (0, col)), v);
    }
    let step = logic::hidden_subset(&g, &c, 2).unwrap();
    assert_eq!(step.technique, Technique::HiddenSubset(2));
    assert_eq!(step.cells, vec![(0, 0), (0, 1)]);
    assert_eq!(step.eliminations.len(), 14);
    assert!(step.eliminations.iter().all(|&(r, _, v)| r == 0 && v > 2));
    assert_eq!(logic::naked_subset(&g, &c, 2), None);
}

/// Solves with logic alone while it can; checks every step against the known solution.
/// Returns whether the grid got full.
fn solve_logically(puzzle: &Grid) -> bool {
    let solution = puzzle.solve_unique().unwrap();
    let (mut g, mut c) = (puzzle.clone(), Candidates::of(puzzle));
    while let Some(step) = logic::next_step(&g, &c) {
        for &(r, col, v) in &step.placements {
            assert_eq!(solution.get(r, col), Some(v), "{puzzle}: {step}");
        }
        for &(r, col, v) in &step.eliminations {
            assert_ne!(solution.get(r, col), Some(v), "{puzzle}: {step}");
        }
        assert!(!step.placements.is_empty() || !step.eliminations.is_empty());
        step.apply(&mut g, &mut c);
    }
    g.is_full()
}

#[test]
fn steps_are_sound_and_solve_easy_puzzles() {
    let easy = sample("puzzles0_kaggle_sample69.txt", 69);
    let solved = easy.iter().filter(|p| solve_logically(p)).count();
    assert_eq!(solved, 69);
    // Hard puzzles need more than these techniques, but every step is still sound.
    let hard = sample("puzzles3_magictour_top1465.txt", 40);
    let solved = hard.iter().filter(|p| solve_logically(p)).count();
    assert!(solved < 40, "{solved}");
}
