//! `LogicSolver::outline` and `solves` (the 9×9 singles on fixed arrays, the general
//! candidates only past them) give exactly the outline of `outline_from` on the general
//! candidates: same solved flag, hardest technique, step count and final state.

use sudoku_core::logic::{LogicSolver, Technique, Techniques};
use sudoku_core::{Candidates, Grid, puzzle_lines};

/// Puzzles `0..n` of a file of `data/sudoku/`; fails loudly when it is missing.
fn sample(name: &str, n: usize) -> Vec<Grid> {
    let path = format!("{}/../../data/sudoku/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("dataset {path} is missing or unreadable: {e}"));
    let v: Vec<Grid> = puzzle_lines(&text)
        .take(n)
        .map(|l| l.grid.unwrap_or_else(|e| panic!("{path}:{}: {e}", l.line)))
        .collect();
    assert_eq!(v.len(), n, "{path} is too short");
    v
}

fn only(ts: &[Technique]) -> Techniques {
    ts.iter().fold(Techniques::NONE, |s, &t| s.with(t))
}

/// Compares the two outlines of `p` under `set`; whether the solve finished.
fn same_outline(p: &Grid, set: Techniques) -> bool {
    let solver = LogicSolver::with_techniques(set);
    let general = solver.outline_from(Candidates::new(p));
    let fast = solver.outline(p);
    assert_eq!(fast.solved, general.solved, "{p}");
    assert_eq!(fast.hardest, general.hardest, "{p}");
    assert_eq!(fast.steps, general.steps, "{p}");
    assert_eq!(fast.end.to_grid(), general.end.to_grid(), "{p}");
    assert_eq!(fast.end.marks(), general.end.marks(), "{p}");
    assert_eq!(fast.end.is_broken(), general.end.is_broken(), "{p}");
    assert_eq!(solver.solves(p), general.solved, "{p}");
    general.solved
}

/// Proper puzzles of every kind, then broken ones: a given dropped (several solutions) or
/// changed (none, or a digit twice), where the order of the singles decides the end.
fn puzzles() -> Vec<Grid> {
    let mut v = sample("puzzles0_kaggle_sample69.txt", 69);
    v.extend(sample("puzzles2_17_clue.txt", 150));
    v.extend(sample("puzzles3_magictour_top1465.txt", 40));
    v.extend(sample("puzzles5_forum_hardest_1905_11+.txt", 5));
    let proper = v.len();
    for (k, p) in v[..proper].to_vec().iter().enumerate() {
        let mut cells = p.cells().to_vec();
        let given = (0..81).filter(|&c| cells[c] != 0).nth(k % 17).unwrap();
        cells[given] = if k % 2 == 0 { 0 } else { cells[given] % 9 + 1 };
        v.push(Grid::from_cells(p.size(), &cells).unwrap());
    }
    v
}

#[test]
fn outline_matches_the_general_outline_for_every_technique_set() {
    let sets = [
        Techniques::singles(),
        Techniques::basic(),
        Techniques::up_to(Technique::Claiming),
        only(&[Technique::NakedSingle]),
        only(&[Technique::HiddenSingleBox, Technique::HiddenSingleLine]),
        only(&[Technique::FullHouse, Technique::NakedSingle]),
        only(&[Technique::HiddenSingleLine, Technique::Pointing]),
        Techniques::NONE,
    ];
    let all = puzzles();
    for set in sets {
        let solved = all.iter().filter(|p| same_outline(p, set)).count();
        if set == Techniques::basic() {
            // The kaggle puzzles, many 17-clue ones and a few magictour ones finish.
            assert!(solved > 69 && solved < all.len(), "{solved}");
        }
    }
}

#[test]
fn outline_matches_with_every_technique_and_on_other_sizes() {
    let mut v = sample("puzzles0_kaggle_sample69.txt", 10);
    v.extend(sample("puzzles3_magictour_top1465.txt", 3));
    for p in &v {
        assert!(same_outline(p, Techniques::all()), "{p}");
    }
    // Other sizes take the general path (the 4×4 one has several solutions).
    for text in ["1.3.3.1.2.4.4.2.", "1..4......2...3.....5....6..1...2..."] {
        let p: Grid = text.parse().unwrap();
        same_outline(&p, Techniques::all());
        same_outline(&p, Techniques::singles());
    }
}
