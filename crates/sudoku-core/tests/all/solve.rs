//! The solvers on known puzzles of every size and on samples of the benchmark sets.

use crate::common;

use common::{pattern_solution, sample};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sudoku_core::{Backend, Grid, SearchAborted, Size, SolveError, Solver, generate};

const GENERAL: Solver = Solver::new().backend(Backend::General);

fn check_unique(p: &Grid) -> Grid {
    let s = p.solve_unique().unwrap_or_else(|e| panic!("{p}: {e}"));
    assert!(s.is_solution_of(p), "{p} -> {s}");
    s
}

#[test]
fn known_puzzles_of_every_size() {
    // 4×4 and 6×6 puzzles with a unique solution.
    let p4: Grid = ".....24...24..3.".parse().unwrap();
    assert_eq!(p4.count_solutions(10), 1);
    assert_eq!(check_unique(&p4).to_string(), "4312124331242431");
    let p6: Grid = ".4...3..2........2.6..34.5.4....6.5.".parse().unwrap();
    assert_eq!(
        check_unique(&p6).to_string(),
        "645213312645534162261534153426426351"
    );
    assert_eq!(GENERAL.count(&p6, 10), Ok(1));
    // 9×9: Norvig's hard one, and Arto Inkala's.
    let p9: Grid =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .parse()
            .unwrap();
    assert_eq!(
        check_unique(&p9).to_string(),
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
    );
    let inkala: Grid =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
            .parse()
            .unwrap();
    assert_eq!(
        check_unique(&inkala).to_string(),
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    );
    // 16×16 and 25×25: a pattern solution with many cells removed, completed again.
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    for size in [Size::Sixteen, Size::TwentyFive] {
        let full = generate::solved_grid(size, &mut rng);
        let mut cells = full.cells().to_vec();
        for (i, c) in cells.iter_mut().enumerate() {
            if i % 3 != 0 {
                *c = 0;
            }
        }
        let p = Grid::from_cells(size, &cells).unwrap();
        let s = p.solve_one().unwrap();
        assert!(s.is_solution_of(&p), "{size}");
    }
}

#[test]
fn counts_of_small_grids() {
    // The 4×4 grid has 288 solutions.
    assert_eq!(Grid::empty(Size::Four).count_solutions(1000), 288);
    assert_eq!(Grid::empty(Size::Four).count_solutions(5), 5);
    assert_eq!(Grid::empty(Size::Four).solutions(7).len(), 7);
    // Every 4×4 solution is different and valid.
    let all = Grid::empty(Size::Four).solutions(300);
    assert_eq!(all.len(), 288);
    let set: std::collections::HashSet<String> = all.iter().map(|g| g.to_string()).collect();
    assert_eq!(set.len(), 288);
    assert!(all.iter().all(|g| g.is_full() && g.is_consistent()));
    assert_eq!(Grid::empty(Size::Nine).count_solutions(0), 0);
    // A full valid grid has one solution, itself.
    for size in Size::ALL {
        let g = pattern_solution(size);
        assert_eq!(g.solve_unique(), Ok(g.clone()), "{size}");
    }
}

/// A solved grid with a "deadly pattern": two rows of one band and two columns of two
/// stacks whose four cells hold a, b / b, a. Emptying them leaves exactly two solutions.
fn deadly_rectangle(g: &Grid) -> Option<[(usize, usize); 4]> {
    for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
            for c1 in 0..9 {
                for c2 in (c1 / 3 + 1) * 3..9 {
                    let (a, b) = (g.get(r1, c1), g.get(r1, c2));
                    if g.get(r2, c1) == b && g.get(r2, c2) == a {
                        return Some([(r1, c1), (r1, c2), (r2, c1), (r2, c2)]);
                    }
                }
            }
        }
    }
    None
}

#[test]
fn a_deadly_pattern_has_two_solutions() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut tested = 0;
    for _ in 0..50 {
        let full = generate::solved_grid(Size::Nine, &mut rng);
        let Some(cells) = deadly_rectangle(&full) else {
            continue;
        };
        let mut p = full.clone();
        for (r, c) in cells {
            p.set(r, c, None).unwrap();
        }
        assert_eq!(p.count_solutions(10), 2, "{p}");
        assert_eq!(GENERAL.count(&p, 10), Ok(2));
        assert_eq!(p.solve_unique(), Err(SolveError::MultipleSolutions));
        let sols = p.solutions(10);
        assert_eq!(sols.len(), 2);
        assert!(sols.iter().all(|s| s.is_solution_of(&p)));
        assert!(sols.contains(&full));
        tested += 1;
    }
    assert!(tested >= 5, "only {tested} grids had a deadly rectangle");
}

#[test]
fn contradictions_end_quickly_with_no_solution() {
    // Clashing givens.
    let clash: Grid = format!("11{}", ".".repeat(79)).parse().unwrap();
    assert_eq!(clash.count_solutions(2), 0);
    assert_eq!(clash.solve_unique(), Err(SolveError::NoSolution));
    assert_eq!(GENERAL.count(&clash, 2), Ok(0));
    // No clash, but r1c9 can hold nothing: 1-8 in row 1, 9 in column 9.
    let dead: Grid = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63))
        .parse()
        .unwrap();
    assert!(dead.is_consistent());
    assert_eq!(dead.count_solutions(2), 0);
    assert_eq!(GENERAL.count(&dead, 2), Ok(0));
    // Every size, clashing givens.
    for size in Size::ALL {
        let mut g = Grid::empty(size);
        g.set(0, 0, Some(1)).unwrap();
        g.set(1, 1, Some(1)).unwrap();
        assert_eq!(g.count_solutions(2), 0, "{size}");
    }
    // Propagation alone completes a 16×16 grid with an emptied row: no branching node.
    let mut g = pattern_solution(Size::Sixteen);
    for c in 0..16 {
        g.set(5, c, None).unwrap();
    }
    g.set(0, 0, None).unwrap();
    g.set(0, 1, None).unwrap();
    let limited = Solver::new().node_limit(10);
    assert_eq!(limited.count(&g, 2), Ok(1));
    let empty25 = Grid::empty(Size::TwentyFive);
    match Solver::new().node_limit(3).count(&empty25, 2) {
        Ok(n) => assert!(n <= 2),
        Err(SearchAborted(3)) => {}
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn node_limits_bound_every_engine() {
    // Counting every 9×9 grid would never end: the limit stops it.
    let empty = Grid::empty(Size::Nine);
    assert_eq!(
        Solver::new().node_limit(50).count(&empty, usize::MAX),
        Err(SearchAborted(50))
    );
    assert_eq!(
        GENERAL.node_limit(50).count(&empty, usize::MAX),
        Err(SearchAborted(50))
    );
    // A proper puzzle needs few nodes.
    let p: Grid =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .parse()
            .unwrap();
    assert_eq!(Solver::new().node_limit(1000).count(&p, 2), Ok(1));
    assert_eq!(
        Solver::new()
            .node_limit(1000)
            .solutions(&p, 2)
            .unwrap()
            .len(),
        1
    );
}

fn check_dataset(name: &str, n: usize, expected: usize) {
    let puzzles = sample(name, n);
    for p in &puzzles {
        assert_eq!(p.count_solutions(2), expected, "{name}: {p}");
        let s = p.solve_one().unwrap();
        assert!(s.is_solution_of(p), "{name}: {p}");
    }
    for p in puzzles.iter().take(n / 4) {
        assert_eq!(GENERAL.count(p, 2), Ok(expected), "{name}: {p}");
    }
}

#[test]
fn dataset_17_clue() {
    check_dataset("puzzles2_17_clue.txt", 200, 1);
}

#[test]
fn dataset_magictour() {
    check_dataset("puzzles3_magictour_top1465.txt", 100, 1);
}

#[test]
fn dataset_forum_hardest_11() {
    check_dataset("puzzles5_forum_hardest_1905_11+.txt", 60, 1);
}

#[test]
fn dataset_forum_hardest_1106() {
    check_dataset("puzzles6_forum_hardest_1106.txt", 60, 1);
}

#[test]
fn dataset_serg_has_several_solutions() {
    check_dataset("puzzles7_serg_benchmark.txt", 200, 2);
}

#[test]
fn dataset_kaggle() {
    check_dataset("puzzles0_kaggle_sample69.txt", 69, 1);
    check_dataset("puzzles0_kagglelike_proxy100k.txt", 200, 1);
}

#[test]
fn fast_and_general_solvers_agree_on_damaged_puzzles() {
    // Remove or add givens to dataset puzzles: counts must agree, solutions must be valid.
    let puzzles = sample("puzzles3_magictour_top1465.txt", 40);
    for (k, p) in puzzles.iter().enumerate() {
        let mut cells = p.cells().to_vec();
        let filled: Vec<usize> = (0..81).filter(|&i| cells[i] != 0).collect();
        cells[filled[k % filled.len()]] = 0;
        let fewer = Grid::from_cells(Size::Nine, &cells).unwrap();
        let a = fewer.count_solutions(50);
        assert_eq!(GENERAL.count(&fewer, 50), Ok(a), "{fewer}");
        for s in fewer.solutions(50) {
            assert!(s.is_solution_of(&fewer));
        }
        let empty = (0..81).find(|&i| cells[i] == 0).unwrap();
        cells[empty] = (k % 9) as u8 + 1;
        let more = Grid::from_cells(Size::Nine, &cells).unwrap();
        assert_eq!(
            more.count_solutions(50),
            GENERAL.count(&more, 50).unwrap(),
            "{more}"
        );
    }
}

#[test]
fn fast_and_general_counts_agree_on_random_puzzles() {
    // Random solved grids with 40 to 64 cells emptied (unique to many solutions), every
    // seventh one with a wrong given (often no solution); counts capped at 1 to 20.
    use rand::RngExt;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut seen = [0usize; 3];
    for k in 0..300 {
        let solved = generate::solved_grid(Size::Nine, &mut rng);
        let mut cells = solved.cells().to_vec();
        let mut order: Vec<usize> = (0..81).collect();
        let holes = 40 + k % 25;
        for i in 0..holes {
            let j = rng.random_range(i..81);
            order.swap(i, j);
            cells[order[i]] = 0;
        }
        if k % 7 == 0 {
            let c = order[holes];
            cells[c] = cells[c] % 9 + 1;
        }
        let g = Grid::from_cells(Size::Nine, &cells).unwrap();
        let limit = 1 + k % 20;
        let fast = g.count_solutions(limit);
        assert_eq!(Ok(fast), GENERAL.count(&g, limit), "{g} (limit {limit})");
        seen[fast.min(2)] += 1;
        if let Some(s) = g.solve_one() {
            assert!(s.is_solution_of(&g), "{g}");
        }
    }
    // The sample covers every kind of answer.
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}
